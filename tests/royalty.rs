//! Royalty per side (issue 28): under `check`, a side whose setup has no royal piece plays
//! without one (Horde's White: no check, no checkmate for it), while a side that starts with
//! one must keep it. Runs the real binary on a Horde written as data (Fairy-Stockfish's
//! `horde`, whose perft from the start is 8, 128, 1274). Then the shipped games against
//! pyffish's answers: Horde's `en-passant on rank 3`, Spartan's duple check (`check when all
//! royal pieces attacked`) and its promotion to a second King.

mod common;

use common::{run_in, stderr, stdout};
use std::path::PathBuf;

const HORDE: &str = r#"extends "chess"
game "Horde"
piece Pawn {
    letter P
    value 1
    moves "mfW cfeF imfnD"
    initial ranks 1-2
    promotes on last rank to Queen Rook Bishop Knight
    irreversible
}
castling {
    black k king e8-g8 rook h8-f8
    black q king e8-c8 rook a8-d8
}
setup "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
end {
    check
    loses when no own pieces
    checkmate loses
    stalemate draws
}
"#;

fn horde_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("variant-royalty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    std::fs::write(dir.join("horde.variant"), HORDE).expect("writes");
    dir
}

#[test]
fn a_side_without_a_royal_piece_at_the_start_plays_under_check() {
    let dir = horde_dir();
    for (depth, nodes) in [("1", "8"), ("2", "128"), ("3", "1274")] {
        let output = run_in(&dir, &["perft", "horde.variant", "--depth", depth], "");
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(
            stdout(&output).ends_with(&format!("Nodes searched: {nodes}\n")),
            "depth {depth}: {}",
            stdout(&output)
        );
    }
}

#[test]
fn the_side_without_a_royal_piece_loses_by_its_end_condition_not_by_check() {
    let dir = horde_dir();
    // White has no piece left: it loses, by the end condition.
    let output = run_in(
        &dir,
        &[
            "show",
            "horde.variant",
            "--fen",
            "4k3/8/8/8/8/8/8/8 w - - 0 1",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("black wins"),
        "{}",
        stdout(&output)
    );
    // A white pawn blocked by a knight: White has no move and is not in check, a stalemate.
    let output = run_in(
        &dir,
        &[
            "show",
            "horde.variant",
            "--fen",
            "4k3/8/8/8/8/8/n7/P7 w - - 0 1",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("draw"), "{}", stdout(&output));
}

#[test]
fn a_side_that_starts_with_a_royal_piece_must_keep_it() {
    // Black starts with its King: a position without it is refused, as in chess.
    let dir = horde_dir();
    let output = run_in(
        &dir,
        &[
            "show",
            "horde.variant",
            "--fen",
            "8/8/8/8/8/8/8/P7 b - - 0 1",
        ],
        "",
    );
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("black has no King on the board"),
        "{}",
        stderr(&output)
    );
}

/// The sorted legal moves of a shipped game from a FEN, by the real binary.
fn legal_moves(game: &str, fen: &str) -> Vec<String> {
    let output = common::variant(&["moves", game, "--fen", fen]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut moves: Vec<String> = stdout(&output).lines().map(str::to_string).collect();
    moves.sort();
    moves
}

/// `variant show GAME --fen FEN`'s output.
fn shown(game: &str, fen: &str) -> String {
    let output = common::variant(&["show", game, "--fen", fen]);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
}

#[test]
fn horde_pawns_double_stepping_from_the_first_rank_leave_no_en_passant_target() {
    // `en-passant on rank 3`: e1-e3 passes e2, on White's second rank, so the pawn on d3 cannot
    // take it; e2-e4 passes e3, and d4 takes it. Both as pyffish answers for `horde`.
    let game = "games/horde.variant";
    let after = |fen: &str, mv: &str| {
        let output = common::variant(&["show", game, "--fen", fen, "--play", mv]);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    assert!(after("4k3/8/8/8/8/3p4/8/4P3 w - - 0 1", "e1e3")
        .contains("FEN: 4k3/8/8/8/8/3pP3/8/8 b - - 0 1"));
    assert_eq!(
        legal_moves(game, "4k3/8/8/8/8/3pP3/8/8 b - - 0 1"),
        ["d3d2", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]
    );
    assert!(after("4k3/8/8/8/3p4/8/4P3/8 w - - 0 1", "e2e4")
        .contains("FEN: 4k3/8/8/8/3pP3/8/8/8 b - e3 0 1"));
    assert!(legal_moves(game, "4k3/8/8/8/3pP3/8/8/8 b - e3 0 1").contains(&"d4e3".to_string()));
}

#[test]
fn a_side_with_two_royal_pieces_may_leave_one_attacked_but_not_both() {
    // Spartan's duple check, as pyffish answers: with the rooks on b1 and h1, the King on h8 is
    // attacked, yet Black is not in check; a8-b8 and a8-b7 would leave both Kings attacked.
    let game = "games/spartan.variant";
    let fen = "k6k/8/8/8/8/8/8/1R2K2R b - - 0 1";
    assert_eq!(legal_moves(game, fen), ["a8a7", "h8g7", "h8g8", "h8h7"]);
    assert!(!shown(game, fen).contains("Check!"), "{}", shown(game, fen));
    // Both attacked: check, and the moves that save one of them.
    let fen = "k6k/1Q6/8/8/8/8/8/R3K2R b - - 0 1";
    assert_eq!(legal_moves(game, fen), ["a8b7", "h8g8"]);
    assert!(shown(game, fen).contains("Check!"));
    // Both attacked and no move: checkmate.
    let fen = "k6k/4N3/8/8/8/8/1Q6/R3K2R b - - 0 1";
    assert!(legal_moves(game, fen).is_empty());
    assert!(
        shown(game, fen).contains("white wins"),
        "{}",
        shown(game, fen)
    );
}

#[test]
fn a_promotion_to_a_royal_piece_is_judged_with_the_new_royal_piece() {
    // Black's only King on g4 is in check; a hoplite promoting to a second King on f1, which
    // nothing attacks, ends the check (pyffish lists g2f1k); with two Kings, a hoplite may not
    // promote to a third (`must not after (count own King > 2)`).
    let game = "games/spartan.variant";
    let moves = legal_moves(game, "8/8/8/8/6k1/Q1l2B2/2K2Bh1/8 b - - 1 95");
    assert_eq!(moves, ["g2f1k", "g4f3", "g4f4", "g4f5", "g4g5", "g4h3"]);
    let moves = legal_moves(game, "k6k/8/8/8/8/8/6h1/4K3 b - - 0 1");
    assert!(moves.contains(&"g2f1g".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.ends_with('k')), "{moves:?}");
}
