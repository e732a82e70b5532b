//! Regression tests for "one truth" and "never a crash": every command agrees on when a game is
//! over, impossible positions are refused, bad input gets a clear error and a non-zero exit,
//! and no input crashes or hangs the real binary.

use std::io::Read;
use std::process::{Command, Stdio};

mod common;

use common::{stderr, stdout, variant};

fn json(args: &[&str]) -> serde_json::Value {
    common::show_json(args)
}

/// A Coverage game that ends by C11 (every legal placement of the side to move is on a square it
/// already controls) while the side to move still holds pieces.
const COVERAGE_OVER: &str = "N@e6 K@d1 P@e7 B@d5 B@g8 R@c3 P@h6 B@d7 P@a7 R@d3 B@f5 P@f3 N@h2 \
     N@a5 K@f4 P@g2 R@b2 N@c1 Q@d6 P@c4 R@f1 P@h8 P@a6 Q@f6 P@b1 P@a4 P@h3 P@h5 P@h1 P@a1";

/// Knights out and back twice: the start position occurs for the third time.
const CHESS_REPEATED: &str = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";

// ---------------------------------------------------------------------------------------------
// 1. One truth about the end of a game
// ---------------------------------------------------------------------------------------------

#[test]
fn moves_after_a_placement_game_ended_lists_nothing_and_says_why() {
    let output = variant(&["moves", "coverage", "--play", COVERAGE_OVER]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).contains("the game is over: white wins by score"),
        "{}",
        stderr(&output)
    );
    let value = json(&["coverage", "--play", COVERAGE_OVER]);
    assert_eq!(value["legal_moves"], serde_json::json!([]));
}

#[test]
fn a_chess_draw_by_repetition_has_no_moves_in_any_command() {
    let output = variant(&["moves", "chess", "--play", CHESS_REPEATED]);
    assert_eq!(stdout(&output), "");
    assert!(stderr(&output).contains("draw by repetition"));
    let value = json(&["chess", "--play", CHESS_REPEATED]);
    assert_eq!(value["legal_moves"], serde_json::json!([]));
    assert_eq!(value["result"]["draw"], true);
    assert_eq!(value["result"]["reason"], "repetition");
    let perft = variant(&["perft", "chess", "--depth", "3", "--play", CHESS_REPEATED]);
    assert_eq!(stdout(&perft).lines().last(), Some("Nodes searched: 0"));
    let played = variant(&[
        "moves",
        "chess",
        "--play",
        &format!("{CHESS_REPEATED} e2e4"),
    ]);
    assert_eq!(played.status.code(), Some(1));
    assert!(stderr(&played).contains("the game is over (draw by repetition)"));
}

#[test]
fn perft_stops_below_a_repetition_inside_the_tree() {
    // Seven plies played: every root move counts its replies, except f6g8, which brings the
    // start position back a third time and so has none below it.
    let output = variant(&[
        "perft",
        "chess",
        "--depth",
        "2",
        "--divide",
        "--play",
        "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1",
    ]);
    let text = stdout(&output);
    assert!(text.lines().any(|l| l == "f6g8: 0"), "{text}");
    assert!(text.lines().any(|l| l == "f6d5: 20"), "{text}");
}

#[test]
fn the_move_limit_ends_the_game_for_moves_and_perft() {
    // 99 plies without a capture or pawn move: the next quiet move reaches the 50-move limit.
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 99 80";
    let value = json(&["chess", "--fen", fen, "--play", "a1a2"]);
    assert_eq!(value["result"]["reason"], "move-limit");
    assert_eq!(value["legal_moves"], serde_json::json!([]));
    let perft = variant(&["perft", "chess", "--fen", fen, "--depth", "2", "--divide"]);
    let text = stdout(&perft);
    assert!(text.lines().any(|l| l == "a1a2: 0"), "{text}");
    // A capture resets the clock, so the replies after it are counted (five king moves and the
    // pawn's two; without the pawn, king against king would be a dead position).
    let capture = "4k3/p7/8/8/8/8/8/3rK3 w - - 99 80";
    let text = stdout(&variant(&[
        "perft", "chess", "--fen", capture, "--depth", "2", "--divide",
    ]));
    assert!(text.lines().any(|l| l == "e1d1: 7"), "{text}");
    assert!(text.lines().any(|l| l == "e1e2: 0"), "{text}");
}

