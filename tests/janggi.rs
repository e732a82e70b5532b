//! Janggi (`games/janggi.variant`) where it differs from the other games, through the real
//! binary, against Fairy-Stockfish's answers: passing, bikjang and the material count that ends
//! a game without a mate, the palace diagonals and the janggi cannon.
//!
//! The seeded random games of `tests/fsf/janggi.txt` (tests/library.rs) read every position
//! from a FEN without history, as pyffish's move lists do, and none of them ends: there the game
//! ends only by checkmate, which 80 random plies never reach. The game ends that need history (a
//! pass while the generals face each other, two passes in a row) are checked here on move
//! sequences, each expectation pyffish 0.0.90's (`is_immediate_game_end`, `game_result` and
//! `legal_moves` after the moves, written by a script that is not kept: the cases are below).

mod common;

use common::show_json;

const JANGGI: &str = "games/janggi.variant";

/// (FEN, moves played from it, pyffish's result for the side to move after them, pyffish's
/// sorted legal moves then: none once the game has ended).
const CASES: &[(&str, &str, &str, &str)] = &[
    // start, one pass: the game goes on
    ("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1", "e2e2", "-", "a10a8 a10a9 a7a6 a7b7 b10a8 b10c8 c7b7 c7c6 c7d7 d10d9 d10e10 e7d7 e7e6 e7f7 e9d8 e9d9 e9e10 e9e8 e9e9 e9f8 e9f9 f10e10 f10f9 g7f7 g7g6 g7h7 h10g8 h10i8 i10i8 i10i9 i7h7 i7i6"),
    // two passes in a row end the game: equal material, Han (Black) wins by its 1.5
    ("rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1", "e2e2 e9e9", "loss", ""),
    // a pass in bikjang ends the game: bare generals, Black wins
    ("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "e2e2", "win", ""),
    // a pass in bikjang: White's guard (3) against nothing wins
    ("4k4/9/9/9/9/9/3A5/9/4K4/9 w - - 0 1", "e2e2", "loss", ""),
    // a pass in bikjang: guard (3) against soldier (2) is not enough
    ("4k4/9/9/9/9/9/3A5/9/4K4/p8 w - - 0 1", "e2e2", "win", ""),
    // in bikjang a move must break the facing, or pass
    ("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "", "-", "e2d1 e2d2 e2d3 e2e2 e2f1 e2f2 e2f3"),
    // in check: no pass
    ("3k5/9/9/9/9/9/9/9/4K4/4r4 w - - 0 1", "", "-", "e2d2 e2d3 e2e1 e2f2 e2f3"),
    // in check while the generals face each other: the pass is allowed (`may pass in check
    // when ...`), and ends the game: Black's chariot wins the count
    ("4k4/9/9/9/9/9/9/9/r3K4/9 w - - 0 1", "", "-", "e2d1 e2d3 e2e2 e2f1 e2f3"),
    ("4k4/9/9/9/9/9/9/9/r3K4/9 w - - 0 1", "e2e2", "win", ""),
    // the same check with the generals apart: no pass
    ("3k5/9/9/9/9/9/9/9/r3K4/9 w - - 0 1", "", "-", "e2d1 e2d3 e2e1 e2e3 e2f1 e2f3"),
    // checkmate by chariots along the palace lines
    ("4k4/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1", "", "loss", ""),
    // the cannon may not jump over a cannon
    ("3k5/9/9/9/9/9/9/c8/9/C3K4 w - - 0 1", "", "-", "a1f1 a1g1 a1h1 a1i1 e1d1 e1e1 e1e2 e1f1"),
    // the cannon may not capture a cannon
    ("3k5/9/9/9/9/c8/9/p8/9/C3K4 w - - 0 1", "", "-", "a1a4 a1f1 a1g1 a1h1 a1i1 e1d1 e1e1 e1e2 e1f1"),
    // a cannon checks over a hurdle that is no cannon, not over a cannon
    ("5k3/9/9/3c5/9/9/3P5/9/9/3K5 w - - 0 1", "", "-", "d1e1 d1e2 d4c4 d4e4"),
    // so a cannon as the only piece between cannon and general is no screen
    ("5k3/9/9/3c5/9/9/3C5/9/9/3K5 w - - 0 1", "", "-", "d1d1 d1d2 d1e1 d1e2"),
    // chariot and cannon along the palace diagonals
    ("4k4/9/9/9/9/9/9/5R3/4P4/3C1K3 w - - 0 1", "", "-", "d1g1 d1h1 d1i1 e2d2 e2d3 e2e3 e2f2 f1e1 f1f1 f1f2 f3a3 f3b3 f3c3 f3d3 f3e3 f3f10 f3f2 f3f4 f3f5 f3f6 f3f7 f3f8 f3f9 f3g3 f3h3 f3i3"),
    // soldier diagonally forward in the enemy palace
    ("3k5/9/3P5/9/9/9/9/9/4K4/9 w - - 0 1", "", "-", "d8c8 d8d9 d8e8 d8e9 e2d1 e2d2 e2d3 e2e1 e2e2 e2e3 e2f1 e2f2 e2f3"),
];

/// `win`, `loss`, `draw` or `-` for the side to move, from `show --json`.
fn result(value: &serde_json::Value) -> String {
    common::verdict_and_reason(value).0
}

#[test]
fn janggi_agrees_with_fairy_stockfish_on_passes_bikjang_counting_palaces_and_cannons() {
    for &(fen, moves, expected_result, expected_moves) in CASES {
        let mut args = vec![JANGGI, "--fen", fen];
        if !moves.is_empty() {
            args.extend(["--play", moves]);
        }
        let value = show_json(&args);
        let mut legal: Vec<String> = value["legal_moves"]
            .as_array()
            .expect("legal moves")
            .iter()
            .map(|m| m.as_str().expect("a move").to_string())
            .collect();
        legal.sort();
        assert_eq!(
            legal.join(" "),
            expected_moves,
            "legal moves after {fen} {moves}"
        );
        assert_eq!(
            result(&value),
            expected_result,
            "result after {fen} {moves}"
        );
    }
}

#[test]
fn the_material_count_decides_by_score_and_the_pass_is_written_on_the_generals_square() {
    let value = show_json(&[JANGGI, "--play", "e2e2 e9e9"]);
    assert_eq!(value["result"]["reason"], "score");
    assert_eq!(value["result"]["description"], "black wins by score");
    // Doubled values: 2 x 72 for White, 2 x 72 + 3 for Black (Han's 1.5).
    assert_eq!(value["scores"]["white"], 144);
    assert_eq!(value["scores"]["black"], 147);
    let history = value["history"].to_string();
    assert!(
        history.contains("e2e2") && history.contains("e9e9"),
        "{history}"
    );
    // `pass` is read too, as the same move.
    let typed = show_json(&[JANGGI, "--play", "pass"]);
    assert_eq!(
        typed["last_move"],
        show_json(&[JANGGI, "--play", "e2e2"])["last_move"]
    );
}

/// `explain` says which `may not hop over` or `may not capture` rule bars a cannon's move (the
/// pattern alone reaches the square), in the game's notation and in SAN; the positions are the
/// cannon cases above, whose legal moves pyffish gives.
#[test]
fn explain_names_the_cannon_a_cannon_may_not_hop_over_or_capture() {
    for (fen, written, expected) in [
        (
            "3k5/9/9/9/9/9/9/c8/9/C3K4 w - - 0 1",
            "a1a4",
            "a Cannon may not hop over a Cannon (on a3) to a4",
        ),
        (
            "3k5/9/9/9/9/9/9/c8/9/C3K4 w - - 0 1",
            "Ca4",
            "a Cannon may not hop over a Cannon (on a3) to a4",
        ),
        (
            "3k5/9/9/9/9/c8/9/p8/9/C3K4 w - - 0 1",
            "Cxa5",
            "a Cannon may not capture a Cannon (on a5)",
        ),
    ] {
        let output = common::variant(&["explain", JANGGI, "--fen", fen, written]);
        let text = common::stdout(&output);
        assert!(text.contains(expected), "{fen} {written}: {text}");
    }
}

/// A game that ended by a pass in check (the generals facing each other) leaves the passer's
/// general attacked with the other side to move: that FEN is what the rules reached, so it reads
/// back (the fuzz test met it in a random game); the same attack with the generals apart, which
/// no pass can leave, is still refused as a position no move reaches. pyffish writes the same
/// FEN after the pass (`get_fen('janggi', '4k4/9/9/9/9/9/9/9/r3K4/9 w - - 0 1', ['e2e2'])`).
#[test]
fn the_fen_after_a_pass_in_check_reads_back() {
    let after = show_json(&[
        JANGGI,
        "--fen",
        "4k4/9/9/9/9/9/9/9/r3K4/9 w - - 0 1",
        "--play",
        "e2e2",
    ]);
    let fen = after["fen"].as_str().expect("a FEN");
    assert_eq!(fen, "4k4/9/9/9/9/9/9/9/r3K4/9 b - - 1 1");
    let again = common::variant(&["show", JANGGI, "--fen", fen]);
    assert!(again.status.success(), "{}", common::stderr(&again));
    assert!(common::stdout(&again).contains(fen));
    let apart = common::variant(&[
        "show",
        JANGGI,
        "--fen",
        "3k5/9/9/9/9/9/9/9/r3K4/9 b - - 1 1",
    ]);
    assert!(!apart.status.success());
    assert!(
        common::stderr(&apart).contains("cannot have made the last move"),
        "{}",
        common::stderr(&apart)
    );
}
