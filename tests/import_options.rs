//! `variant import` of the options mapped after the first import work (issue 28), through the
//! real binary, each in a section of `tests/inputs/import/options.ini`:
//!
//! - `checking = false` (`must not give check`), `flyingGeneral` (`must not after` the kings face
//!   each other along a rook line), `dropNoDoubled` with `dropNoDoubledCount` 1 and 0,
//!   `flagPiece = *` and `flagPieceCount`, `dropRegionWhite/Black`, `soldier` with
//!   `soldierPromotionRank`, `castlingRookKingsideFile` (a rook off its corner),
//!   short start FENs, and built-in parents import restates (`giveaway`, `gardner`);
//! - each written file is checked, states the rule as expected, and plays as pyffish loaded with
//!   the same file plays it: seeded random games (from thinned setups where the script can thin
//!   them) and perft, from the start and from positions where the rule matters;
//! - what the language cannot say of these options is refused with the section's line.

mod common;

use common::import::{game, import, perft_agrees, plays_as_pyffish, refused};
use common::{python_module_or_skip, stderr, stdout, variant};

const CONFIG: &str = "tests/inputs/import/options.ini";
/// The sections, and whether random games may start from thinned setups (`--sparse`: the
/// script cannot thin short FENs, hands, or ranks of ten files).
const SECTIONS: [(&str, bool); 11] = [
    ("nocheck", true),
    ("flying", true),
    ("nifu", false),
    ("noknightdrops", false),
    ("anyflag", true),
    ("twoflags", true),
    ("givechild", true),
    ("gardnerchild", false),
    ("innerrook", false),
    ("droprank", false),
    ("soldiers", true),
];

#[test]
fn every_option_section_is_written_with_its_rule() {
    let (dir, output) = import("import-options", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).ends_with("11 written, 0 refused\n"),
        "{}",
        stdout(&output)
    );
    let text = |name: &str| std::fs::read_to_string(dir.join(format!("{name}.variant"))).unwrap();
    for (name, _) in SECTIONS {
        let check = variant(&["check", &game(&dir, name)]);
        assert!(check.status.success(), "{name}: {}", stderr(&check));
    }
    for (name, expected) in [
        ("nocheck", "must not give check"),
        (
            "flying",
            "must not after some (opponent King and reach of (own King) by \"R\")",
        ),
        (
            "nifu",
            "must not place on file of own Pawn when placing Pawn",
        ),
        // Fairy-Stockfish resets the half-move clock on every drop.
        ("nifu", "drops {\n    irreversible\n"),
        (
            "noknightdrops",
            "must not place on board when placing Knight",
        ),
        (
            "anyflag",
            "each side wins when some (own pieces and white pieces and squares a6",
        ),
        (
            "twoflags",
            "count (own pieces and white pieces and squares a6 b6 c6 d6 e6 f6 g6 h6) >= 2",
        ),
        ("givechild", "must capture when a capture is possible"),
        ("givechild", "each side wins when no own pieces"),
        ("gardnerchild", "setup \"rnbk/pppp/4/PPPP/RNBK w - - 0 1\""),
        ("innerrook", "white K king e1-g1 rook h1-f1"),
        ("droprank", "white must not place on squares a2 b2"),
        ("soldiers", "moves \"fW\"\n    moves \"fW sW\" in ranks 4-8"),
        ("droprank", "black must not place on squares a1 b1"),
    ] {
        assert!(text(name).contains(expected), "{name}: {}", text(name));
    }
}

#[test]
fn option_sections_play_as_pyffish_plays_them() {
    if !python_module_or_skip("option_sections_play_as_pyffish", "pyffish", "pyffish") {
        return;
    }
    let (dir, output) = import("import-options-oracle", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    for (name, thin) in SECTIONS {
        let sparse = if thin { "0.5" } else { "0" };
        plays_as_pyffish(
            CONFIG,
            &dir,
            name,
            &["--plies", "60", "--seed", "7", "--sparse", sparse],
        );
    }
}

#[test]
fn option_sections_perft_equals_pyffish() {
    if !python_module_or_skip("option_sections_perft", "pyffish", "pyffish") {
        return;
    }
    let (dir, output) = import("import-options-perft", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    for (name, depth) in [
        ("nocheck", 3),
        ("flying", 4),
        ("anyflag", 3),
        ("givechild", 3),
        ("gardnerchild", 4),
        ("innerrook", 2),
    ] {
        perft_agrees(CONFIG, &dir, name, depth, None);
    }
    for (name, depth, fen) in [
        // A queen that could give check from many squares; kings open to checks.
        ("nocheck", 3, "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1"),
        // Kings on one file with one knight between: it may not leave the file, nor a king step
        // onto a line facing the other.
        ("flying", 4, "2k2/2n2/5/5/2K2/4R w - - 0 1"),
        // Pawns in hand beside pawns on most files; knights in hand that may not be dropped.
        (
            "nifu",
            2,
            "r3k3/pp1p1ppp/8/8/8/8/PP1P1PPP/R3K3[PPNNpn] w - - 0 1",
        ),
        (
            "noknightdrops",
            2,
            "r3k3/pp1p1ppp/8/8/8/8/PP1P1PPP/R3K3[PPNNpn] w - - 0 1",
        ),
        // Pieces a step from the flag ranks: one reaching it wins, or the second one.
        ("anyflag", 2, "4k3/8/8/1N1P4/8/8/8/4K3 w - - 0 1"),
        ("twoflags", 3, "4k3/8/2N5/1N1P4/8/8/8/4K3 w - - 0 1"),
        // Castling with the rook on h1 (not the corner, the j1 chancellor) and on a1.
        (
            "innerrook",
            2,
            "r3k2r1c/10/10/10/10/10/10/R3K2R1C w KQkq - 0 1",
        ),
        // Pieces in hand that may be dropped on the own first rank only.
        ("droprank", 2, "r3k3/8/8/8/8/8/8/R3K3[CAca] w - - 0 1"),
        // Soldiers of both sides on both sides of their fourth rank.
        ("soldiers", 4, "4k3/8/7p/5p2/2P5/P7/8/4K3 w - - 0 1"),
    ] {
        perft_agrees(CONFIG, &dir, name, depth, Some(fen));
    }
}

#[test]
fn what_these_options_cannot_say_is_refused_with_its_line() {
    refused(
        "import-nodoubled-two",
        "[a:crazyhouse]\ndropNoDoubled = p\ndropNoDoubledCount = 2\n",
        "v.ini:1: [a] not imported: `dropNoDoubledCount = 2`",
    );
    refused(
        "import-flying-castling",
        "[a:chess]\nflyingGeneral = true\n",
        "`flyingGeneral` with castling",
    );
    refused(
        "import-nocheck-drops",
        "[a:crazyhouse]\nchecking = false\n",
        "`checking = false` with drops",
    );
    // The king castles one square (d1 to e1): Fairy-Stockfish writes it d1f1.
    refused(
        "import-one-square-castling",
        "[a:losalamos]\nbishop = b\ncastling = true\ncastlingKingsideFile = e\ncastlingQueensideFile = b\nstartFen = rbnkbr/pppppp/6/6/PPPPPP/RBNKBR w KQkq - 0 1\n",
        "the castling right `K` moves the king from d1 to e1, one square or none",
    );
    refused(
        "import-builtin-not-restated",
        "[a:makruk]\n",
        "v.ini:1: [a] not imported: its parent `makruk` is a built-in Fairy-Stockfish variant import does not restate",
    );
    refused(
        "import-builtin-name-any",
        "[shogi]\n",
        "`shogi` is a built-in Fairy-Stockfish variant",
    );
}
