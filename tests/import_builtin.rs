//! `variant import` of Fairy-Stockfish's built-in parents that import restates beyond the first
//! ones, and of the options they rest on (issue 28), through the real binary, each in a section
//! of `tests/inputs/import/builtin.ini`:
//!
//! - `atomic` and `nocheckatomic` (variant.cpp: a commoner `k`, its extinction, `blastOnCapture`,
//!   atomic's `extinctionPseudoRoyal`): `capture { remove capturer; remove around except Pawn }`,
//!   the commoner `royal` with `check` and `royal captured loses` where it is pseudo-royal;
//! - `extinctionPseudoRoyal` without explosions (two commoners a side; an amazon against a king)
//!   as `royal` pieces, and `extinctionOpponentPieceCount` as `count opponent ... >= N`;
//! - each written file is checked, states the rule as expected, and plays as pyffish loaded with
//!   the same file plays it: seeded random games and perft, from the start and from positions
//!   where the rule matters;
//! - what the language cannot say of these options is refused with the section's line.

mod common;

use common::import::{game, import, perft_agrees, plays_as_pyffish, refused};
use common::{python_module_or_skip, stderr, stdout, variant};

const CONFIG: &str = "tests/inputs/import/builtin.ini";
const SECTIONS: [&str; 9] = [
    "atomicchild",
    "nocheckchild",
    "smallatomic",
    "antiblast",
    "twocommoners",
    "amazonroyal",
    "minipromo",
    "pawnpromo",
    "pocketchild",
];

const BLAST: &str = "capture {\n    remove capturer\n    remove around except Pawn\n}";

#[test]
fn every_builtin_section_is_written_with_its_rule() {
    let (dir, output) = import("import-builtin", CONFIG);
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
        ("atomicchild", BLAST),
        ("atomicchild", "piece Commoner {\n    letter K\n    royal\n"),
        (
            "atomicchild",
            "end {\n    check\n    royal captured loses\n",
        ),
        ("atomicchild", "white K king Commoner e1-g1 rook h1-f1"),
        ("nocheckchild", BLAST),
        ("nocheckchild", "each side loses when no own Commoner"),
        ("smallatomic", "royal captured loses"),
        ("antiblast", BLAST),
        (
            "antiblast",
            "each side wins when no own pieces and count opponent pieces >= 1",
        ),
        (
            "twocommoners",
            "piece Commoner {\n    letter K\n    royal\n",
        ),
        ("amazonroyal", "piece Amazon {\n    letter M\n    royal\n"),
        (
            "minipromo",
            "promotes for white optionally on or from squares a5 a6 b5 b6 c5 c6 d5 d6 e5 e6 f5 f6 to PromotedLance",
        ),
        ("minipromo", "piece PromotedLance {\n    letter +L\n    moves \"W fF\"\n}"),
        ("minipromo", "piece PromotedBishop {\n    letter +B\n    moves \"F0 W\"\n}"),
        ("minipromo", "must not place stranded"),
        ("minipromo", "repetition 4 draws, perpetual check loses"),
        (
            "pawnpromo",
            "promotes for white on squares a8 b8 c8 d8 e8 f8 g8 h8 to Rook Bishop PromotedPawn",
        ),
        (
            "pawnpromo",
            "promotes for black on or from squares a1 b1 c1 d1 e1 f1 g1 h1 to PromotedKnight",
        ),
        ("pocketchild", "setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1\""),
        ("pocketchild", "actions moves drops"),
        ("pawnpromo", "piece PromotedKnight {\n    letter +N\n    moves \"W0 F0\"\n}"),
    ] {
        assert!(text(name).contains(expected), "{name}: {}", text(name));
    }
    for (name, absent) in [
        // Without explosions a pseudo-royal piece cannot be lost: no extinction rule.
        ("twocommoners", "when no own"),
        ("amazonroyal", "when no own"),
        // Captured pieces leave the game.
        ("pocketchild", "to hand"),
        // The horse appears only promoted: no piece of its own.
        ("minipromo", "piece DragonHorse"),
        // Without pseudo-royalty the commoner is no royal piece and there is no check.
        ("nocheckchild", "royal"),
        ("nocheckchild", "check\n"),
    ] {
        assert!(!text(name).contains(absent), "{name}: {}", text(name));
    }
}

