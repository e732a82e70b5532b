//! Repetition and perpetual check (`repetition N VERDICT, perpetual check VERDICT`, issue 27),
//! through the real binary, against Fairy-Stockfish on move sequences that repeat a position,
//! with and without perpetual check, in chess, shako, xiangqi and shogi.
//!
//! Each expectation is pyffish 0.0.90's `is_optional_game_end` after the moves (the first
//! ply at which it says the game may end; one ply earlier it says no), as the result for the
//! side to move: chess and shako draw the third occurrence, perpetual check included; xiangqi
//! draws it unless one side gave check with every move since the first occurrence, which then
//! loses; shogi the same at the fourth. Written by a script that is not kept: the cases are
//! below. Our game ends at once at that ply (no claim), and not one ply earlier.

mod common;

use common::{show_json, verdict_and_reason as result};

/// (game, FEN, moves, pyffish's result for the side to move after them).
const CASES: &[(&str, &str, &str, &str)] = &[
    (
        "games/chess.variant",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
        "draw",
    ),
    (
        "games/chess.variant",
        "k7/7R/8/8/8/8/8/4K3 w - - 0 1",
        "h7h8 a8a7 h8h7 a7a8 h7h8 a8a7 h8h7 a7a8",
        "draw",
    ),
    (
        "games/shako.variant",
        "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1",
        "h2g4 h9g7 g4h2 g7h9 h2g4 h9g7 g4h2 g7h9",
        "draw",
    ),
    (
        "games/shako.variant",
        "k9/9R/10/10/10/10/10/10/10/4K5 w - - 0 1",
        "j9j10 a10a9 j10j9 a9a10 j9j10 a10a9 j10j9 a9a10",
        "draw",
    ),
    (
        "games/xiangqi.variant",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "h1g3 h10g8 g3h1 g8h10 h1g3 h10g8 g3h1 g8h10",
        "draw",
    ),
    (
        "games/xiangqi.variant",
        "3k5/8R/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "i9i10 d10d9 i10i9 d9d10 i9i10 d10d9 i10i9 d9d10",
        "loss",
    ),
    (
        "games/xiangqi.variant",
        "3k4R/9/9/9/9/9/9/9/9/4K4 b - - 1 1",
        "d10d9 i10i9 d9d10 i9i10 d10d9 i10i9 d9d10 i9i10",
        "win",
    ),
    (
        "games/xiangqi.variant",
        "3k5/8R/9/9/9/r8/9/9/9/4K4 w - - 0 1",
        "i9i10 d10d9 i10i9 d9d10 e1e2 a5a6 e2e1 a6a5",
        "draw",
    ),
    (
        "games/xiangqi.variant",
        "3k5/8R/9/9/9/r8/9/9/9/4K4 w - - 0 1",
        "e1e2 a5a6 e2e1 a6a5 i9i10 d10d9 i10i9 d9d10",
        "draw",
    ),
    (
        "games/shogi.variant",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1",
        "h2g2 b8c8 g2h2 c8b8 h2g2 b8c8 g2h2 c8b8 h2g2 b8c8 g2h2 c8b8",
        "draw",
    ),
    (
        "games/shogi.variant",
        "k8/8R/9/9/9/9/9/9/4K4[] w - - 0 1",
        "i8i9 a9a8 i9i8 a8a9 i8i9 a9a8 i9i8 a8a9 i8i9 a9a8 i9i8 a8a9",
        "loss",
    ),
    (
        "games/shogi.variant",
        "k7R/9/9/9/9/9/9/9/4K4[] b - - 1 1",
        "a9a8 i9i8 a8a9 i8i9 a9a8 i9i8 a8a9 i8i9 a9a8 i9i8 a8a9 i8i9",
        "win",
    ),
];

#[test]
fn repetitions_end_as_fairy_stockfish_ends_them() {
    for &(game, fen, moves, expected) in CASES {
        let value = show_json(&[game, "--fen", fen, "--play", moves]);
        let (verdict, reason) = result(&value);
        assert_eq!(verdict, expected, "{game} from {fen} after {moves}");
        let expected_reason = if expected == "draw" {
            "repetition"
        } else {
            "perpetual-check"
        };
        assert_eq!(reason, expected_reason, "{game} from {fen} after {moves}");
        let (earlier, _) = (moves.rsplit_once(' ').map(|(first, _)| first))
            .map(|first| result(&show_json(&[game, "--fen", fen, "--play", first])))
            .expect("several moves");
        assert_eq!(earlier, "-", "{game} from {fen}: one ply before the end");
    }
}

