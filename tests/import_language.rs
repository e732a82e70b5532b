//! `variant import` of Fairy-Stockfish options that the language said before import wrote them
//! (issue 28), through the real binary, each in a section of `tests/inputs/import/language.ini`:
//!
//! - `flagPieceSafe`: the flag is reached when more than `flagPieceCount` flag pieces stand in
//!   the region, or exactly that many and none is attacked, judged at the start of each turn
//!   (a flag piece that arrives attacked wins a turn later if still unattacked; both flags
//!   reached draw), as `draws when`, `wins when` and `loses when` end conditions;
//! - `castlingRookPieces`: the piece castling as the rook named in each right
//!   (`rook CustomPiece1 h1-f1`);
//! - each written file is checked, states the rule as expected, and plays as pyffish loaded with
//!   the same file plays it: seeded random games (from thinned setups, where flags are reached)
//!   and perft, from the start and from positions where the rule matters;
//! - what the language cannot say of these options is refused with the section's line.

mod common;

use common::import::{game, import, perft_agrees, plays_as_pyffish, refused};
use common::{python_module_or_skip, stderr, stdout, variant};

const CONFIG: &str = "tests/inputs/import/language.ini";
/// The sections, and whether random games may start from thinned setups (`--sparse`: the
/// script cannot thin hands).
const SECTIONS: [(&str, bool); 5] = [
    ("squatter", true),
    ("safehill", true),
    ("twosafe", true),
    ("ajax-orthodox", false),
    ("chancellorcastle", true),
];

#[test]
fn every_language_option_section_is_written_with_its_rule() {
    let (dir, output) = import("import-language", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).ends_with(&format!("{} written, 0 refused\n", SECTIONS.len())),
        "{}",
        stdout(&output)
    );
    let text = |name: &str| std::fs::read_to_string(dir.join(format!("{name}.variant"))).unwrap();
    for (name, _) in SECTIONS {
        let check = variant(&["check", &game(&dir, name)]);
        assert!(check.status.success(), "{name}: {}", stderr(&check));
    }
    let own = "(own pieces and white pieces and squares a8 b8 c8 d8 e8 f8 g8 h8) or (own pieces and black pieces and squares a1 b1 c1 d1 e1 f1 g1 h1)";
    let reached = format!(
        "(count ({own}) > 1 or count ({own}) = 1 and no (({own}) and attacked by opponent))"
    );
    for (name, expected) in [
        ("squatter", format!("    wins when {reached}\n")),
        ("squatter", format!("    draws when {reached} and (count")),
        (
            "squatter",
            "    loses when (count ((opponent pieces and white pieces".into(),
        ),
        ("safehill", "attacked by own))\n".into()),
        (
            "twosafe",
            "> 2 or count ((own Knight and white Knight".into(),
        ),
        (
            "ajax-orthodox",
            "white K king King e1-g1 rook CustomPiece1 h1-f1".into(),
        ),
        (
            "ajax-orthodox",
            "black q king King e8-c8 rook CustomPiece1 a8-d8".into(),
        ),
        (
            "chancellorcastle",
            "white Q king King e1-c1 rook Chancellor a1-d1".into(),
        ),
    ] {
        assert!(text(name).contains(&expected), "{name}: {}", text(name));
    }
    // A safe flag is no `each side` rule: it is judged at the start of a turn.
    assert!(!text("squatter").contains("each side wins"));
}

#[test]
fn language_option_sections_play_as_pyffish_plays_them() {
    if !python_module_or_skip(
        "language_option_sections_play_as_pyffish",
        "pyffish",
        "pyffish",
    ) {
        return;
    }
    let (dir, output) = import("import-language-oracle", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    for (name, sparse) in SECTIONS {
        let mut options = vec!["--plies", "80", "--seed", "5"];
        if sparse {
            options.extend(["--sparse", "0.6"]);
        }
        plays_as_pyffish(CONFIG, &dir, name, &options);
    }
}

#[test]
fn language_option_sections_perft_equals_pyffish() {
    if !python_module_or_skip("language_option_sections_perft", "pyffish", "pyffish") {
        return;
    }
    let (dir, output) = import("import-language-perft", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    for (name, depth) in [
        ("squatter", 3),
        ("ajax-orthodox", 2),
        ("chancellorcastle", 3),
    ] {
        perft_agrees(CONFIG, &dir, name, depth, None);
    }
    for (name, depth, fen) in [
        // A rook steps onto the far rank attacked or not; a black rook already there, attacked.
        ("squatter", 3, "4k3/R7/8/8/8/8/1b6/r3K3 w - - 0 1"),
        // Both flags within a move; one piece there unattacked already (White to move wins).
        ("squatter", 2, "1N2k3/8/8/8/8/8/8/4K1n1 b - - 0 1"),
        // Kings next to the hill, the squares attacked or free.
        ("safehill", 3, "8/8/2k5/8/3r4/5K2/8/8 w - - 0 1"),
        // Two knights on the far half, one attacked; a third arriving.
        ("twosafe", 3, "4k3/8/8/2N5/8/1p3N2/8/4K1N1 w - - 0 1"),
        // Castling with the custom rook, the squares between attacked or not.
        (
            "ajax-orthodox",
            3,
            "r3k2r/8/8/8/8/8/8/R3K2R[Mm] w KQkq - 0 1",
        ),
    ] {
        perft_agrees(CONFIG, &dir, name, depth, Some(fen));
    }
}

#[test]
fn what_these_options_cannot_say_is_refused_with_its_line() {
    refused(
        "import-safe-blast",
        "[a:atomic]\nflagPiece = k\nflagRegion = d4 e4 d5 e5\nflagPieceSafe = true\n",
        "`flagPieceSafe` with `blastOnCapture` is not mapped",
    );
    refused(
        "import-safe-flag-move",
        "[a:chess]\nflagPiece = k\nflagRegionWhite = *8\nflagRegionBlack = *1\nflagPieceSafe = true\nflagMove = true\n",
        "v.ini:6: [a] not imported: `flagMove = true`",
    );
    refused(
        "import-rook-pieces",
        "[a:chess]\nchancellor = c\ncastlingRookPieces = rc\n",
        "v.ini:3: [a] not imported: `castlingRookPieces = rc`: only one piece type castling as the rook is mapped",
    );
}