#[test]
fn builtin_sections_play_as_pyffish_plays_them() {
    if !python_module_or_skip("builtin_sections_play_as_pyffish", "pyffish", "pyffish") {
        return;
    }
    let (dir, output) = import("import-builtin-oracle", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    for name in SECTIONS {
        plays_as_pyffish(CONFIG, &dir, name, &["--plies", "80", "--seed", "11"]);
    }
}

#[test]
fn builtin_sections_perft_equals_pyffish() {
    if !python_module_or_skip("builtin_sections_perft", "pyffish", "pyffish") {
        return;
    }
    let (dir, output) = import("import-builtin-perft", CONFIG);
    assert!(output.status.success(), "{}", stderr(&output));
    for (name, depth) in [
        ("atomicchild", 3),
        ("nocheckchild", 3),
        ("smallatomic", 4),
        ("antiblast", 3),
        ("twocommoners", 3),
        ("amazonroyal", 3),
        ("minipromo", 3),
        ("pawnpromo", 3),
        ("pocketchild", 2),
    ] {
        perft_agrees(CONFIG, &dir, name, depth, None);
    }
    for (name, depth, fen) in [
        // Kings side by side (never in check), captures next to both kings, castling.
        (
            "atomicchild",
            3,
            "r3k2r/ppp2ppp/3q4/3Kn3/8/8/PPP2PPP/R6R w kq - 0 1",
        ),
        // The same without check: a king may be left attacked, and blown up.
        (
            "nocheckchild",
            3,
            "r3k2r/ppp2ppp/3q4/3Kn3/8/8/PPP2PPP/R6R w kq - 0 1",
        ),
        // Few pieces left: a capture that empties a side wins only while the opponent has one.
        ("antiblast", 3, "8/8/2pp4/2nP4/8/8/8/4N3 w - - 0 1"),
        // One commoner of two attacked; checks against the amazon.
        ("twocommoners", 3, "4k3/8/3k4/8/8/2r5/8/K2K4 w - - 0 1"),
        ("amazonroyal", 3, "r3k2r/8/8/8/8/3q4/8/M7 w kq - 0 1"),
        // A lance and a knight that must promote where they would be stranded, a silver that
        // may, pawns in hand.
        ("minipromo", 3, "2k3/L5/2S3/1N4/6/3K2[Pp] w - - 0 1"),
        // A pawn with three choices, a knight that must promote on entering the last rank.
        ("pawnpromo", 3, "4k3/1P6/2N5/8/8/8/6p1/4K3 w - - 0 1"),
    ] {
        perft_agrees(CONFIG, &dir, name, depth, Some(fen));
    }
}

#[test]
fn what_shogi_promotion_cannot_say_is_refused_with_its_line() {
    let lance = "[a:chess]\nlance = l\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/LNBQKBNR w Kkq - 0 1\n";
    // Optional promotion into the last rank, where the lance could never move again: the
    // language forces it, Fairy-Stockfish without `immobilityIllegal` does not.
    refused(
        "import-promotion-stranded",
        format!("{lance}promotedPieceType = l:r\n"),
        "the Lance may promote optionally where it could never move again",
    );
    // A lance that does not promote at all, with `immobilityIllegal`.
    refused(
        "import-immobility-no-promotion",
        format!("{lance}immobilityIllegal = true\n"),
        "`immobilityIllegal`: the Lance may move where it could never move again",
    );
    refused(
        "import-promotion-chain",
        "[a:chess]\ngold = g\npromotedPieceType = n:g g:q\n",
        "`g`, a promoted type, promotes again",
    );
    refused(
        "import-promotion-counted",
        "[a:chess]\ncommoner = c\npromotedPieceType = n:c\nextinctionValue = loss\nextinctionPieceTypes = c\n",
        "a rule counts or finds pieces of `c`, a promoted type",
    );
    // Fairy-Stockfish's pass is a piece's move to its own square: a pawn's resets the clock.
    refused(
        "import-pass-on-stalemate",
        "[a:giveaway]\npassOnStalemate = true\n",
        "`passOnStalemate` is not mapped",
    );
    refused(
        "import-perpetual-loss",
        "[a:chess]\nperpetualCheckIllegal = true\nnFoldValue = loss\n",
        "`perpetualCheckIllegal` with an `nFoldValue` other than `draw`",
    );
}

#[test]
fn what_the_atomic_options_cannot_say_is_refused_with_its_line() {
    refused(
        "import-blast-king",
        "[a:chess]\nblastOnCapture = true\n",
        "v.ini:1: [a] not imported: `blastOnCapture` with a `king`",
    );
    refused(
        "import-blast-drops",
        "[a:atomic]\npieceDrops = true\ncapturesToHand = true\n",
        "`blastOnCapture` with drops is not mapped",
    );
    // A side may gain a pseudo-royal piece by promotion: its pieces stop being pseudo-royal.
    refused(
        "import-pseudo-royal-promotion",
        "[a:atomic]\npromotionPieceTypes = kqrbn\n",
        "pawns may promote to the extinction type `k`",
    );
    refused(
        "import-pseudo-royal-promotes",
        "[a:atomic]\npromotedPieceType = k:q\n",
        "the extinction type `k` promotes",
    );
    refused(
        "import-pseudo-royal-hand",
        "[a:chess]\nking = -\ncommoner = k\npieceDrops = true\ncapturesToHand = true\nextinctionValue = loss\nextinctionPieceTypes = k\nextinctionPseudoRoyal = true\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[K] w - - 0 1\n",
        "the extinction type `k` is in a hand at the start",
    );
    refused(
        "import-pseudo-royal-many",
        "[a:chess]\nking = -\ncommoner = k\nextinctionValue = loss\nextinctionPieceTypes = k\nextinctionPseudoRoyal = true\nstartFen = rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1\n",
        "a side starts with 2 pieces of the extinction type `k`",
    );
    refused(
        "import-pseudo-royal-blast-two",
        "[a:atomic]\nextinctionPieceCount = 1\nstartFen = rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1\ncastling = false\n",
        "mapped only for one piece of one extinction type per side",
    );
    refused(
        "import-pseudo-royal-all",
        "[a:giveaway]\nextinctionPseudoRoyal = true\n",
        "`extinctionPseudoRoyal` with `extinctionPieceTypes = *`",
    );
}
