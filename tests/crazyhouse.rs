//! Crazyhouse (`games/crazyhouse.variant`), the library game that tests hands as a capture
//! store: a captured piece goes into the capturer's hand as its own (a promoted one as a pawn) and
//! may be dropped back instead of a move.
//!
//! - Perft from the start and from three middle-game positions with pieces in both hands and a
//!   promoted piece, against Fairy-Stockfish's `crazyhouse` (counted with pyffish).
//! - `scripts/crosscheck_fairy.py`: seeded random games played by Fairy-Stockfish's own move
//!   generator, steered towards captures and promotions, compared with ours at every position
//!   (legal moves and the FEN: board with promoted pieces, hands, side, castling, en passant).
//!   Without pyffish the test prints a loud `SKIPPED` line, and fails when `CI` is set (`.ci/run`
//!   installs it).
//! - Hand-checked positions: a capture changes a piece's side, a promoted piece goes back as a
//!   pawn, pawns are never dropped on the first or last rank, a drop parries check or mates, and a
//!   rook dropped back on its square brings no castling right back.

mod common;

use common::{show_json, stderr, stdout, variant};

const CRAZYHOUSE: &str = "games/crazyhouse.variant";

fn moves(fen: &str) -> Vec<String> {
    let output = variant(&["moves", CRAZYHOUSE, "--fen", fen]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut moves: Vec<String> = stdout(&output).lines().map(String::from).collect();
    moves.sort();
    moves
}

fn perft(fen: Option<&str>, depth: u32) -> String {
    let depth = depth.to_string();
    let mut args = vec!["perft", CRAZYHOUSE, "--depth", &depth];
    if let Some(fen) = fen {
        args.extend(["--fen", fen]);
    }
    let output = variant(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn perft_from_the_start_equals_fairy_stockfish() {
    // pyffish 0.0.90, `crazyhouse`, counted by recursion over `legal_moves` (the legal moves at
    // the last ply, summed; `scripts/crosscheck_fairy.py --variant crazyhouse --perft 5`): 20,
    // 400, 8902, 197281, 4888832. Depths 1-4 are chess's: the first capture can come at ply 3
    // (White's second move), so the first drop at ply 5.
    for (depth, nodes) in [(1, 20), (2, 400), (3, 8902), (4, 197_281), (5, 4_888_832)] {
        assert_eq!(
            perft(None, depth),
            format!("Nodes searched: {nodes}"),
            "depth {depth}"
        );
    }
}

#[test]
fn perft_with_hands_and_promoted_pieces_equals_fairy_stockfish() {
    // Positions reached by seeded random games of Fairy-Stockfish (captures and promotions
    // favoured), each with pieces in both hands and a promoted piece (`~`). Counted with pyffish
    // 0.0.90 by recursion over `legal_moves` from the FEN (`scripts/crosscheck_fairy.py --variant
    // crazyhouse --perft 3 --fen FEN`; depth 4 of the second position with `--perft 4`, which
    // took pyffish 24 minutes).
    let cases: [(&str, &[u64]); 3] = [
        // White to move: the promoted black queen on c1 can be taken (it goes to White's hand as
        // a pawn) by the rook, the queen or the king; Black may castle queenside after it.
        (
            "r1b1kbnr/1ppp2p1/n3p3/3N4/3PP3/8/P1P5/1Rq~2QK1[RPPPqbbnppp] w kq - 0 23",
            &[106, 20_609, 1_672_413],
        ),
        // Black to move, castling queenside available; a promoted white queen on g8.
        (
            "r3kbQ~1/1p1bp3/nqp2pp1/p7/4P3/8/PPPPB1P1/RNBQ1KNR[RNPpp] b q - 1 17",
            &[65, 9_116, 538_195, 61_735_658],
        ),
        // Black to move; a promoted white bishop on b8, White may still castle queenside.
        (
            "1B~2kb1r/r4p1p/1n5p/pR1n3P/P4N2/3bPP1P/P1b2P2/R1B1K3[QNPPqpp] b Qk - 0 30",
            &[110, 13_273, 1_192_812],
        ),
    ];
    for (fen, counts) in cases {
        for (depth, nodes) in (1..).zip(counts) {
            assert_eq!(
                perft(Some(fen), depth),
                format!("Nodes searched: {nodes}"),
                "{fen} at depth {depth}"
            );
        }
    }
}

#[test]
fn the_setup_writes_empty_hands() {
    let value = show_json(&[CRAZYHOUSE]);
    assert_eq!(
        value["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    );
}

#[test]
fn a_captured_piece_goes_to_the_capturers_hand_as_its_own() {
    let value = show_json(&[CRAZYHOUSE, "--play", "e2e4 d7d5 e4d5 d8d5"]);
    assert_eq!(
        value["fen"],
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"
    );
    // Each side may now drop a pawn of its own, anywhere but on the first and last ranks.
    let listed: Vec<String> = value["legal_moves"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert!(listed.contains(&"P@d7".to_string()), "{listed:?}");
    assert!(!listed
        .iter()
        .any(|m| m.ends_with('1') && m.starts_with("P@")));
}

#[test]
fn a_promoted_piece_is_marked_and_goes_back_as_a_pawn() {
    let fen = "r3k3/1P6/8/8/8/8/8/4K3[] w - - 0 1";
    let value = show_json(&[CRAZYHOUSE, "--fen", fen, "--play", "b7b8q"]);
    assert_eq!(value["fen"], "rQ~2k3/8/8/8/8/8/8/4K3[] b - - 0 1");
    // The rook takes the promoted queen: Black's hand gets a pawn, not a queen.
    let value = show_json(&[CRAZYHOUSE, "--fen", fen, "--play", "b7b8q a8b8"]);
    assert_eq!(value["fen"], "1r2k3/8/8/8/8/8/8/4K3[p] w - - 0 2");
    // A FEN with `~` reads back as written.
    let marked = "rQ~2k3/8/8/8/8/8/8/4K3[] b - - 0 1";
    assert_eq!(show_json(&[CRAZYHOUSE, "--fen", marked])["fen"], marked);
}

#[test]
fn pawns_are_never_dropped_on_the_first_or_last_rank() {
    // Ranks 2-7 for both sides (48 squares), besides the 5 king moves.
    for fen in [
        "4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[Pp] b - - 0 1",
    ] {
        let listed = moves(fen);
        let drops: Vec<&String> = listed.iter().filter(|m| m.starts_with("P@")).collect();
        assert_eq!(drops.len(), 48, "{fen}: {listed:?}");
        assert!(
            drops.iter().all(|m| !m.ends_with('1') && !m.ends_with('8')),
            "{fen}: {listed:?}"
        );
        assert_eq!(listed.len(), 53, "{fen}: {listed:?}");
    }
}

#[test]
fn a_drop_parries_a_check_or_mates() {
    // The rook on h1 checks the King on a1: a knight may be dropped in between, a pawn may not
    // (rank 1), and the King may step off the rank.
    assert_eq!(
        moves("k7/8/8/8/8/8/8/K6r[NP] w - - 0 1"),
        ["N@b1", "N@c1", "N@d1", "N@e1", "N@f1", "N@g1", "a1a2", "a1b2"]
    );
    // A rook dropped on the back rank mates.
    let value = show_json(&[
        CRAZYHOUSE,
        "--fen",
        "6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1",
        "--play",
        "R@d8",
    ]);
    assert_eq!(value["result"]["reason"], "checkmate", "{value}");
    assert_eq!(value["result"]["winners"], serde_json::json!(["white"]));
}

#[test]
fn a_rook_dropped_back_on_its_square_brings_no_castling_right() {
    // The h1 rook takes on h8 (both kingside rights go), the Black King steps aside, and White
    // drops the captured rook on h1: White may castle queenside only.
    let value = show_json(&[
        CRAZYHOUSE,
        "--fen",
        "r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1",
        "--play",
        "h1h8 e8d7 R@h1 d7d6",
    ]);
    let fen = value["fen"].as_str().unwrap();
    assert_eq!(fen.split(' ').nth(2), Some("Q"), "{fen}");
    let listed: Vec<&str> = value["legal_moves"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(listed.contains(&"e1c1"), "{listed:?}");
    assert!(!listed.contains(&"e1g1"), "{listed:?}");
}

#[test]
fn random_games_agree_with_fairy_stockfish() {
    // `--bias 0.5`: half the moves are drawn among captures of promoted pieces, else promotions,
    // else captures, so that the games reach promoted pieces being captured (and full hands).
    let Some(text) = common::crosscheck_fairy(
        "random_games_agree_with_fairy_stockfish",
        "crazyhouse",
        CRAZYHOUSE,
        &["--games", "8", "--seed", "11", "--bias", "0.5"],
    ) else {
        return;
    };
    // The games did capture promoted pieces and drop pieces.
    for kind in ["promoted capture", "drop"] {
        let count = text
            .split(&format!("{kind} "))
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse::<u32>().ok());
        assert!(count.is_some_and(|n| n > 0), "no {kind}: {text}");
    }
}
