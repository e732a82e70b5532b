//! Ataxx (`games/ataxx.variant`), the library game of stones: drops from an endless supply
//! (`supply`) and landings that convert the enemy pieces around (`converts around`), played by
//! the real binary. Its agreement with Fairy-Stockfish along seeded random games is
//! tests/library.rs's (tests/fsf/ataxx.txt); here, hand-checked positions:
//!
//! - the start's clones and jumps, and a FEN with no hand;
//! - a jump and a clone that convert the enemy stones around, and only those;
//! - a side with stones and no move passes, and only then;
//! - the ends: a full board by count (win, loss, draw), a side to move without stones.

mod common;

use common::{show_json, stderr, stdout, variant};

const ATAXX: &str = "games/ataxx.variant";

fn moves(fen: &str) -> Vec<String> {
    let output = variant(&["moves", ATAXX, "--fen", fen]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut moves: Vec<String> = stdout(&output).lines().map(String::from).collect();
    moves.sort();
    moves
}

#[test]
fn the_start_has_clones_written_as_drops_and_jumps_two_squares_away() {
    let output = variant(&["moves", ATAXX]);
    let mut found: Vec<String> = stdout(&output).lines().map(String::from).collect();
    found.sort();
    // pyffish 0.0.90's `ataxx` from its start FEN.
    let expected =
        "P@a6 P@b6 P@b7 P@f1 P@f2 P@g2 a7a5 a7b5 a7c5 a7c6 a7c7 g1e1 g1e2 g1e3 g1f3 g1g3";
    assert_eq!(found.join(" "), expected);
    // Clones come from no hand: the FEN has no brackets after one. A clone is a drop, which
    // resets the half-move clock (`drops { irreversible }`), as pyffish's FEN says.
    let value = show_json(&[ATAXX, "--play", "P@f2"]);
    assert_eq!(value["fen"], "P5p/7/7/7/7/5P1/p5P b - - 0 1");
}

#[test]
fn a_jump_converts_the_enemy_stones_around_its_landing_and_no_others() {
    // c1e3 lands next to d4 and f2 (black, converted) but two squares from c5 (black, kept).
    let value = show_json(&[
        ATAXX,
        "--fen",
        "7/7/2p4/3p3/7/5p1/2P4 w - - 0 1",
        "--play",
        "c1e3",
    ]);
    assert_eq!(value["fen"], "7/7/2p4/3P3/4P2/5P1/7 b - - 1 1");
    let converted: Vec<&str> = value["last_move"]["converted"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|p| p["square"].as_str().unwrap())
        .collect();
    assert_eq!(converted, ["f2", "d4"]);
    assert_eq!(value["last_move"]["captured"], serde_json::json!([]));
}

#[test]
fn a_clone_converts_too_and_keeps_the_stone_it_grew_from() {
    let value = show_json(&[
        ATAXX,
        "--fen",
        "7/7/7/7/7/1p5/P6 w - - 0 1",
        "--play",
        "P@b1",
    ]);
    assert_eq!(value["fen"], "7/7/7/7/7/1P5/PP5 b - - 0 1");
    assert_eq!(value["scores"]["white"], 3);
    assert_eq!(value["scores"]["black"], 0);
}

#[test]
fn a_side_with_stones_and_no_move_passes_and_only_then() {
    // White's one stone on g1 is walled in by black stones two deep: no clone, no jump.
    let walled = "PPPPPPP/PPPPPPP/PPPPPPP/ppppppp/ppppppp/ppppppp/pppppp1 w - - 0 1";
    assert_eq!(moves(walled), ["pass"]);
    let value = show_json(&[ATAXX, "--fen", walled, "--play", "pass"]);
    assert_eq!(value["side_to_move"], "black");
    assert!(moves("P5p/7/7/7/7/7/p5P w - - 0 1")
        .iter()
        .all(|m| m != "pass"));
}

#[test]
fn a_full_board_is_won_by_the_side_with_more_stones() {
    // 27 white stones against 22 after White fills the last square.
    let value = show_json(&[
        ATAXX,
        "--fen",
        "ppppppp/PPPPPpp/PPPPPpp/PPppppP/PPPPPPp/PPPPPPp/PPPPPP1 w - - 0 72",
        "--play",
        "P@g1",
    ]);
    assert_eq!(value["result"]["winners"], serde_json::json!(["white"]));
    assert_eq!(value["result"]["reason"], "score");
    // Equal counts on a full board would draw; 49 squares never split evenly, so a side's
    // lead decides, and the side to move may be the winner or the loser.
    let full = show_json(&[
        ATAXX,
        "--fen",
        "PPPPPPP/PPPPPPP/PPPPPPP/ppppppp/ppppppp/ppppppp/ppppppP b - - 0 1",
    ]);
    assert_eq!(full["result"]["winners"], serde_json::json!(["black"]));
}

#[test]
fn the_side_to_move_without_stones_loses() {
    let value = show_json(&[ATAXX, "--fen", "7/7/7/7/7/7/P5P b - - 0 1"]);
    assert_eq!(value["result"]["winners"], serde_json::json!(["white"]));
    assert_eq!(value["legal_moves"], serde_json::json!([]));
    // The other side without stones does not end the game while it is not to move.
    assert!(!moves("7/7/7/7/7/7/P5P w - - 0 1").is_empty());
}