/// (game, FEN, moves, pyffish's result for the side to move after them, our reason): the
/// repetitions and move limits that are not a plain verdict for the side that repeated. Janggi
/// decides both by the material count (`repetition 3 by score, perpetual check loses`,
/// `move-limit 50 by score`: Fairy-Stockfish's `materialCounting = janggi`), perpetual check
/// first; minishogi's fourth occurrence loses for sente, whoever made it (`repetition 4 loses
/// for sente, perpetual check loses`: `nFoldValueAbsolute`). The expectations are printed by
/// `python3 scripts/repetition_oracle.py` (pyffish 0.0.90's `is_optional_game_end` at the first
/// ply it says the game may end, which is the last of the moves).
const DECIDED: &[(&str, &str, &str, &str, &str)] = &[
    // equal material: Han (Black) wins by its 1.5
    (
        "games/janggi.variant",
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
        "h1g3 h10g8 g3h1 g8h10 h1g3 h10g8 g3h1 g8h10",
        "loss",
        "repetition",
    ),
    // White a chariot up wins the repetition, whoever repeated
    (
        "games/janggi.variant",
        "3k5/9/9/9/9/9/9/9/R3K4/9 w - - 0 1",
        "e2e3 d10d9 e3e2 d9d10 e2e3 d10d9 e3e2 d9d10",
        "win",
        "repetition",
    ),
    // White's chariot checks with every move: White loses, a chariot up or not
    (
        "games/janggi.variant",
        "3k5/8R/9/9/9/9/9/9/4K4/9 w - - 0 1",
        "i9i10 d10d9 i10i9 d9d10 i9i10 d10d9 i10i9 d9d10",
        "loss",
        "perpetual-check",
    ),
    // passes in the cycle (never two in a row): the same positions, as in Fairy-Stockfish
    (
        "games/janggi.variant",
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
        "e2e2 h10g8 e2e2 g8h10 e2e2 h10g8 e2e2 g8h10",
        "loss",
        "repetition",
    ),
    // the 50-move rule, decided by the material count: White a chariot up
    (
        "games/janggi.variant",
        "3k5/9/9/9/9/9/9/9/R3K4/9 w - - 99 60",
        "a2a3",
        "loss",
        "move-limit",
    ),
    // the 50-move rule with equal material: Han wins
    (
        "games/janggi.variant",
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 98 60",
        "h1g3 h10g8",
        "loss",
        "move-limit",
    ),
    // the fourth occurrence, sente to move: sente loses
    (
        "games/minishogi.variant",
        "rbsgk/4p/5/P4/KGSBR[-] w 0 1",
        "e1e2 a5a4 e2e1 a4a5 e1e2 a5a4 e2e1 a4a5 e1e2 a5a4 e2e1 a4a5",
        "loss",
        "repetition",
    ),
    // the fourth occurrence, gote to move (gote made it): sente loses all the same
    (
        "games/minishogi.variant",
        "rbsgk/4p/5/P4/KGSBR[-] b 0 1",
        "a5a4 e1e2 a4a5 e2e1 a5a4 e1e2 a4a5 e2e1 a5a4 e1e2 a4a5 e2e1",
        "win",
        "repetition",
    ),
    // gote checks with every move: gote loses (perpetual check before the fixed verdict)
    (
        "games/minishogi.variant",
        "K4/4r/5/5/4k[-] b - - 0 1",
        "e4e5 a5a4 e5e4 a4a5 e4e5 a5a4 e5e4 a4a5 e4e5 a5a4 e5e4 a4a5",
        "loss",
        "perpetual-check",
    ),
];

#[test]
fn scored_and_fixed_repetitions_and_move_limits_end_as_fairy_stockfish_ends_them() {
    for &(game, fen, moves, expected, expected_reason) in DECIDED {
        let value = show_json(&[game, "--fen", fen, "--play", moves]);
        let (verdict, reason) = result(&value);
        assert_eq!(verdict, expected, "{game} from {fen} after {moves}");
        assert_eq!(reason, expected_reason, "{game} from {fen} after {moves}");
        let earlier: Vec<&str> = moves.split(' ').collect();
        let mut args = vec![game, "--fen", fen];
        let first = earlier[..earlier.len() - 1].join(" ");
        if !first.is_empty() {
            args.extend(["--play", &first]);
        }
        assert_eq!(
            result(&show_json(&args)).0,
            "-",
            "{game} from {fen}: one ply before the end"
        );
    }
}

#[test]
fn a_repetition_by_score_shows_the_scores_that_decided() {
    let value = show_json(&[
        "games/janggi.variant",
        "--play",
        "h1g3 h10g8 g3h1 g8h10 h1g3 h10g8 g3h1 g8h10",
    ]);
    assert_eq!(value["result"]["description"], "black wins by repetition");
    assert_eq!(value["scores"]["white"], 144);
    assert_eq!(value["scores"]["black"], 147);
}

#[test]
fn by_score_and_for_side_are_written_in_the_definition() {
    let janggi = common::stdout(&common::variant(&["dump", "games/janggi.variant"]));
    assert!(janggi.contains("by_score: true"), "{janggi}");
    let minishogi = common::stdout(&common::variant(&["dump", "games/minishogi.variant"]));
    assert!(minishogi.contains("for_side: Some((0))"), "{minishogi}");
}

#[test]
fn a_verdict_for_an_unknown_side_or_by_score_for_a_side_is_refused() {
    let dir = common::temporary_dir("repetition-for-side");
    let source = std::fs::read_to_string("games/minishogi.variant").expect("minishogi");
    for (written, message) in [
        ("repetition 4 loses for black", "unknown side `black`"),
        (
            "repetition 4 by score for sente",
            "`by score` is for no side",
        ),
    ] {
        let changed = source.replace("repetition 4 loses for sente", written);
        assert_ne!(changed, source);
        let path = dir.join("changed.variant");
        std::fs::write(&path, changed).expect("write");
        let output = common::variant(&["check", path.to_str().expect("a path")]);
        assert!(!output.status.success(), "{written}");
        let stderr = common::stderr(&output);
        assert!(stderr.contains(message), "{written}: {stderr}");
    }
}

#[test]
fn perpetual_check_is_written_after_the_repetition_rule() {
    let output = common::variant(&["dump", "games/xiangqi.variant"]);
    let ron = common::stdout(&output);
    assert!(ron.contains("perpetual_check: Some(Loss)"), "{ron}");
}
