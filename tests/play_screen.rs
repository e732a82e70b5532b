//! What a person sees and may type at `variant play`, run on the real binary (issue 25): the
//! prompt after the end of a game, players checked before the game starts, the side named with
//! the last move, results of teams, placement phases and their examples, the `rules` command;
//! SAN accepted by `explain`, `show`, `moves` and `perft`; `match`'s confidence interval and
//! per-side results.

mod common;

use common::{run_in, stderr, stdout, temporary_dir, variant};

/// Fool's mate, both sides played at the prompt.
const FOOLS_MATE: &str = "f3\ne5\ng4\nQh4#\n";

/// Kingdrops after both setups (32 placements): White's first turn of play.
const KINGDROPS_PLAY: &str = "ssasggra/bkaasqbr/8/8/8/8/AASSRGAA/QBRKSSGB[] w - - 32 17";

#[test]
fn a_game_that_ends_at_the_prompt_keeps_the_prompt_for_save_undo_moves_board_and_quit() {
    let dir = temporary_dir("screen-end");
    let input = format!("{FOOLS_MATE}moves\nboard\nsave x.pgn\nundo\nmoves\nquit\n");
    let output = run_in(&dir, &["play", "chess", "--black", "human"], &input);
    let out = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // The end: the moves, the FEN and the result, then the prompt again.
    assert!(
        out.contains("Moves:\n1. f3 e5 2. g4 Qh4# 0-1\n"),
        "the moves at the end: {out}"
    );
    assert!(
        out.contains("FEN: rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n"),
        "{out}"
    );
    assert!(out.contains("Result: black wins by checkmate\n"), "{out}");
    assert!(out.contains("game over> moves\n"), "{out}");
    assert!(
        out.contains("no legal moves: the game is over (black wins by checkmate)"),
        "{out}"
    );
    assert!(out.contains("saved 4 moves to x.pgn"), "{out}");
    let record = std::fs::read_to_string(dir.join("x.pgn")).expect("saved after the end");
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
    assert!(record.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{record}");
    // `undo` takes the mate back and the game goes on at Black's prompt.
    assert!(out.contains("Taken back: d8h4"), "{out}");
    assert!(out.contains("black> moves\n30 legal moves:"), "{out}");
}

#[test]
fn the_end_of_input_after_the_end_of_the_game_quits_cleanly() {
    let dir = temporary_dir("screen-end-eof");
    let output = run_in(&dir, &["play", "chess", "--black", "human"], FOOLS_MATE);
    let out = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(out.contains("Result: black wins by checkmate"), "{out}");
    assert!(out.trim_end().ends_with("game over>"), "{out}");
}

#[test]
fn a_hint_player_that_cannot_hint_is_refused_before_the_game_starts() {
    let dir = temporary_dir("screen-hint");
    for (game, hint) in [("chess", "human"), ("chess", "policy"), ("chess", "mcts:x")] {
        let output = run_in(&dir, &["play", game, "--hint", hint], "hint\n");
        assert_eq!(output.status.code(), Some(1), "{game} --hint {hint}");
        assert!(
            stderr(&output).contains("--hint"),
            "{game} --hint {hint}: {}",
            stderr(&output)
        );
        assert!(
            !stdout(&output).contains("to move"),
            "refused before the game starts: {}",
            stdout(&output)
        );
    }
    // Cooperative Chess has a policy, but only Red's, and Red is not played at the prompt.
    let output = run_in(&dir, &["play", "cooperative-chess", "--hint", "policy"], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("no side played by a person has a policy"),
        "{}",
        stderr(&output)
    );
    // A side's player is checked at start too.
    let output = run_in(&dir, &["play", "chess", "--black", "mcts:abc"], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("--black"), "{}", stderr(&output));
}

#[test]
fn a_good_hint_player_answers_hint() {
    let dir = temporary_dir("screen-hint-ok");
    let output = run_in(
        &dir,
        &["play", "chess", "--black", "human", "--hint", "random"],
        "hint\nquit\n",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("hint: "), "{}", stdout(&output));
}

#[test]
fn the_last_move_names_its_mover_from_the_history() {
    let dir = temporary_dir("screen-mover");
    // Kingdrops' setup: White places again and again.
    let output = run_in(
        &dir,
        &["play", "kingdrops", "--black", "human"],
        "K@e1\nQ@d1\nquit\n",
    );
    let out = stdout(&output);
    assert!(out.contains("Last move: white K@e1\n"), "{out}");
    assert!(out.contains("Last move: white Q@d1\n"), "{out}");
    assert!(!out.contains("Last move: black"), "{out}");
    // A turn of several actions: White's first action, and White is still to move.
    let output = run_in(
        &dir,
        &[
            "play",
            "kingdrops",
            "--black",
            "human",
            "--fen",
            KINGDROPS_PLAY,
        ],
        "c2c3\nquit\n",
    );
    let out = stdout(&output);
    assert!(out.contains("Last move: white Sc3 (c2c3)\n"), "{out}");
    assert!(
        out.contains("white to move: action 2 of up to 3 this turn"),
        "{out}"
    );
    // Cooperative Chess: Red's reply is Red's (the turn order is white red black red).
    let output = run_in(
        &dir,
        &[
            "play",
            "cooperative-chess",
            "--black",
            "human",
            "--seed",
            "3",
        ],
        "a3\nquit\n",
    );
    let out = stdout(&output);
    assert!(out.contains("Last move: red "), "{out}");
}

#[test]
fn a_resignation_in_a_team_game_gives_the_win_to_the_other_team() {
    let dir = temporary_dir("screen-team");
    let output = run_in(
        &dir,
        &["play", "cooperative-chess", "--black", "human"],
        "resign\nsave r.pgn\n",
    );
    let out = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // Black is White's partner: only Red wins.
    assert!(out.contains("Result: white resigns: red wins\n"), "{out}");
    let record = std::fs::read_to_string(dir.join("r.pgn")).expect("saved");
    assert!(
        record.contains("[Termination \"white resigns: red wins\"]"),
        "{record}"
    );
    // Two sides winning: "win".
    let output = run_in(
        &dir,
        &["play", "chess", "--black", "human"],
        "resign\nundo\ne4\nresign\n",
    );
    let out = stdout(&output);
    assert!(out.contains("Result: white resigns: black wins\n"), "{out}");
    assert!(out.contains("The resignation is withdrawn."), "{out}");
    assert!(out.contains("Result: black resigns: white wins\n"), "{out}");
}

#[test]
fn the_setup_phase_is_shown_with_its_task_and_an_example_taken_from_the_legal_moves() {
    let dir = temporary_dir("screen-phase");
    let output = run_in(&dir, &["play", "kingdrops", "--black", "human"], "quit\n");
    let out = stdout(&output);
    assert!(
        out.contains(
            "white to move: setup phase: white, then black, each place their whole hand, one \
             piece a turn (must place on ranks 1-2); a placement from the hand (e.g. "
        ),
        "{out}"
    );
    // The example is a legal move of the position.
    let example = out
        .split("(e.g. ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .expect("an example");
    let legal = stdout(&variant(&["moves", "kingdrops"]));
    assert!(legal.lines().any(|m| m == example), "{example}: {legal}");
    // Chess: no placement example for a game without drops.
    let output = run_in(&dir, &["play", "chess"], "quit\n");
    let out = stdout(&output);
    assert!(out.contains("white to move: a move (e.g. "), "{out}");
    assert!(!out.contains("N@c3"), "{out}");
}

#[test]
fn the_description_and_piece_letters_are_shown_at_the_start_and_by_rules() {
    let dir = temporary_dir("screen-rules");
    let output = run_in(
        &dir,
        &["play", "kingdrops", "--black", "human"],
        "rules\nquit\n",
    );
    let out = stdout(&output);
    let description = "Kingdrops: Set up freely, then up to three actions a turn";
    let white = "  white: K King, Q Queen, R Rook, B Bishop, G Guard, S Spearman, A Archer\n";
    let black = "  black: k King, q Queen, r Rook, b Bishop, g Guard, s Spearman, a Archer\n";
    for expected in [description, white, black] {
        assert_eq!(out.matches(expected).count(), 2, "{expected}: {out}");
    }
    assert!(out.starts_with(description), "{out}");
    // Red's own letters in Cooperative Chess.
    let output = run_in(&dir, &["play", "cooperative-chess"], "quit\n");
    assert!(
        stdout(&output).contains("  red: x King, z Queen, t Rook, s Bishop, m Knight, o Pawn\n"),
        "{}",
        stdout(&output)
    );
}

/// Standard output of a command that must succeed.
fn ok(args: &[&str]) -> String {
    let output = variant(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    stdout(&output)
}

#[test]
fn explain_show_moves_and_perft_accept_san() {
    assert_eq!(
        ok(&["moves", "chess", "--play", "e4 e5 Nf3 Nc6 Bb5"]),
        ok(&["moves", "chess", "--play", "e2e4 e7e5 g1f3 b8c6 f1b5"])
    );
    assert_eq!(
        ok(&["perft", "chess", "-d", "2", "--play", "e4 e5 Nf3"]),
        ok(&["perft", "chess", "-d", "2", "--play", "e2e4 e7e5 g1f3"])
    );
    assert_eq!(
        ok(&["show", "chess", "--play", "e4 d5 exd5 Qxd5 Nc3", "--json"]),
        ok(&[
            "show",
            "chess",
            "--play",
            "e2e4 d7d5 e4d5 d8d5 b1c3",
            "--json"
        ])
    );
    let castled = ok(&[
        "show",
        "chess",
        "--fen",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "--play",
        "O-O",
    ]);
    assert!(
        castled.contains("FEN: 4k3/8/8/8/8/8/8/5RK1 b - - 1 1"),
        "{castled}"
    );
    assert_eq!(
        ok(&["explain", "chess", "Nf3"]),
        ok(&["explain", "chess", "g1f3"])
    );
}

#[test]
fn an_illegal_san_move_gets_the_reason_of_its_uci_form() {
    // White in check from the Queen on e5: Nc3 does not answer it.
    let check = "e2e4 d7d5 e4d5 d8d5 d2d4 d5e5";
    let through_check = "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1";
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // (FEN, moves played first, the move in SAN, the same move in UCI)
    let cases = [
        (start, check, "Nc3", "b1c3"),
        (through_check, "", "O-O", "e1g1"),
        (start, "", "Bc4", "f1c4"),
        (start, "", "Ne2", "g1e2"),
    ];
    for (fen, before, san, uci) in cases {
        let explain = |mv: &str| ok(&["explain", "chess", mv, "--fen", fen, "--play", before]);
        let reason = explain(uci);
        assert!(!reason.starts_with("legal"), "{uci} is illegal: {reason}");
        assert!(!reason.contains("no legal move fits"), "{reason}");
        assert_eq!(explain(san), reason, "{san} against {uci}");
        // `--play` refuses it with the same reason.
        let played = format!("{before} {san}");
        let output = variant(&["moves", "chess", "--fen", fen, "--play", &played]);
        assert_eq!(output.status.code(), Some(1), "{played}");
        let first = reason.lines().next().expect("a reason");
        assert!(
            stderr(&output).contains(first),
            "{played}: {}",
            stderr(&output)
        );
    }
    assert!(ok(&["explain", "chess", "Nc3", "--play", check]).contains("in check"));
    assert!(ok(&["explain", "chess", "O-O", "--fen", through_check]).contains("attacked"));
}

#[test]
fn match_reports_wilson_interval_and_results_per_side() {
    let output = variant(&[
        "match", "chess", "random", "random", "--games", "6", "--seed", "3", "--json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    // The fields README promises are all there.
    for key in [
        "games",
        "a",
        "b",
        "wins",
        "draws",
        "losses",
        "games_per_second",
    ] {
        assert!(json.get(key).is_some(), "{key}: {json}");
    }
    assert_eq!(json["games"], 6);
    let (low, high) = (
        json["score_low"].as_f64().expect("low"),
        json["score_high"].as_f64().expect("high"),
    );
    let score = json["score"].as_f64().expect("score");
    assert!(low < score && score < high, "{json}");
    assert!(high - low > 0.3, "6 games prove little: {json}");
    // A played each side three times.
    for side in ["white", "black"] {
        let per_side = &json["by_side"][side];
        assert_eq!(per_side["games"], 3, "{json}");
        let sum = ["wins", "draws", "losses"]
            .iter()
            .map(|k| per_side[k].as_u64().expect("count"))
            .sum::<u64>();
        assert_eq!(sum, 3, "{json}");
    }

    let text = ok(&[
        "match", "chess", "random", "random", "--games", "6", "--seed", "3",
    ]);
    assert!(text.contains("A's score: "), "{text}");
    assert!(text.contains("(95% confidence interval "), "{text}");
    assert!(!text.contains('±'), "{text}");
    assert!(text.contains("A as white (first mover): "), "{text}");
    assert!(text.contains("A as black (second mover): "), "{text}");
}

#[test]
fn a_record_that_gives_a_policy_to_a_side_without_one_falls_back_to_the_default_player() {
    let dir = temporary_dir("screen-record-policy");
    let output = run_in(
        &dir,
        &[
            "play",
            "cooperative-chess",
            "--black",
            "random",
            "--seed",
            "1",
        ],
        "save r.pgn\nquit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let record = std::fs::read_to_string(dir.join("r.pgn")).expect("saved");
    assert!(record.contains("[White \"human\"]"), "{record}");
    let altered = record.replace("[White \"human\"]", "[White \"policy\"]");
    std::fs::write(dir.join("r.pgn"), altered).expect("written");
    let output = run_in(&dir, &["play", "--load", "r.pgn", "--seed", "1"], "quit\n");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("white human against black random against red policy"),
        "{}",
        stdout(&output)
    );
}
