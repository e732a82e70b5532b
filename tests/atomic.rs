//! Atomic chess (`games/atomic.variant`), the library game that tests capture effects: a
//! capture removes the capturer and every piece but pawns around the capture square.
//!
//! - Perft from the start against Fairy-Stockfish's `atomic` (counted with pyffish).
//! - `scripts/crosscheck_fairy.py`: seeded random games played by Fairy-Stockfish's own move
//!   generator, compared with ours at every position. Without pyffish the test prints a loud
//!   `SKIPPED` line, and fails when `CI` is set (`.ci/run` installs it).
//! - Hand-checked explosions: what a capture removes, a King that may not capture, Kings side by
//!   side never in check, an explosion of the enemy King that wins from check.

mod common;

use common::{show_json, stderr, stdout, variant};

const ATOMIC: &str = "games/atomic.variant";

fn moves(fen: &str) -> Vec<String> {
    let output = variant(&["moves", ATOMIC, "--fen", fen]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut moves: Vec<String> = stdout(&output).lines().map(String::from).collect();
    moves.sort();
    moves
}

#[test]
fn perft_from_the_start_equals_fairy_stockfish() {
    // pyffish 0.0.90, `atomic`, counting legal moves at the last ply: 20, 400, 8902, 197326.
    for (depth, nodes) in [(1, 20), (2, 400), (3, 8902), (4, 197_326)] {
        let output = variant(&["perft", ATOMIC, "--depth", &depth.to_string()]);
        assert_eq!(
            stdout(&output).lines().last(),
            Some(format!("Nodes searched: {nodes}").as_str())
        );
    }
}

#[test]
fn a_capture_explodes_the_capturer_and_the_pieces_around_but_pawns() {
    // The Knight takes on c4: it and the Knight on c4 disappear, the Rook on b3 and the Bishop on
    // d3 too; the pawns on d4, d5 and b5 stay, and so does the Queen on e4 (two files away).
    let value = show_json(&[
        ATOMIC,
        "--fen",
        "4k3/8/8/1p1p4/2nPq3/1R1bN3/8/6K1 w - - 0 1",
        "--play",
        "e3c4",
    ]);
    assert_eq!(value["fen"], "4k3/8/8/1p1p4/3Pq3/8/8/6K1 b - - 0 1");
    // The last move's report lists everything the capture removed, the capturer included.
    let mut removed: Vec<String> = value["last_move"]["captured"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|p| {
            format!(
                "{} {}",
                p["piece"].as_str().unwrap(),
                p["square"].as_str().unwrap()
            )
        })
        .collect();
    removed.sort();
    assert_eq!(removed, ["Bishop d3", "Knight c4", "Knight e3", "Rook b3"]);
}

#[test]
fn kings_never_capture_and_are_never_in_check_side_by_side() {
    // The King may not take the Queen next to it (it would explode with it).
    assert_eq!(moves("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"), ["e1f1"]);
    // Kings side by side: the Queen's attack is no check, and the King may step onto attacked
    // squares next to the other King.
    let value = show_json(&[ATOMIC, "--fen", "8/8/8/8/8/3k4/3K4/3q4 w - - 0 1"]);
    assert_eq!(value["in_check"], false);
    assert_eq!(
        moves("8/8/8/8/8/3k4/3K4/3q4 w - - 0 1"),
        ["d2c2", "d2c3", "d2e2", "d2e3"]
    );
}

#[test]
fn exploding_the_enemy_king_wins_even_when_it_exposes_ones_own() {
    // The Knight on e6 is pinned to the White King by the Rook on e8: its other moves are
    // illegal, but taking the pawn on g7, next to the Black King, explodes that King and wins.
    let fen = "4r1k1/6p1/4N3/8/8/8/8/4K3 w - - 0 1";
    let listed = moves(fen);
    assert!(listed.contains(&"e6g7".to_string()), "{listed:?}");
    assert!(!listed.contains(&"e6c5".to_string()), "{listed:?}");
    let value = show_json(&[ATOMIC, "--fen", fen, "--play", "e6g7"]);
    assert_eq!(
        value["result"]["winners"],
        serde_json::json!(["white"]),
        "{value}"
    );
    assert_eq!(value["result"]["reason"], "royal-captured");
}

#[test]
fn random_games_agree_with_fairy_stockfish() {
    common::crosscheck_fairy(
        "random_games_agree_with_fairy_stockfish",
        "atomic",
        ATOMIC,
        &["--games", "8", "--seed", "11"],
    );
}