#[test]
fn dead_positions_by_material_are_draws() {
    // FIDE 5.2.2 as data in chess.variant: bare kings, a lone knight, bishops on one colour.
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/3NK3 b - - 0 1",
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
    ] {
        let value = json(&["chess", "--fen", fen]);
        assert_eq!(value["result"]["reason"], "material", "{fen}");
        assert_eq!(value["result"]["description"], "draw by dead position");
        assert_eq!(value["legal_moves"], serde_json::json!([]));
    }
    // Bishops on both colours, two knights, a pawn: play goes on.
    for fen in [
        "4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/2NNK3 w - - 0 1",
        "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
    ] {
        assert_eq!(
            json(&["chess", "--fen", fen])["result"],
            serde_json::Value::Null,
            "{fen}"
        );
    }
    // The capture that leaves king against king ends the game.
    let value = json(&[
        "chess",
        "--fen",
        "4k3/8/8/8/8/8/8/3rK3 w - - 0 1",
        "--play",
        "e1d1",
    ]);
    assert_eq!(value["result"]["description"], "draw by dead position");
}

#[test]
fn the_result_says_plainly_who_won_or_that_it_is_a_draw() {
    let mate = json(&["chess", "--play", "f2f3 e7e5 g2g4 d8h4"]);
    assert_eq!(
        mate["result"],
        serde_json::json!({
            "winners": ["black"],
            "losers": ["white"],
            "draw": false,
            "reason": "checkmate",
            "description": "black wins by checkmate",
        })
    );
    let draw = json(&["coverage", "--fen", "8/8/8/8/8/8/8/R6r[] w - - 0 1"]);
    assert_eq!(draw["result"]["draw"], true);
    assert_eq!(draw["result"]["winners"], serde_json::json!([]));
    assert_eq!(draw["result"]["losers"], serde_json::json!([]));
    assert_eq!(draw["result"]["description"], "draw by score");
    assert_eq!(json(&["chess"])["result"], serde_json::Value::Null);
}

// ---------------------------------------------------------------------------------------------
// 2. Positions that cannot arise are refused (with --strict, also those the setup cannot reach)
// ---------------------------------------------------------------------------------------------

fn refused(game: &str, fen: &str, expected: &str) {
    for strict in [false, true] {
        let mut args = vec!["moves", game, "--fen", fen];
        if strict {
            args.push("--strict");
        }
        let output = variant(&args);
        assert_eq!(output.status.code(), Some(1), "{fen} was accepted");
        assert!(
            stderr(&output).contains(expected),
            "{fen}: {}",
            stderr(&output)
        );
        assert_eq!(stdout(&output), "");
    }
}

/// A position the game's setup cannot reach, though the rules can be played from it: refused
/// with `--strict`, else its moves are listed after one `warning:` line that says why.
fn unreachable(game: &str, fen: &str, expected: &str) {
    let output = variant(&["moves", game, "--fen", fen, "--strict"]);
    assert_eq!(output.status.code(), Some(1), "{fen} was accepted");
    assert!(
        stderr(&output).contains(expected),
        "{fen}: {}",
        stderr(&output)
    );
    assert_eq!(stdout(&output), "");
    let output = variant(&["moves", game, "--fen", fen]);
    assert!(output.status.success(), "{fen}: {}", stderr(&output));
    let warnings: Vec<String> = stderr(&output)
        .lines()
        .filter(|line| line.starts_with("warning:"))
        .map(str::to_string)
        .collect();
    assert_eq!(warnings.len(), 1, "{fen}: {}", stderr(&output));
    assert!(warnings[0].contains(expected), "{fen}: {}", warnings[0]);
    assert!(!stdout(&output).is_empty(), "{fen}: no moves");
}

