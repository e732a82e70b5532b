//! Golden runs of `variant play`: a person's session scripted on standard input for every game
//! in `games/` (a move, an illegal move and its explanation, undo, hint, save, quit), boards
//! drawn without colour and kept as snapshots; games between computer players; the end of
//! input; wrong players.

use std::process::Command;

mod common;

use common::{games, games_dir, run_in, sides, temporary_dir, text};

/// The side names of a game, from its file.
/// `--SIDE PLAYER` for every side but the first, which a person plays.
fn opponents(game: &str, player: &str) -> Vec<String> {
    sides(game)[1..]
        .iter()
        .flat_map(|side| [format!("--{side}"), player.to_string()])
        .collect()
}

fn first_legal_move(game: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_variant"))
        .args(["moves", game])
        .output()
        .expect("runs");
    text(&output.stdout)
        .lines()
        .next()
        .expect("a legal move")
        .to_string()
}

#[test]
fn a_scripted_session_of_every_game() {
    for game in games() {
        let dir = temporary_dir(&format!("session-{game}"));
        let first = first_legal_move(&game);
        let script = format!(
            "help\n{first}\ne2e5\nexplain e2e5\nnonsense!\ncontrol\nundo\nhint\n{first}\nsave game.pgn\nquit\n"
        );
        let mut args = vec![
            "play".to_string(),
            game.clone(),
            "--seed".into(),
            "7".into(),
        ];
        args.extend(opponents(&game, "random"));
        args.extend(["--hint".into(), "mcts:200".into()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = run_in(&dir, &args, &script);
        let transcript = text(&output.stdout);
        assert!(output.status.success(), "{game}: {}", text(&output.stderr));
        assert!(
            !transcript.contains('\x1b'),
            "{game}: no colour when stdout is not a terminal"
        );
        // The illegal move got a reason and the prompt came back.
        assert!(
            transcript.contains("`e2e5` is not legal: "),
            "{game}: {transcript}"
        );
        assert!(transcript.contains("Taken back: "), "{game}");
        assert!(transcript.contains("hint: "), "{game}");
        // The person's move and the others' replies up to the person's next turn: 2 moves in a
        // game of two sides, 1 if the first move left the turn with the same side (a placement
        // phase, a turn of several actions), 4 in Cooperative Chess (White, Red, Black, Red).
        let count = (1..=4)
            .find(|&n| {
                let plural = if n == 1 { "move" } else { "moves" };
                transcript.contains(&format!("saved {n} {plural} to game.pgn"))
            })
            .unwrap_or_else(|| panic!("{game}: nothing saved: {transcript}"));
        insta::assert_snapshot!(format!("session-{game}"), transcript);

        // The saved game resumes where it was, and replays.
        let mut resume = vec!["play".to_string(), "--load".into(), "game.pgn".into()];
        resume.extend(opponents(&game, "random"));
        let resume: Vec<&str> = resume.iter().map(String::as_str).collect();
        let resumed = run_in(&dir, &resume, "quit\n");
        assert!(
            resumed.status.success(),
            "{game}: {}",
            text(&resumed.stderr)
        );
        assert!(
            text(&resumed.stdout).contains(&format!(
                "unfinished, after {count} move{}",
                if count == 1 { "" } else { "s" }
            )),
            "{game}: {}",
            text(&resumed.stdout)
        );
        let replayed = run_in(&dir, &["replay", "game.pgn"], "");
        assert!(
            replayed.status.success(),
            "{game}: {}",
            text(&replayed.stderr)
        );
        assert!(
            count == 1 || text(&replayed.stdout).contains("\n2. ") || count > 2,
            "{game}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn end_of_input_ends_the_game_cleanly_and_says_how_to_resume() {
    let dir = temporary_dir("eof");
    let output = run_in(
        &dir,
        &[
            "play", "chess", "--black", "random", "--seed", "1", "--record", "r.pgn",
        ],
        "e4\n",
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    assert!(
        out.contains("end of input: the game stops here, unfinished, after 2 moves"),
        "{out}"
    );
    assert!(
        out.contains("Resume it with: variant play chess --load r.pgn"),
        "{out}"
    );
    let record = std::fs::read_to_string(dir.join("r.pgn")).expect("the record was written");
    assert!(record.contains("1. e4 "), "{record}");
    // Only the record is left: no temporary file.
    let files: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
    assert_eq!(files.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_that_cannot_be_written_does_not_stop_the_game() {
    let dir = temporary_dir("unwritable");
    let output = run_in(
        &dir,
        &[
            "play",
            "chess",
            "--black",
            "random",
            "--seed",
            "1",
            "--record",
            "missing/r.pgn",
        ],
        "e4\nsave saved.pgn\nquit\n",
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let err = text(&output.stderr);
    assert_eq!(
        err.matches("warning: cannot save the game to `missing/r.pgn`")
            .count(),
        1,
        "{err}"
    );
    assert!(text(&output.stdout).contains("saved 2 moves to saved.pgn"));
    assert!(dir.join("saved.pgn").is_file());
    // Between computers, the game is played out, then the failure is the exit code.
    let output = run_in(
        &dir,
        &[
            "play",
            "coverage",
            "--white",
            "random",
            "--black",
            "random",
            "--record",
            "missing/r.pgn",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stdout).contains("Result: "));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_between_computers_is_played_to_the_end_and_is_reproducible() {
    for game in games() {
        let players: Vec<String> = sides(&game)
            .iter()
            .zip(["random", "mcts:20", "search:1", "random"])
            .flat_map(|(side, player)| [format!("--{side}"), player.to_string()])
            .collect();
        let mut args = vec![
            "play".to_string(),
            game.clone(),
            "--seed".into(),
            "11".into(),
        ];
        args.extend(players);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let dir = temporary_dir(&format!("auto-{game}"));
        let first = run_in(&dir, &args, "");
        let second = run_in(&dir, &args, "");
        assert!(first.status.success(), "{game}: {}", text(&first.stderr));
        let out = text(&first.stdout);
        assert!(out.contains("\nResult: "), "{game}: {out}");
        assert!(out.contains("\nMoves:\n1. "), "{game}: {out}");
        assert_eq!(
            out,
            text(&second.stdout),
            "{game}: the same seed plays the same game"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn wrong_players_are_refused_with_a_reason() {
    let dir = temporary_dir("players");
    for (args, expected) in [
        (
            vec!["play", "chess", "--black", "mcts:fast"],
            "`fast` is neither a count",
        ),
        (
            vec!["play", "chess", "--black", "policy"],
            "gives black no policy",
        ),
        (
            vec!["play", "chess", "--black", "search:999"],
            "the search depth must be between 1 and 64",
        ),
        (
            vec!["play", "chess", "--black", "robot"],
            "`robot` is not a player",
        ),
        (
            vec!["play", "chess", "--white", "random:3"],
            "`random` takes no budget",
        ),
        (vec!["play"], "give a GAME"),
        (
            vec!["play", "--load", "missing.pgn"],
            "cannot read the record `missing.pgn`",
        ),
    ] {
        let output = run_in(&dir, &args, "");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(
            text(&output.stderr).contains(expected),
            "{args:?}: {}",
            text(&output.stderr)
        );
    }
    // A side the game does not have is not a flag.
    let output = run_in(&dir, &["play", "chess", "--red", "human"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--red"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_help_lists_the_sides_of_the_game() {
    let output = run_in(&games_dir(), &["play", "chess", "--help"], "");
    let help = text(&output.stdout);
    assert!(help.contains("--white <PLAYER>"), "{help}");
    assert!(help.contains("--black <PLAYER>"), "{help}");
    let generic = text(&run_in(&games_dir(), &["play", "--help"], "").stdout);
    assert!(generic.contains("--SIDE PLAYER"), "{generic}");
}

#[test]
fn short_algebraic_moves_are_understood() {
    let dir = temporary_dir("san");
    // Both knights can go to d2: `Nd2` is ambiguous, `Nbd2` is not.
    let output = run_in(
        &dir,
        &[
            "play",
            "chess",
            "--fen",
            "4k3/8/8/8/8/5N2/8/1N2K2R w K - 0 1",
            "--black",
            "random",
            "--seed",
            "1",
        ],
        "Nd2\nNbd2\nquit\n",
    );
    let out = text(&output.stdout);
    assert!(
        out.contains("`Nd2` is ambiguous: it could be Nbd2 or Nfd2"),
        "{out}"
    );
    assert!(out.contains("white> Nbd2\nblack plays"), "{out}");
    assert!(out.contains(" 2  . . . N . . . .\n"), "{out}");
    let castle = run_in(
        &dir,
        &[
            "play",
            "chess",
            "--fen",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            "--black",
            "random",
            "--seed",
            "1",
        ],
        "0-0\nquit\n",
    );
    assert!(
        text(&castle.stdout).contains(" 1  . . . . . R K .\n"),
        "{}",
        text(&castle.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

mod typed_lines {
    use super::{opponents, run_in, temporary_dir, text};
    use proptest::prelude::*;

    /// Lines a person might type: commands, moves in every notation, garbage.
    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("undo".to_string()),
            Just("resign".to_string()),
            Just("moves".to_string()),
            Just("control".to_string()),
            Just("explain".to_string()),
            Just("save".to_string()),
            Just("save /no/such/folder/x.pgn".to_string()),
            "explain [A-Za-z0-9@=+#x-]{0,8}",
            "[KQRBNP]?[a-i]?[0-9]?x?[a-i][0-9]{1,2}(=[QRBN])?[+#]?",
            "[KQRBNP]@[a-i][0-9]",
            "[a-h][1-8][a-h][1-8][qrbn]?",
            "(O-O|0-0|O-O-O)",
            "\\PC{0,12}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn no_typed_line_crashes_the_prompt(game in 0usize..4, lines in prop::collection::vec(line(), 1..25)) {
            let game = ["chess", "coverage", "coverage-weighted", "cheversi"][game];
            let dir = temporary_dir(&format!("typed-{game}"));
            let mut args = vec!["play".to_string(), game.to_string(), "--seed".into(), "1".into()];
            args.extend(opponents(game, "random"));
            args.extend(["--hint".into(), "random".into()]);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let input = lines.join("\n") + "\n";
            let output = run_in(&dir, &args, &input);
            let err = text(&output.stderr);
            prop_assert!(output.status.success(), "{input:?}: {err}");
            prop_assert!(!err.contains("panicked"), "{input:?}: {err}");
            let out = text(&output.stdout);
            prop_assert!(out.contains("Result: ") || out.contains("the game stops here"), "{out}");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
