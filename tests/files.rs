//! The files the `variant` binary reads and writes, and the messages of its flags (issue 25):
//! records never replace what they should not, are written when the game starts and find their
//! game outside `games/`; every read is bounded; the shipped games are built into the binary;
//! `list` and "did you mean"; out-of-range numbers and malformed input are errors that say so.
//! Each test runs the real binary, most with the command of the run that found the problem.

mod common;

use common::{games, games_dir, stderr, stdout, temporary_dir, variant};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `binary ARGS` in `dir` with `input` on standard input, without `VARIANT_GAMES` (so that
/// only `dir/games` and the built-in games are found by name), killed after a minute.
fn run_with(binary: &Path, dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(binary)
        .args(args)
        .current_dir(dir)
        .env_remove("VARIANT_GAMES")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // Written and read from threads: the binary may stop reading (a refused flag), and its
    // output may be more than a pipe holds.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = drain(child.stdout.take().expect("stdout"));
    let stderr = drain(child.stderr.take().expect("stderr"));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting works") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("`variant {}` did not finish in 60 s", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = writer.join();
    Output {
        status,
        stdout: stdout.join().expect("the output"),
        stderr: stderr.join().expect("the errors"),
    }
}

/// Reads a pipe to its end on a thread of its own.
fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

/// Runs the binary under test in `dir` (see [`run_with`]).
fn run(dir: &Path, args: &[&str], input: &str) -> Output {
    run_with(
        Path::new(env!("CARGO_BIN_EXE_variant")),
        dir,
        args,
        input.as_bytes(),
    )
}

/// Runs the binary under test in `dir` with at most 64 MiB of data memory (`prlimit --data`,
/// when the system has it: then reading a whole 100 MB line or an endless device would fail).
fn run_in_64_mib(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let prlimit = Path::new("/usr/bin/prlimit");
    if !prlimit.exists() {
        eprintln!("no /usr/bin/prlimit: memory not limited");
        return run_with(Path::new(env!("CARGO_BIN_EXE_variant")), dir, args, input);
    }
    let mut limited = vec!["--data=67108864", "--", env!("CARGO_BIN_EXE_variant")];
    limited.extend_from_slice(args);
    run_with(prlimit, dir, &limited, input)
}

fn chess_text() -> String {
    std::fs::read_to_string(games_dir().join("chess.variant")).expect("chess.variant")
}

const SQUIRE: &str = "// Squire chess\nextends \"chess\"\ngame \"Squire Chess\"\n\npiece Knight {\n    letter N\n    value 4\n    moves \"NW\"\n}\n";

const RANDOM_GAME: [&str; 6] = ["--white", "random", "--black", "random", "--seed", "1"];

fn with_random_players<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut all = args.to_vec();
    all.extend_from_slice(&RANDOM_GAME);
    all
}

// ---------------------------------------------------------------------------------------------
// Lost games and overwritten files
// ---------------------------------------------------------------------------------------------

#[test]
fn a_record_never_replaces_the_game_file_being_played() {
    let dir = temporary_dir("files-game-file");
    std::fs::write(dir.join("x.variant"), chess_text()).unwrap();
    for force in [false, true] {
        let mut args = with_random_players(&["play", "x.variant", "--record", "x.variant"]);
        if force {
            args.push("--force");
        }
        let output = run(&dir, &args, "");
        assert!(
            !output.status.success(),
            "--force {force}: {}",
            stdout(&output)
        );
        assert!(
            stderr(&output).contains("`x.variant` is the game file being played"),
            "{}",
            stderr(&output)
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("x.variant")).unwrap(),
            chess_text()
        );
    }
    // Nor a file it extends.
    std::fs::write(dir.join("chess.variant"), chess_text()).unwrap();
    std::fs::write(dir.join("squire.variant"), SQUIRE).unwrap();
    let output = run(
        &dir,
        &with_random_players(&[
            "play",
            "squire.variant",
            "--record",
            "chess.variant",
            "--force",
        ]),
        "",
    );
    assert!(!output.status.success());
    assert!(
        stderr(&output)
            .contains("`chess.variant` is a game file that the game being played extends"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("chess.variant")).unwrap(),
        chess_text()
    );
}

