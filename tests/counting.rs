//! Counting (`counting N VERDICT when C`, docs/language.md §2.14) through the real binary, on
//! sittuyin's ASEAN counting (`games/sittuyin.variant`), against Fairy-Stockfish: a count of
//! plies starts when the side to move has its king alone and no pawn is left, its limit fixed
//! by the other side's strongest piece; a capture starts it again; past the limit the game is
//! drawn. The FEN carries a running count as Fairy-Stockfish writes it (the limit in plies in
//! the en-passant field, the plies in the half-move field).
//!
//! Each expectation is pyffish 0.0.90's: `scripts/counting_cases.py` prints these lines
//! (`get_fen` after the moves, and `is_optional_game_end` where the position is no mate).

mod common;

use common::show_json;

const SITTUYIN: &str = "games/sittuyin.variant";

/// (FEN, moves played from it, pyffish's FEN after them, whether the count ended the game).
const CASES: &[(&str, &str, &str, bool)] = &[
    (
        "8/8/8/8/8/4k3/8/R3K3[] w - - 0 1",
        "a1a2",
        "8/8/8/8/8/4k3/R7/4K3[] b - 32 0 1",
        false,
    ),
    (
        "8/8/8/8/8/4k3/8/S3K3[] w - - 0 1",
        "a1a2",
        "8/8/8/8/8/4k3/S7/4K3[] b - 88 0 1",
        false,
    ),
    (
        "8/8/8/8/8/4k3/8/N3K3[] w - - 0 1",
        "a1b3",
        "8/8/8/8/8/1N2k3/8/4K3[] b - 128 0 1",
        false,
    ),
    (
        "8/8/8/8/8/4k3/8/F3K3[] w - - 0 1",
        "a1b2",
        "8/8/8/8/8/4k3/1F6/4K3[] b - - 1 1",
        false,
    ),
    (
        "8/8/8/8/8/4k3/8/FR2K3[] w - - 0 1",
        "a1b2",
        "8/8/8/8/8/4k3/1F6/1R2K3[] b - 32 0 1",
        false,
    ),
    (
        "8/8/8/8/8/4k3/P7/R3K3[] w - - 0 1",
        "a1b1",
        "8/8/8/8/8/4k3/P7/1R2K3[] b - - 1 1",
        false,
    ),
    (
        "8/8/8/8/8/4k3/7s/RS2K2R[] w - 88 10 1",
        "h1h2",
        "8/8/8/8/8/4k3/7R/RS2K3[] b - 32 0 1",
        false,
    ),
    (
        "8/8/8/8/8/4k3/7s/RS2K2R[] w - 88 10 1",
        "e1d1",
        "8/8/8/8/8/4k3/7s/RS1K3R[] b - 88 11 1",
        false,
    ),
    (
        "8/8/8/8/8/4k3/4R3/6K1[] b - 32 3 1",
        "e3e2",
        "8/8/8/8/8/8/4k3/6K1[] w - 32 4 2",
        false,
    ),
    (
        "8/8/8/8/8/4k3/8/R3K3[] b - 32 31 1",
        "e3d3",
        "8/8/8/8/8/3k4/8/R3K3[] w - 32 32 2",
        false,
    ),
    (
        "8/8/8/8/8/4k3/8/R3K3[] b - 32 31 1",
        "e3d3 a1a2",
        "8/8/8/8/8/3k4/R7/4K3[] b - 32 33 2",
        true,
    ),
];

#[test]
fn sittuyin_counts_as_fairy_stockfish_does() {
    for &(fen, moves, expected_fen, ends) in CASES {
        let value = show_json(&[SITTUYIN, "--fen", fen, "--play", moves]);
        assert_eq!(value["fen"], expected_fen, "FEN after {fen} {moves}");
        if ends {
            assert_eq!(value["result"]["reason"], "counting", "{fen} {moves}");
            assert_eq!(
                value["result"]["winners"],
                serde_json::json!([]),
                "{fen} {moves}"
            );
        } else {
            assert!(
                value["result"].is_null(),
                "{fen} {moves}: {}",
                value["result"]
            );
        }
    }
}

/// A FEN with a running count reads back as written, and play from it counts on: the count is
/// part of the position, not of the game's history.
#[test]
fn a_running_count_round_trips_through_the_fen() {
    for &(_, _, fen, ends) in CASES {
        let value = show_json(&[SITTUYIN, "--fen", fen]);
        assert_eq!(value["fen"], fen);
        assert_eq!(value["result"].is_null(), !ends, "{fen}");
    }
}

/// The lines of a `counting` rule share one verdict, and a limit is at least one move.
#[test]
fn counting_lines_are_checked() {
    let dir = common::temporary_dir("counting-lines");
    let game = |end: &str| {
        format!(
            "game \"C\"\nboard 8x8\npiece King {{ letter K\n royal\n moves \"K\" }}\n\
             piece Rook {{ letter R\n moves \"R\" }}\n\
             setup \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"\nend {{\n check\n checkmate loses\n {end}\n}}\n"
        )
    };
    let two_verdicts = dir.join("two.variant");
    std::fs::write(
        &two_verdicts,
        game(
            "counting 16 draws when some opponent Rook\n counting 8 loses when some opponent King",
        ),
    )
    .expect("written");
    let output = common::variant(&["check", two_verdicts.to_str().expect("a path")]);
    assert!(!output.status.success());
    assert!(
        common::stderr(&output).contains("different verdicts"),
        "{}",
        common::stderr(&output)
    );
    let zero = dir.join("zero.variant");
    std::fs::write(&zero, game("counting 0 draws when some opponent Rook")).expect("written");
    let output = common::variant(&["check", zero.to_str().expect("a path")]);
    assert!(!output.status.success());
    assert!(
        common::stderr(&output).contains("at least 1 move"),
        "{}",
        common::stderr(&output)
    );
}
