//! `variant import` of sections whose parent is a Fairy-Stockfish built-in variant whose game
//! ships in the library (`games/racingkings.variant`, `games/gothic.variant`, ...): written as
//! `extends` of the library game with the child's options on top, through the real binary, on
//! `tests/inputs/import/library.ini`:
//!
//! - each written file is checked, extends its parent and states the child's options as expected
//!   (compulsory captures added to the parent's `moves` block, a start position);
//! - each plays as pyffish loaded with the same file plays it: seeded random games and perft;
//! - an option whose effect on the library game import does not state is refused with its line,
//!   and so is a parent whose library game differs from Fairy-Stockfish by design (shogi).

mod common;

use common::import::{game, import, perft_agrees, plays_as_pyffish, refused};
use common::{python_module_or_skip, stderr, stdout, variant};

const CONFIG: &str = "tests/inputs/import/library.ini";
const SECTIONS: [&str; 4] = ["coffeerace", "coffeerace2", "racehigher", "gothcapture"];

#[test]
fn every_library_child_is_written_on_top_of_its_parent() {
    let (dir, output) = import("import-library", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).ends_with(&format!("{} written, 0 refused\n", SECTIONS.len())),
        "{}",
        stdout(&output)
    );
    let text = |name: &str| std::fs::read_to_string(dir.join(format!("{name}.variant"))).unwrap();
    for name in SECTIONS {
        let check = variant(&["check", &game(&dir, name)]);
        assert!(check.status.success(), "{name}: {}", stderr(&check));
    }
    for (name, expected) in [
        (
            "coffeerace",
            "extends \"racingkings\"\ngame \"coffeerace\"\n",
        ),
        // The parent's move rule is kept, the compulsory capture added.
        (
            "coffeerace",
            "moves {\n    must not give check\n    must capture when a capture is possible\n}",
        ),
        // A child of the child: the same parent, the options of both sections.
        ("coffeerace2", "extends \"racingkings\""),
        ("coffeerace2", "must capture when a capture is possible"),
        (
            "racehigher",
            "setup \"8/8/8/8/8/krbnNBRK/qrbnNBRQ/8 w - - 0 1\"",
        ),
        ("gothcapture", "extends \"gothic\""),
        (
            "gothcapture",
            "moves {\n    must capture when a capture is possible\n}",
        ),
    ] {
        assert!(text(name).contains(expected), "{name}: {}", text(name));
    }
    // No option of its own but a start position: the parent's moves block stands.
    assert!(!text("racehigher").contains("moves {"));
}

#[test]
fn library_children_play_as_pyffish_plays_them() {
    if !python_module_or_skip("library_children_play_as_pyffish", "pyffish", "pyffish") {
        return;
    }
    let (dir, output) = import("import-library-oracle", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    for name in SECTIONS {
        plays_as_pyffish(CONFIG, &dir, name, &["--plies", "80", "--seed", "11"]);
    }
}

#[test]
fn library_children_perft_equals_pyffish() {
    if !python_module_or_skip("library_children_perft", "pyffish", "pyffish") {
        return;
    }
    let (dir, output) = import("import-library-perft", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    for (name, depth) in [("coffeerace", 3), ("racehigher", 3), ("gothcapture", 3)] {
        perft_agrees(CONFIG, &dir, name, depth, None);
    }
    // Captures on offer for both sides, none of them giving check.
    perft_agrees(
        CONFIG,
        &dir,
        "coffeerace",
        3,
        Some("8/8/8/8/3n4/8/krN2BRK/qr3BRQ w - - 0 1"),
    );
}

#[test]
fn what_a_library_parent_cannot_take_is_refused_with_its_line() {
    refused(
        "import-library-drops",
        "[a:xiangqi]\npieceDrops = true\n",
        "v.ini:2: [a] not imported: the option `pieceDrops` on the built-in parent `xiangqi`",
    );
    refused(
        "import-library-grandchild",
        "[a:racingkings]\n[b:a]\nflagMove = false\n",
        "v.ini:3: [b] not imported: the option `flagMove` on the built-in parent `racingkings`",
    );
    // Shogi's library game makes a mating pawn drop illegal; Fairy-Stockfish does not.
    refused(
        "import-library-shogi",
        "[a:shogi]\n",
        "its parent `shogi` is a built-in Fairy-Stockfish variant import does not restate",
    );
}
