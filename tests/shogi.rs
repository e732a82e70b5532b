//! Shogi and minishogi through the real binary: the promotion rules and restricted drops of
//! issue 27 on chosen positions, each move list pyffish's (0.0.90, `sorted(legal_moves(...))`)
//! unless said otherwise. The seeded random games and perft are tests/library.rs's
//! (tests/fsf/shogi.txt, tests/fsf/minishogi.txt).
//!
//! - promotion: optional on a move that starts or ends in the zone (leaving it too), written
//!   `+`; forced where the piece would be stranded (a pawn or lance on the last rank, a knight on
//!   the last two), derived from the piece's moves;
//! - drops: never where the piece would be stranded; no second unpromoted pawn on a file (a
//!   tokin does not count); no pawn drop that mates (where pyffish differs, said below);
//! - FEN: `+P` read and written back by `show --fen`, hands in Fairy-Stockfish's order, a
//!   captured promoted piece going to the hand as the piece it promoted from;
//! - diagnostics of the new constructs.

mod common;

use common::{show_json, stderr, stdout, temporary_dir, variant};

const SHOGI: &str = "games/shogi.variant";
const MINISHOGI: &str = "games/minishogi.variant";

fn moves(game: &str, fen: &str) -> String {
    let output = variant(&["moves", game, "--fen", fen]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut moves: Vec<String> = stdout(&output).lines().map(String::from).collect();
    moves.sort();
    moves.join(" ")
}

#[test]
fn promotion_is_optional_on_moves_into_within_and_out_of_the_zone() {
    // A silver on the last rank (the minishogi zone) stepping back out of it may promote.
    assert_eq!(
        moves(MINISHOGI, "k1S2/5/5/5/4K[] w - - 0 1"),
        "c5b4 c5b4+ c5d4 c5d4+ e1d1 e1d2 e1e2"
    );
    // A lance entering shogi's three-rank zone may promote, but must on the last rank.
    assert_eq!(
        moves(SHOGI, "4k4/9/9/9/9/9/9/9/L3K4[] w - - 0 1"),
        "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a7+ a1a8 a1a8+ a1a9+ e1d1 e1d2 e1e2 e1f1 e1f2"
    );
}

#[test]
fn promotion_is_forced_where_the_piece_would_be_stranded() {
    // A pawn reaching the last rank must promote.
    assert_eq!(
        moves(MINISHOGI, "4k/P4/5/5/K4[] w - - 0 1"),
        "a1a2 a1b1 a1b2 a4a5+"
    );
    // A knight reaching either of the last two ranks must promote (gote's knight, moving
    // down, on its 8th and 9th ranks: ranks 2 and 1).
    assert_eq!(
        moves(SHOGI, "4k4/9/9/9/9/9/2n6/9/4K4[] b - - 0 1"),
        "c3b1+ c3d1+ e9d8 e9d9 e9e8 e9f8 e9f9"
    );
}

#[test]
fn drops_are_never_where_the_piece_would_be_stranded() {
    // 81 squares, 2 kings, the 18 squares of the last two ranks (one holds gote's king).
    let knight_drops = moves(SHOGI, "k8/9/9/9/9/9/9/9/8K[N] w - - 0 1")
        .split(' ')
        .filter(|m| m.starts_with("N@"))
        .count();
    assert_eq!(knight_drops, 62);
    let pawn_drops = moves(MINISHOGI, "k4/5/5/5/4K[P] w - - 0 1");
    assert!(pawn_drops.contains("P@b4"), "{pawn_drops}");
    assert!(!pawn_drops.contains("P@b5"), "{pawn_drops}");
}

#[test]
fn no_second_unpromoted_pawn_on_a_file() {
    // Nifu: sente's pawn on c2 keeps its pawns off the c-file...
    assert_eq!(
        moves(MINISHOGI, "k4/5/5/2P2/4K[P] w - - 0 1"),
        "P@a1 P@a2 P@a3 P@a4 P@b1 P@b2 P@b3 P@b4 P@d1 P@d2 P@d3 P@d4 P@e2 P@e3 P@e4 c2c3 \
         e1d1 e1d2 e1e2"
    );
    // ... and a tokin there does not.
    assert_eq!(
        moves(MINISHOGI, "k4/5/5/2+P2/4K[P] w - - 0 1"),
        "P@a1 P@a2 P@a3 P@a4 P@b1 P@b2 P@b3 P@b4 P@c1 P@c3 P@c4 P@d1 P@d2 P@d3 P@d4 P@e2 P@e3 \
         P@e4 c2b2 c2b3 c2c1 c2c3 c2d2 c2d3 e1d1 e1d2 e1e2"
    );
}

#[test]
fn a_pawn_drop_may_check_but_not_mate() {
    // The pawn on e8 would mate: the gold on e7 guards it and covers d8 and f8, the knights
    // block d9 and f9. pyffish lists P@e8 (and then scores the game lost for the side that
    // dropped, from the history); the rule forbids the drop, and so do we: pyffish's list
    // without it.
    let pyffish = "P@a1 P@a2 P@a3 P@a4 P@a5 P@a6 P@a7 P@a8 P@b1 P@b2 P@b3 P@b4 P@b5 P@b6 P@b7 \
        P@b8 P@c1 P@c2 P@c3 P@c4 P@c5 P@c6 P@c7 P@c8 P@d1 P@d2 P@d3 P@d4 P@d5 P@d6 P@d7 P@d8 \
        P@e2 P@e3 P@e4 P@e5 P@e6 P@e8 P@f1 P@f2 P@f3 P@f4 P@f5 P@f6 P@f7 P@f8 P@g1 P@g2 P@g3 \
        P@g4 P@g5 P@g6 P@g7 P@g8 P@h1 P@h2 P@h3 P@h4 P@h5 P@h6 P@h7 P@h8 P@i1 P@i2 P@i3 P@i4 \
        P@i5 P@i6 P@i7 P@i8 e1d1 e1d2 e1e2 e1f1 e1f2 e7d7 e7d8 e7e6 e7e8 e7f7 e7f8";
    let ours = moves(SHOGI, "3nkn3/9/4G4/9/9/9/9/9/4K4[P] w - - 0 1");
    let expected: Vec<&str> = pyffish
        .split_whitespace()
        .filter(|m| *m != "P@e8")
        .collect();
    assert_eq!(ours, expected.join(" "));
    // Without the gold the king takes the pawn: the drop only checks, and is legal.
    let ours = moves(SHOGI, "3nkn3/9/9/9/9/9/9/9/4K4[P] w - - 0 1");
    assert!(ours.split(' ').any(|m| m == "P@e8"), "{ours}");
    // Any other piece may mate by a drop: a gold on e8.
    let ours = moves(SHOGI, "3nkn3/9/4G4/9/9/9/9/9/4K4[G] w - - 0 1");
    assert!(ours.split(' ').any(|m| m == "G@e8"), "{ours}");
}

#[test]
fn promoted_pieces_are_written_with_a_plus_and_read_back() {
    // A position of pyffish's random shogi games (tests/fsf/shogi.txt), promoted pieces of both
    // sides and pieces in both hands.
    let fen =
        "4s+N1+b1/ls1k1g3/pp3p2p/2p1g1pp1/P1Pn3Pl/GPSp2P1P/3+n1PK1N/LB1P1RS1L/4G4[Rpp] b - - 0 44";
    assert_eq!(show_json(&[SHOGI, "--fen", fen])["fen"], fen);
    // Hands in Fairy-Stockfish's order: gold, knight, lance, pawn, silver, rook, bishop.
    let fen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[GNLPSRBgnlpsrb] w - - 0 1";
    assert_eq!(show_json(&[SHOGI, "--fen", fen])["fen"], fen);
    // A `+` before a letter that no promoted piece has is refused, with the reason.
    let output = variant(&["show", MINISHOGI, "--fen", "k4/+K4/5/5/4K[] b - - 0 1"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("`+K` is not a promoted piece of this game"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_captured_promoted_piece_goes_to_the_hand_as_the_piece_it_promoted_from() {
    let json = show_json(&[
        MINISHOGI,
        "--fen",
        "k4/+P4/5/5/4K[] b - - 0 1",
        "--play",
        "a5a4",
    ]);
    assert_eq!(json["fen"], "5/k4/5/5/4K[p] w - - 0 2");
    // And a promotion played is written `+` in the FEN that follows.
    let json = show_json(&[
        MINISHOGI,
        "--fen",
        "k4/5/P4/5/4K[] w - - 0 1",
        "--play",
        "a3a4 a5b5 a4a5+",
    ]);
    assert_eq!(json["fen"], "+Pk3/5/5/5/4K[] b - - 0 2");
}

/// `variant check` of a game file written to a temporary directory: its status and its stderr.
fn check(name: &str, text: &str) -> (bool, String) {
    let dir = temporary_dir(&format!("shogi-{name}"));
    let path = dir.join(format!("shogi-{name}.variant"));
    std::fs::write(&path, text).expect("writable");
    let output = variant(&["check", path.to_str().expect("a UTF-8 path")]);
    (output.status.success(), stderr(&output) + &stdout(&output))
}

const SMALL: &str =
    "game \"G\"\nboard 5x5\nside white { forward up }\nside black { forward down }\n\
turns white black\npiece King { letter K; royal; moves \"K\" }\n\
piece Pawn { letter P; moves \"fW\"; promotes optionally on or from last rank to Tokin }\n";

#[test]
fn the_new_constructs_are_diagnosed() {
    // A promoted form needs a piece with its letter.
    let (ok, text) = check(
        "plus",
        &format!(
            "{SMALL}piece Tokin {{ letter +T; moves \"WfF\" }}\n\
             setup \"k4/5/5/5/P3K w - - 0 1\"\nend {{ check; checkmate loses }}\n"
        ),
    );
    assert!(!ok);
    assert!(text.contains("error[E0107]"), "{text}");
    assert!(text.contains("`+T` is the promoted form"), "{text}");
    // `give checkmate` only as `must not give checkmate`; one kind of lookahead per block.
    let game = format!(
        "{SMALL}piece Tokin {{ letter +P; moves \"WfF\" }}\n\
         setup \"k4/5/5/5/P3K[P] w - - 0 1\"\nactions moves drops\ncapture {{ to hand }}\n\
         end {{ check; checkmate loses }}\n"
    );
    let (ok, text) = check("ok", &game);
    assert!(ok, "{text}");
    let (ok, text) = check(
        "misplaced",
        &format!("{game}drops {{ must give checkmate when placing Pawn }}\n"),
    );
    assert!(!ok);
    assert!(text.contains("error[E0812]"), "{text}");
    assert!(text.contains("must not give checkmate"), "{text}");
    let (ok, text) = check(
        "both",
        &format!("{game}drops {{ must not give checkmate; must leave an action }}\n"),
    );
    assert!(!ok);
    assert!(
        text.contains(
            "`must leave an action` cannot be used in a block that says `must not give checkmate`"
        ),
        "{text}"
    );
    // `place stranded` speaks of a drop: not in an end condition.
    let (ok, text) = check(
        "stranded",
        &format!("{game}drops {{ must not place stranded }}\n").replace(
            "checkmate loses }",
            "checkmate loses; draws when place stranded }",
        ),
    );
    assert!(!ok);
    assert!(
        text.contains("`place stranded` cannot be used in an end condition"),
        "{text}"
    );
}