#[test]
fn a_side_to_move_that_could_capture_a_king_is_refused() {
    refused(
        "chess",
        "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1",
        "black's King on e8 is attacked by white's Queen on e2, with white to move",
    );
}

#[test]
fn a_side_without_a_king_is_refused_in_a_game_with_check() {
    refused(
        "chess",
        "4k3/8/8/8/8/8/8/8 w - - 0 1",
        "white has no King on the board",
    );
}

#[test]
fn pawns_on_ranks_they_never_stand_on_are_refused_when_strict() {
    unreachable(
        "chess",
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
        "white's Pawn on a1: no Pawn of white can ever stand there",
    );
    unreachable(
        "chess",
        "4k2P/8/8/8/8/8/8/4K3 w - - 0 1",
        "white's Pawn on h8",
    );
    unreachable(
        "chess",
        "4k3/8/8/8/8/8/8/4K2p w - - 0 1",
        "black's Pawn on h1",
    );
}

#[test]
fn more_pieces_than_the_game_has_are_refused_when_strict() {
    unreachable(
        "chess",
        "4k3/8/8/8/8/8/PPPPPPPP/NNN1K3 w - - 0 1",
        "white has 1 Knight more than the game gives it",
    );
    unreachable(
        "chess",
        "4k3/p7/8/8/8/8/8/KK6 w - - 0 1",
        "white has 2 Kings, but the game gives it 1",
    );
    // Eight missing pawns may have become eight extra queens.
    let output = variant(&[
        "moves",
        "chess",
        "--fen",
        "4k3/8/8/8/8/8/QQQQ4/QQQQK3 w - - 0 1",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn pieces_in_hand_in_a_game_whose_hands_never_fill_are_refused() {
    refused(
        "chess",
        "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1",
        "white holds 1 Queen in hand, but nothing in this game puts pieces in a hand",
    );
}

#[test]
fn clocks_and_move_numbers_never_wrap() {
    let fen = "8/8/8/8/8/8/8/8[KQRRBBNNkqrrbbnn] w - - 4294967295 4294967295";
    let value = json(&["cheversi", "--fen", fen, "--play", "K@e4 Q@e5"]);
    let after = value["fen"].as_str().expect("a FEN").to_string();
    assert!(
        after.ends_with("4294967295 4294967295 last:K@e4,q@e5"),
        "{after}"
    );
    // The FEN printed is one the tool accepts again.
    let again = json(&["cheversi", "--fen", &after]);
    assert_eq!(again["fen"], after);
    let chess = json(&[
        "chess",
        "--fen",
        "4k3/8/8/8/8/8/8/R3K3 w - - 4294967295 4294967295",
    ]);
    assert_eq!(chess["result"]["reason"], "move-limit");
}

// ---------------------------------------------------------------------------------------------
// 3. `check` opens the game as every other command does
// ---------------------------------------------------------------------------------------------

#[test]
fn check_accepts_game_names() {
    let output = variant(&["check", "chess", "cheversi"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "ok: chess\nok: cheversi\n");
}

#[test]
fn check_refuses_a_setup_that_cannot_arise() {
    let dir = std::env::temp_dir().join(format!("variant-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("attacked.variant");
    std::fs::write(
        &file,
        "game \"Attacked\"\nboard 3x3\nside white { forward up }\nside black { forward down }\n\
         turns white black\npiece King { letter K; royal; moves \"K\" }\n\
         piece Rook { letter R; moves \"R\" }\n\
         setup \"k2/3/R1K w - - 0 1\"\nend { check; checkmate loses; stalemate draws }\n",
    )
    .expect("written");
    let path = file.to_str().expect("utf-8 path");
    let output = variant(&["check", path]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("black's King on a3 is attacked by white's Rook on a1"),
        "{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&dir).ok();
}

// ---------------------------------------------------------------------------------------------
// 4. Never a crash or a hang
// ---------------------------------------------------------------------------------------------

#[test]
fn an_absurd_perft_depth_is_a_clear_error() {
    let output = variant(&["perft", "chess", "--depth", "100000"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("depth 100000 is too deep"));
}

#[test]
fn a_reader_that_closes_early_ends_the_command_quietly() {
    for args in [
        &["show", "coverage", "--json"][..],
        &["perft", "chess", "--depth", "3", "--divide"][..],
        &["dump", "chess"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_variant"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut first = [0u8; 10];
        child
            .stdout
            .take()
            .expect("piped")
            .read_exact(&mut first)
            .expect("ten bytes");
        // The read end is dropped here: the next write gets a broken pipe.
        let output = child.wait_with_output().expect("it ends");
        assert!(output.status.success(), "{args:?}: {:?}", output.status);
        assert_eq!(stderr(&output), "", "{args:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Why is this move illegal?
// ---------------------------------------------------------------------------------------------

fn explain(game: &str, mv: &str, extra: &[&str]) -> String {
    let mut args = vec!["explain", game, mv];
    args.extend_from_slice(extra);
    let output = variant(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
}

#[test]
fn explanations_in_the_games_own_words() {
    let cases: &[(&str, &str, &[&str])] = &[
        ("chess", "g1f3", &[]),
        ("chess", "e2e5", &[]),
        ("chess", "e1e2", &[]),
        ("chess", "a1a3", &[]),
        ("chess", "e7e5", &[]),
        ("chess", "e2e3", &["--play", "e2e4"]),
        ("chess", "e4e5", &["--play", "e2e4 e7e5"]),
        ("chess", "d8h4", &["--play", "f2f3 e7e5 g2g4"]),
        (
            "chess",
            "e2d2",
            &["--fen", "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1"],
        ),
        (
            "chess",
            "e8e7",
            &["--fen", "4k3/8/8/8/8/8/4Q3/4K3 b - - 0 1"],
        ),
        (
            "chess",
            "b7b8",
            &["--fen", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"],
        ),
        (
            "chess",
            "b7b8k",
            &["--fen", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"],
        ),
        (
            "chess",
            "e1g1",
            &["--fen", "4k3/8/8/8/8/8/8/4K2R w - - 0 1"],
        ),
        (
            "chess",
            "e1g1",
            &["--fen", "4k3/8/8/8/8/8/8/4KN1R w K - 0 1"],
        ),
        (
            "chess",
            "e1g1",
            &["--fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"],
        ),
        (
            "chess",
            "e1g1",
            &["--fen", "4k1r1/8/8/8/8/8/8/4K2R w K - 0 1"],
        ),
        (
            "chess",
            "e5d6",
            &["--fen", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"],
        ),
        ("chess", "e2e4", &["--play", CHESS_REPEATED]),
        ("chess", "N@c3", &[]),
        ("cheversi", "K@e4", &[]),
        ("cheversi", "r@b2", &[]),
        ("cheversi", "Q@a1", &["--play", "K@e4"]),
        ("cheversi", "K@e5", &["--play", "K@e4"]),
        ("cheversi", "N@d5", &["--play", "K@e4 Q@e5"]),
        ("cheversi", "X@d5", &[]),
        ("coverage", "Q@b3", &["--play", "R@b1"]),
        ("coverage", "K@a1", &["--play", "K@b1"]),
    ];
    let mut report = String::new();
    for (game, mv, extra) in cases {
        report.push_str(&format!(
            "$ variant explain {game} {mv} {}\n",
            extra.join(" ")
        ));
        report.push_str(&explain(game, mv, extra));
        report.push('\n');
    }
    insta::assert_snapshot!("explanations", report);
}

#[test]
fn a_refused_move_says_why() {
    let output = variant(&["moves", "cheversi", "--play", "K@e4 Q@a1"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("must touch occupied when some occupied"),
        "{}",
        stderr(&output)
    );
    let output = variant(&["moves", "chess", "--play", "e2e4 e7e5 e1e3"]);
    assert!(
        stderr(&output).contains("a King does not move from e1 to e3"),
        "{}",
        stderr(&output)
    );
}
