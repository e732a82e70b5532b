//! Kingdrops' pieces (`tests/variants/kingdrops-pieces.variant`), a test variant for their
//! movement: King, Queen `Q2`, Rook `R3`, Bishop `B3`, Guard `K`, Spearman `fW`, Archer `fF`,
//! one move a turn with check, no promotion. Fairy-Stockfish plays the same game from
//! `tests/variants/kingdrops-pieces.ini`.
//!
//! - Perft from the start and from an open middle-game position against Fairy-Stockfish
//!   (counted with pyffish).
//! - `scripts/crosscheck_fairy.py --config`: seeded random games played by Fairy-Stockfish's own
//!   move generator, from the full setup and from thinned setups (`--sparse`), compared with ours
//!   at every position: legal moves, FEN, check, and the result at the end. Without pyffish the
//!   test prints a loud `SKIPPED` line, and fails when `CI` is set (`.ci/run` installs it).
//! - Hand-checked moves: blocked limited riders, forward-only captures, checks by a Spearman and
//!   an Archer, and Spearmen and Archers stuck on their last rank.

mod common;

use common::{show_json, stderr, stdout, variant};

const GAME: &str = "tests/variants/kingdrops-pieces.variant";
const CONFIG: &str = "tests/variants/kingdrops-pieces.ini";

fn moves(fen: &str) -> Vec<String> {
    let output = variant(&["moves", GAME, "--fen", fen]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut moves: Vec<String> = stdout(&output).lines().map(String::from).collect();
    moves.sort();
    moves
}

fn perft(fen: Option<&str>, depth: u32) -> Option<String> {
    let depth = depth.to_string();
    let mut args = vec!["perft", GAME, "--depth", &depth];
    if let Some(fen) = fen {
        args.extend(["--fen", fen]);
    }
    let output = variant(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output).lines().last().map(String::from)
}

// The counts below were made with pyffish 0.0.90 after
// `load_variant_config(open("tests/variants/kingdrops-pieces.ini").read())`, by a plain recursion:
// `perft(fen, 1) = len(legal_moves("kingdrops-pieces", fen, []))` and
// `perft(fen, d) = sum(perft(get_fen("kingdrops-pieces", fen, [m]), d - 1) for m in legal_moves(...))`.
// No position within these depths ends the game by repetition or the move limit.

#[test]
fn perft_from_the_start_equals_fairy_stockfish() {
    // pyffish: 11, 121, 1496, 18496, 268846.
    for (depth, nodes) in [(1, 11), (2, 121), (3, 1496), (4, 18_496), (5, 268_846)] {
        assert_eq!(perft(None, depth), Some(format!("Nodes searched: {nodes}")));
    }
}

#[test]
fn perft_from_an_open_position_equals_fairy_stockfish() {
    // Queen, Rook, Bishop and Guard on open lines, Spearmen and Archers of both sides.
    // pyffish: 40, 812, 32085, 684443.
    let fen = "r3k2r/1a2sa2/2b5/3Q4/8/2G2B2/S4A2/4K2R w - - 0 1";
    for (depth, nodes) in [(1, 40), (2, 812), (3, 32_085), (4, 684_443)] {
        assert_eq!(
            perft(Some(fen), depth),
            Some(format!("Nodes searched: {nodes}"))
        );
    }
}

#[test]
fn limited_riders_stop_at_their_range_and_at_pieces() {
    // The Queen on d4 goes two squares at most and is stopped by its Archer on c3 and its
    // Spearman on e5, and takes the Rook on b4 and the Guard on b6; the Archer on c3 cannot step
    // onto its Queen on d4 and takes the Rook on b4; the Spearman takes the Bishop in front of it.
    assert_eq!(
        moves("6k1/8/1g2b3/4S3/1r1Q4/2A5/8/6K1 w - - 0 1"),
        [
            "c3b4", "d4b4", "d4b6", "d4c4", "d4c5", "d4d2", "d4d3", "d4d5", "d4d6", "d4e3", "d4e4",
            "d4f2", "d4f4", "e5e6", "g1f1", "g1f2", "g1g2", "g1h1", "g1h2"
        ]
    );
}

#[test]
fn spearmen_and_archers_check_where_they_capture() {
    // An Archer checks diagonally forward, a Spearman straight forward; an Archer right in front
    // of a King gives no check but guards the squares beside it.
    for (fen, check, listed) in [
        (
            "3k4/2A5/8/8/8/8/8/4K3 b - - 0 1",
            true,
            &["d8c7", "d8c8", "d8d7", "d8e7", "d8e8"][..],
        ),
        (
            "4k3/4S3/8/8/8/8/8/4K3 b - - 0 1",
            true,
            &["e8d7", "e8d8", "e8e7", "e8f7", "e8f8"][..],
        ),
        (
            "4k3/4A3/8/8/8/8/8/4K3 b - - 0 1",
            false,
            &["e8d7", "e8e7", "e8f7"][..],
        ),
    ] {
        assert_eq!(show_json(&[GAME, "--fen", fen])["in_check"], check, "{fen}");
        assert_eq!(moves(fen), listed, "{fen}");
    }
}

#[test]
fn spearmen_and_archers_on_their_last_rank_cannot_move() {
    // No promotion: a Spearman or Archer that reached its last rank stays there for good.
    let fen = "S3k2A/8/8/8/8/8/8/1a2K1s1";
    assert_eq!(
        moves(&format!("{fen} w - - 0 1")),
        ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]
    );
    assert_eq!(
        moves(&format!("{fen} b - - 0 1")),
        ["e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]
    );
}

#[test]
fn a_queen_and_guards_mate_and_stalemate() {
    // Fairy-Stockfish agrees on both (no legal move; game_result -32000, then 0).
    let mate = show_json(&[GAME, "--fen", "7k/6Q1/5G2/8/8/8/8/K7 b - - 0 1"]);
    assert_eq!(mate["in_check"], true);
    assert_eq!(mate["result"]["reason"], "checkmate", "{mate}");
    assert_eq!(mate["result"]["winners"], serde_json::json!(["white"]));
    let stalemate = show_json(&[GAME, "--fen", "7k/5G2/6G1/8/8/8/8/K7 b - - 0 1"]);
    assert_eq!(stalemate["in_check"], false);
    assert_eq!(stalemate["result"]["reason"], "stalemate", "{stalemate}");
    assert_eq!(stalemate["result"]["draw"], true);
}

/// Runs `scripts/crosscheck_fairy.py` on this game (its Fairy-Stockfish definition loaded from
/// the ini file) with `extra` arguments.
fn crosscheck(test: &str, extra: &[&str]) -> Option<String> {
    let mut arguments = vec!["--config", CONFIG];
    arguments.extend_from_slice(extra);
    common::crosscheck_fairy(test, "kingdrops-pieces", GAME, &arguments)
}

#[test]
fn random_games_agree_with_fairy_stockfish() {
    crosscheck(
        "random_games_agree_with_fairy_stockfish",
        &["--games", "5", "--seed", "11", "--plies", "120"],
    );
}

#[test]
fn random_games_from_thinned_setups_agree_with_fairy_stockfish() {
    // Each piece but the Kings off with probability 0.7: open boards, long moves of the limited
    // riders, Kings in check. Seed 3 also ends a game by repetition.
    crosscheck(
        "random_games_from_thinned_setups_agree_with_fairy_stockfish",
        &[
            "--games", "6", "--seed", "3", "--plies", "120", "--sparse", "0.7",
        ],
    );
}