#[test]
fn a_record_replaces_only_a_record_of_the_same_game_unless_forced() {
    let dir = temporary_dir("files-overwrite");
    std::fs::write(dir.join("notes.txt"), "my notes\n").unwrap();
    let output = run(
        &dir,
        &with_random_players(&["play", "chess", "--record", "notes.txt"]),
        "",
    );
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("`notes.txt` exists and is not a game record")
            && stderr(&output).contains("--force"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "my notes\n"
    );
    let forced = run(
        &dir,
        &with_random_players(&["play", "chess", "--record", "notes.txt", "--force"]),
        "",
    );
    assert!(forced.status.success(), "{}", stderr(&forced));
    let record = std::fs::read_to_string(dir.join("notes.txt")).unwrap();
    assert!(record.contains("[GameName \"Chess\"]"), "{record}");
    // A record of chess is replaced by another game of chess, not by a game of Cheversi.
    let again = run(
        &dir,
        &with_random_players(&["play", "chess", "--record", "notes.txt"]),
        "",
    );
    assert!(again.status.success(), "{}", stderr(&again));
    let other = run(
        &dir,
        &with_random_players(&["play", "cheversi", "--record", "notes.txt"]),
        "",
    );
    assert!(!other.status.success());
    assert!(
        stderr(&other).contains("a record of another game (Chess)"),
        "{}",
        stderr(&other)
    );
}

#[test]
fn save_at_the_prompt_replaces_another_file_only_with_force() {
    let dir = temporary_dir("files-save");
    std::fs::write(dir.join("notes.txt"), "my notes\n").unwrap();
    let refused = run(
        &dir,
        &["play", "chess", "--black", "random"],
        "save notes.txt\nquit\n",
    );
    assert!(
        stdout(&refused).contains("not saved: `notes.txt` exists and is not a game record"),
        "{}",
        stdout(&refused)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "my notes\n"
    );
    let forced = run(
        &dir,
        &["play", "chess", "--black", "random"],
        "save --force notes.txt\nquit\n",
    );
    assert!(
        stdout(&forced).contains("saved 0 moves to notes.txt"),
        "{}",
        stdout(&forced)
    );
    assert!(std::fs::read_to_string(dir.join("notes.txt"))
        .unwrap()
        .contains("[GameName \"Chess\"]"));
}

