//! Royalty per side (issue 28): under `check`, a side whose setup has no royal piece plays
//! without one (Horde's White: no check, no checkmate for it), while a side that starts with
//! one must keep it. Runs the real binary on a Horde written as data (Fairy-Stockfish's
//! `horde`, whose perft from the start is 8, 128, 1274).

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
