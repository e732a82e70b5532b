//! `pass when no action` in a game with `checkmate` and `stalemate`, through the real binary.
//!
//! The end rules that judge a side without actions come before a pass is offered: they see the
//! actions other than `pass`. So in chess with passes (`tests/variants/chess-pass.variant`) a
//! checkmated side loses and a stalemated one draws, as in chess; only where the game has no
//! such rule (`tests/variants/chess-pass-no-stalemate.variant`) does a side without a move pass,
//! and the game go on.

mod common;

use common::{show_json, stderr, stdout, variant};

const CHESS_PASS: &str = "tests/variants/chess-pass.variant";
const NO_STALEMATE: &str = "tests/variants/chess-pass-no-stalemate.variant";

/// Black to move, not in check, without a legal move: the King on a8 has only squares the
/// Queen on b6 attacks.
const STALEMATE: &str = "k7/8/1Q6/8/8/8/8/7K b - - 0 1";

#[test]
fn fools_mate_ends_the_game_in_chess_with_passes() {
    let value = show_json(&[CHESS_PASS, "--play", "f2f3 e7e5 g2g4 d8h4"]);
    assert_eq!(value["result"]["winners"], serde_json::json!(["black"]));
    assert_eq!(value["result"]["losers"], serde_json::json!(["white"]));
    assert_eq!(value["result"]["reason"], "checkmate");
    assert_eq!(value["result"]["description"], "black wins by checkmate");
    assert_eq!(value["legal_moves"], serde_json::json!([]));
    let moves = variant(&["moves", CHESS_PASS, "--play", "f2f3 e7e5 g2g4 d8h4"]);
    assert!(moves.status.success(), "{}", stderr(&moves));
    assert_eq!(stdout(&moves), "");
    assert!(
        stderr(&moves).contains("the game is over: black wins by checkmate"),
        "{}",
        stderr(&moves)
    );
    let pass = variant(&["moves", CHESS_PASS, "--play", "f2f3 e7e5 g2g4 d8h4 pass"]);
    assert_eq!(pass.status.code(), Some(1), "{}", stdout(&pass));
}

#[test]
fn stalemate_is_judged_before_a_pass_is_offered() {
    let value = show_json(&[CHESS_PASS, "--fen", STALEMATE]);
    assert_eq!(value["result"]["reason"], "stalemate");
    assert_eq!(value["result"]["draw"], true);
    assert_eq!(value["legal_moves"], serde_json::json!([]));
}

#[test]
fn a_side_whose_only_option_is_to_pass_passes() {
    let value = show_json(&[NO_STALEMATE, "--fen", STALEMATE]);
    assert_eq!(value["result"], serde_json::Value::Null);
    assert_eq!(value["legal_moves"], serde_json::json!(["pass"]));
    let after = show_json(&[NO_STALEMATE, "--fen", STALEMATE, "--play", "pass"]);
    assert_eq!(after["fen"], "k7/8/1Q6/8/8/8/8/7K w - - 1 2");
    assert_eq!(after["result"], serde_json::Value::Null);
    // Checkmate still ends the game: the Queen mates on b7, guarded by the King.
    let mate = show_json(&[
        NO_STALEMATE,
        "--fen",
        "k7/8/1QK5/8/8/8/8/8 w - - 0 1",
        "--play",
        "b6b7",
    ]);
    assert_eq!(mate["result"]["description"], "white wins by checkmate");
    assert_eq!(mate["legal_moves"], serde_json::json!([]));
}

fn nodes(args: &[&str]) -> u64 {
    let mut all = vec!["perft"];
    all.extend_from_slice(args);
    let output = variant(&all);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    stdout(&output)
        .lines()
        .last()
        .and_then(|line| line.strip_prefix("Nodes searched: "))
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("{args:?}: {}", stdout(&output)))
}

#[test]
fn perft_counts_the_pass_and_stops_at_mate() {
    // The pass is one node; below it, White's moves from the same board.
    let through_pass = nodes(&[NO_STALEMATE, "--fen", STALEMATE, "--depth", "2"]);
    let white = nodes(&[
        NO_STALEMATE,
        "--fen",
        "k7/8/1Q6/8/8/8/8/7K w - - 1 2",
        "--depth",
        "1",
    ]);
    assert_eq!(through_pass, white);
    assert_eq!(
        nodes(&[NO_STALEMATE, "--fen", STALEMATE, "--depth", "1"]),
        1
    );
    assert_eq!(nodes(&[CHESS_PASS, "--fen", STALEMATE, "--depth", "1"]), 0);
    // Where chess never runs out of moves, and where it is mated, the trees are chess's.
    assert_eq!(nodes(&[CHESS_PASS, "--depth", "3"]), 8902);
    for game in [CHESS_PASS, "chess"] {
        assert_eq!(
            nodes(&[game, "--play", "f2f3 e7e5 g2g4", "--depth", "2"]),
            nodes(&["chess", "--play", "f2f3 e7e5 g2g4", "--depth", "2"])
        );
    }
}

/// A game with drop rules (judged through plans, interpreter/src/rules/plan.rs) whose end
/// condition reads only who passed: two passes in a row draw. A plan settles such a condition
/// once per scalar state, so its key must tell positions apart by who passed, which the
/// position's hash does not: after `pass pass` the board, hands and side to move are the
/// start's, and a plan keyed without the passes had kept the start's "not over" (perft then
/// counted 11 moves where `show` said the game was over).
/// The game of [`a_plan_tells_positions_apart_by_who_passed`], written to a temporary file (not
/// a test variant of tests/variants/, which the bench suite would have to list).
const DROPS_PASS_SOURCE: &str = r#"// A game with drop rules (so that plans judge it, interpreter/src/rules/plan.rs) and passes,
// whose end condition reads only who passed: two passes in a row draw. tests/pass.rs plays it
// to check that a plan's key tells positions apart by who passed (the position's hash does not).

game "Drops with passes"
description "Kings and men on a small board; men are dropped on the own half; two passes in a row draw."

board 4x4

side white { forward up }
side black { forward down }
turns white black

piece King {
    letter K
    value 0
    royal
    moves "K"
}

piece Man {
    letter M
    value 1
    moves "W"
}

setup "k3/4/4/3K[MMmm] w - - 0 1"

actions moves drops

turn {
    may pass
}

drops {
    must place on ranks 1-2
}

end {
    check
    checkmate loses
    stalemate draws
    draws when opponent passed and own passed
}
"#;

#[test]
fn a_plan_tells_positions_apart_by_who_passed() {
    let dir = common::temporary_dir("drops-pass");
    let path = dir.join("drops-pass.variant");
    std::fs::write(&path, DROPS_PASS_SOURCE).expect("write the game");
    let drops_pass = path.to_str().expect("a path");
    let value = show_json(&[drops_pass, "--play", "pass pass"]);
    assert_eq!(value["result"]["reason"], "condition");
    assert_eq!(value["result"]["draw"], true);
    let perft = variant(&["perft", drops_pass, "--depth", "1", "--play", "pass pass"]);
    assert!(perft.status.success(), "{}", stderr(&perft));
    assert_eq!(stdout(&perft).trim(), "Nodes searched: 0");
    // Below one pass, Black's pass ends the game and its other moves do not.
    let divide = variant(&[
        "perft", drops_pass, "--depth", "2", "--play", "pass", "--divide",
    ]);
    let text = stdout(&divide);
    assert!(text.contains("a4a4: 0"), "{text}");
    assert!(text.contains("a4a3: 11"), "{text}");
}