#[test]
fn the_record_is_written_when_the_game_starts() {
    let dir = temporary_dir("files-first-think");
    let record = dir.join("game.pgn");
    // White thinks for a minute: the record must be there long before its first move.
    let mut child = Command::new(env!("CARGO_BIN_EXE_variant"))
        .args(["play", "chess", "--white", "mcts:60s", "--black", "random"])
        .args(["--record", "game.pgn"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let started = Instant::now();
    let mut found = None;
    while started.elapsed() < Duration::from_secs(30) {
        if let Ok(text) = std::fs::read_to_string(&record) {
            found = Some(text);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let still_thinking = child.try_wait().expect("waiting works").is_none();
    let _ = child.kill();
    let _ = child.wait();
    let text = found.expect("the record is written at the start");
    assert!(still_thinking, "the game was still in its first move");
    assert!(text.contains("[GameFile \"chess.variant\"]"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
}

#[test]
fn replay_of_an_endless_device_is_refused_after_the_limit() {
    let dir = temporary_dir("files-dev-zero");
    let output = run_in_64_mib(&dir, &["replay", "/dev/zero"], b"");
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("`/dev/zero` is larger than 16 MiB"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_record_longer_than_the_limit_is_refused() {
    let dir = temporary_dir("files-long-record");
    let mut text = String::from("[Event \"x\"]\n\n");
    text.push_str(&"{ a comment }".repeat(17 * 1024 * 1024 / 13));
    std::fs::write(dir.join("long.pgn"), text).unwrap();
    let output = run(&dir, &["replay", "long.pgn"], "");
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("larger than 16 MiB"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_line_too_long_at_the_prompt_is_skipped() {
    let dir = temporary_dir("files-long-line");
    let mut input = vec![b'x'; 100_000_000];
    input.extend_from_slice(b"\nquit\n");
    let output = run_in_64_mib(&dir, &["play", "chess", "--black", "random"], &input);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("that line is longer than 65536 bytes: it was skipped"),
        "{}",
        &stdout(&output)[..stdout(&output).len().min(2000)]
    );
    assert!(stdout(&output).contains("you quit: the game stops here"));
}

#[test]
fn replay_step_skips_a_line_too_long() {
    let dir = temporary_dir("files-step-line");
    let record = run(
        &dir,
        &with_random_players(&["play", "chess", "--record", "r.pgn"]),
        "",
    );
    assert!(record.status.success(), "{}", stderr(&record));
    let mut input = vec![b'y'; 1024 * 1024];
    input.extend_from_slice(b"\nq\n");
    let output = run_with(
        Path::new(env!("CARGO_BIN_EXE_variant")),
        &dir,
        &["replay", "r.pgn", "--step", "--no-color"],
        &input,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("that line is longer than 65536 bytes"));
}

// ---------------------------------------------------------------------------------------------
// Files outside `games/`
// ---------------------------------------------------------------------------------------------

#[test]
fn side_flags_work_for_a_game_that_extends_a_shipped_one_from_elsewhere() {
    let output = variant(&with_random_players(&["play", "games/atomic.variant"]));
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("Atomic chess: white random against black random"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_record_of_a_game_outside_games_replays_and_loads_from_elsewhere() {
    let dir = temporary_dir("files-outside");
    std::fs::write(dir.join("squire.variant"), SQUIRE).unwrap();
    let played = run(
        &dir,
        &with_random_players(&["play", "squire.variant", "--record", "r.pgn"]),
        "",
    );
    assert!(played.status.success(), "{}", stderr(&played));
    let record = std::fs::read_to_string(dir.join("r.pgn")).unwrap();
    assert!(
        record.contains("[GameFile \"./squire.variant\"]"),
        "{record}"
    );
    // From another directory, the game file is found beside the record.
    let sub = dir.join("elsewhere");
    std::fs::create_dir_all(&sub).unwrap();
    let replayed = run(&sub, &["replay", "../r.pgn", "--no-color"], "");
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(stdout(&replayed).starts_with("Squire Chess: "));
    let loaded = run(
        &sub,
        &[
            "play", "--load", "../r.pgn", "--white", "random", "--black", "random",
        ],
        "",
    );
    assert!(loaded.status.success(), "{}", stderr(&loaded));
    // The hash check stays: a changed game file refuses the record.
    std::fs::write(
        dir.join("squire.variant"),
        SQUIRE.replace("value 4", "value 5"),
    )
    .unwrap();
    let changed = run(&sub, &["replay", "../r.pgn"], "");
    assert!(!changed.status.success());
    assert!(
        stderr(&changed).contains("was recorded with a different version"),
        "{}",
        stderr(&changed)
    );
}

#[test]
fn a_record_names_a_game_by_its_path_from_the_repository() {
    let dir = temporary_dir("files-path-as-given");
    let record = dir.join("atomic.pgn");
    let record_arg = record.to_str().unwrap();
    let played = variant(&with_random_players(&[
        "play",
        "games/atomic.variant",
        "--record",
        record_arg,
    ]));
    assert!(played.status.success(), "{}", stderr(&played));
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(
        text.contains("[GameFile \"games/atomic.variant\"]"),
        "{text}"
    );
    let replayed = variant(&["replay", record_arg]);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(stdout(&replayed).starts_with("Atomic chess: "));
    // A shipped game played by its path is found by name from anywhere else.
    let chess = dir.join("chess.pgn");
    let chess_arg = chess.to_str().unwrap();
    let played = variant(&with_random_players(&[
        "play",
        "games/chess.variant",
        "--record",
        chess_arg,
    ]));
    assert!(played.status.success(), "{}", stderr(&played));
    assert!(std::fs::read_to_string(&chess)
        .unwrap()
        .contains("[GameFile \"games/chess.variant\"]"));
    let replayed = run(&dir, &["replay", "chess.pgn"], "");
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(stdout(&replayed).starts_with("Chess: "));
}

/// The binary copied away from the clone, run where no `games/` folder is reachable.
fn moved_binary(name: &str) -> (common::TemporaryDir, PathBuf, PathBuf) {
    let dir = temporary_dir(name);
    let binary = dir.join("bin").join("variant");
    std::fs::create_dir_all(binary.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_variant"), &binary).expect("copy the binary");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    (dir, binary, work)
}

#[test]
fn the_installed_binary_knows_the_shipped_games_without_the_clone() {
    let (_dir, binary, work) = moved_binary("files-moved-binary");
    let shown = run_with(&binary, &work, &["show", "chess"], b"");
    assert!(shown.status.success(), "{}", stderr(&shown));
    assert!(
        stdout(&shown).contains("FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    );
    let checked = run_with(
        &binary,
        &work,
        &["check", "chess", "takeover-chess-64-free-setup"],
        b"",
    );
    assert!(checked.status.success(), "{}", stderr(&checked));
    assert_eq!(
        stdout(&checked),
        "ok: chess\nok: takeover-chess-64-free-setup\n"
    );
    // `extends "chess"` from a user's file resolves to the built-in chess.
    std::fs::write(work.join("squire.variant"), SQUIRE).unwrap();
    let extended = run_with(&binary, &work, &["check", "squire.variant"], b"");
    assert!(extended.status.success(), "{}", stderr(&extended));
    // A user's games folder comes first.
    std::fs::create_dir_all(work.join("games")).unwrap();
    std::fs::write(
        work.join("games").join("chess.variant"),
        chess_text().replace("game \"Chess\"", "game \"My Chess\""),
    )
    .unwrap();
    let mine = run_with(&binary, &work, &["show", "chess", "--json"], b"");
    assert!(
        stdout(&mine).contains("\"game\":\"My Chess\""),
        "{}",
        stdout(&mine)
    );
}

#[test]
fn list_prints_every_game_with_its_description() {
    let output = variant(&["list"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let listing = stdout(&output);
    let names: Vec<&str> = listing
        .lines()
        .map(|line| line.split_whitespace().next().unwrap_or(""))
        .collect();
    assert_eq!(names, games());
    let chess = listing.lines().find(|l| l.starts_with("chess ")).unwrap();
    assert!(
        chess.ends_with("Chess: Orthodox chess, as played under the FIDE Laws of Chess."),
        "{chess}"
    );
    // From anywhere: the built-in games, and a user's games folder too.
    let (_dir, binary, work) = moved_binary("files-list");
    std::fs::create_dir_all(work.join("games")).unwrap();
    std::fs::write(work.join("games").join("squire.variant"), SQUIRE).unwrap();
    std::fs::write(work.join("games").join("broken.variant"), "game {").unwrap();
    let output = run_with(&binary, &work, &["list"], b"");
    assert!(output.status.success(), "{}", stderr(&output));
    let listing = stdout(&output);
    assert_eq!(listing.lines().count(), games().len() + 2, "{listing}");
    assert!(
        listing.contains("(does not load: `variant check broken` says why)"),
        "{listing}"
    );
    assert!(listing.contains("squire "), "{listing}");
    assert!(listing.contains("Squire Chess"), "{listing}");
}

#[test]
fn an_unknown_game_gets_did_you_mean_in_every_command() {
    for args in [
        vec!["show", "chss"],
        vec!["check", "chss"],
        vec!["perft", "chss", "--depth", "1"],
        vec!["moves", "chss"],
        vec!["explain", "chss", "e2e4"],
        vec!["dump", "chss"],
        vec!["policy", "chss"],
        vec!["match", "chss", "random", "random"],
        vec!["play", "chss", "--white", "random", "--black", "random"],
    ] {
        let output = variant(&args);
        assert!(!output.status.success(), "{args:?}");
        assert!(
            stderr(&output).contains("no game `chss` (did you mean `chess`?)"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    // A record naming a game that is nowhere.
    let dir = temporary_dir("files-did-you-mean");
    let record = dir.join("r.pgn");
    std::fs::write(&record, "[GameFile \"chss.variant\"]\n\n*\n").unwrap();
    for args in [
        vec!["replay", record.to_str().unwrap()],
        vec!["play", "--load", record.to_str().unwrap()],
    ] {
        let output = variant(&args);
        assert!(!output.status.success(), "{args:?}");
        assert!(
            stderr(&output).contains("no game `chss` (did you mean `chess`?)"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Messages found unclear
// ---------------------------------------------------------------------------------------------

#[test]
fn a_search_depth_out_of_range_says_the_depth_limit() {
    let output = variant(&["play", "chess", "--white", "search:0", "--black", "random"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("the search depth must be between 1 and 64"),
        "{}",
        stderr(&output)
    );
    let output = variant(&["perft", "chess", "--depth", "65"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("depth 65 is too deep: perft counts at most 64 plies"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn negative_numbers_are_out_of_range_not_unknown_arguments() {
    for (args, expected) in [
        (
            vec!["perft", "chess", "--depth", "-1"],
            "`-1` is out of range: the value must be 0 or more",
        ),
        (
            vec!["match", "chess", "random", "random", "--games", "-1"],
            "-1 is not in 1..=1000000",
        ),
        (
            vec!["match", "chess", "random", "random", "--seed", "-1"],
            "`-1` is out of range: the value must be 0 or more",
        ),
        (
            vec!["play", "chess", "--seed", "-1"],
            "`-1` is out of range: the value must be 0 or more",
        ),
        (
            vec!["match", "chess", "random", "random", "--jobs", "-1"],
            "-1 is not in 1..=256",
        ),
        (
            vec![
                "policy",
                "cooperative-chess",
                "--play",
                "a2a3",
                "--seed",
                "-1",
            ],
            "`-1` is out of range: the value must be 0 or more",
        ),
        (
            vec![
                "policy",
                "cooperative-chess",
                "--play",
                "a2a3",
                "--dice",
                "-1",
            ],
            "--dice: `-1` is out of range: the value must be 0 or more",
        ),
        (
            vec![
                "show",
                "cooperative-chess",
                "--play",
                "a2a3 h7h5",
                "--dice",
                "-1",
            ],
            "--dice: `-1` is out of range: the value must be 0 or more",
        ),
    ] {
        let output = variant(&args);
        assert!(!output.status.success(), "{args:?}");
        let message = stderr(&output);
        assert!(message.contains(expected), "{args:?}: {message}");
        assert!(
            !message.contains("unexpected argument"),
            "{args:?}: {message}"
        );
    }
}

#[test]
fn a_record_starting_with_a_byte_order_mark_is_read() {
    let dir = temporary_dir("files-bom");
    let played = run(
        &dir,
        &with_random_players(&["play", "chess", "--record", "r.pgn"]),
        "",
    );
    assert!(played.status.success(), "{}", stderr(&played));
    let mut text = "\u{feff}".to_string();
    text.push_str(&std::fs::read_to_string(dir.join("r.pgn")).unwrap());
    std::fs::write(dir.join("bom.pgn"), text).unwrap();
    let replayed = run(&dir, &["replay", "bom.pgn"], "");
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    assert!(stdout(&replayed).starts_with("Chess: white random against black random"));
}

#[test]
fn show_dice_reports_the_policy_rule_or_is_refused() {
    let output = variant(&[
        "show",
        "cooperative-chess",
        "--play",
        "a2a3 h7h5",
        "--dice",
        "3,5,2",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).ends_with("Policy: red played by rule 6c (dice 3, 5, 2)\n"),
        "{}",
        stdout(&output)
    );
    // No policy chose the last move (or there is none): the dice have nothing to apply to.
    for play in ["a2a3", ""] {
        let output = variant(&["show", "cooperative-chess", "--play", play, "--dice", "3"]);
        assert!(!output.status.success(), "--play {play:?}");
        assert!(
            stderr(&output).contains("no side's policy chooses that move"),
            "{}",
            stderr(&output)
        );
    }
    let output = variant(&["show", "chess", "--play", "e2e4", "--dice", "3", "--json"]);
    assert!(!output.status.success());
}

#[test]
fn explain_of_a_malformed_move_fails_and_of_an_illegal_one_explains() {
    let output = variant(&["explain", "chess", "zz"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("`zz` is not a move"),
        "{}",
        stderr(&output)
    );
    assert!(stdout(&output).is_empty());
    let output = variant(&["explain", "chess", "e2e5"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("does not move from e2 to e5"));
}
