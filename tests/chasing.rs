//! Perpetual chasing (`repetition 3 draws, perpetual check loses, perpetual chase loses`,
//! issue 27) in xiangqi, through the real binary, against Fairy-Stockfish's AXF chasing rule.
//!
//! Each expectation is pyffish 0.0.90's `is_optional_game_end` after the moves (the first ply at
//! which it says the game may end), as the result for the side to move, printed by
//! `python3 scripts/chase_oracle.py SEED CASES` (seeded random games, then a cycle of four moves
//! repeated to the third occurrence, moves that attack a piece tried first). A `loss` or `win`
//! is a perpetual chase or a perpetual check; a `draw` a repetition where no side chased one
//! piece with every move (protected pieces, mutual attacks, both sides or neither chasing). Our
//! game ends at that ply with the same result, and not one ply earlier.

mod common;

use common::{show_json, verdict_and_reason as result};

/// (FEN, moves, pyffish's result for the side to move after them).
const CASES: &[(&str, &str, &str)] = &[
    (
        "4kab1C/9/3a4n/2p3p2/2b6/P8/2P1P1P1P/9/9/2B1K1B2 b - - 2 15",
        "i8g9 i10h10 g9i8 h10i10 i8g9 i10h10 g9i8 h10i10",
        "loss",
    ),
    (
        "2bak4/9/5R2b/6c2/9/2B1p1P1P/2P6/1c7/9/1NBAKA1N1 w - - 0 21",
        "f8e8 e10f10 e8f8 f10e10 f8e8 e10f10 e8f8 f10e10",
        "loss",
    ),
    (
        "3a2bn1/4k3r/4b4/p1p5p/9/9/P1P2cP1P/R1N6/5K3/2BA2B2 w - - 2 17",
        "c3e2 f4e4 e2c3 e4f4 c3e2 f4e4 e2c3 e4f4",
        "loss",
    ),
    (
        "1R7/9/3k5/7C1/9/9/p8/3AB3N/9/4KAB2 w - - 1 25",
        "b10a10 a4b4 a10b10 b4a4 b10a10 a4b4 a10b10 b4a4",
        "loss",
    ),
    (
        "5R3/3k5/R8/4p1p2/2p3b2/9/4P4/4B4/9/1NBAKA3 w - - 1 21",
        "a8a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9",
        "loss",
    ),
    (
        "2bk2b2/8r/9/2pc5/9/2P1N4/p8/4B4/4A4/1NBAK4 b - - 0 30",
        "d7e7 e5c6 e7d7 c6e5 d7e7 e5c6 e7d7 c6e5",
        "win",
    ),
    (
        "2bk2b2/8r/9/2pc5/9/2P1N4/p8/4B4/4A4/1NBAK4 b - - 0 30",
        "d7e7 e5g6 e7d7 g6e5 d7e7 e5g6 e7d7 g6e5",
        "win",
    ),
    (
        "4c4/4k4/9/5R3/6b2/3p4P/2P6/4B4/4K4/1N3A1N1 b - - 2 26",
        "e10f10 f7g7 f10e10 g7f7 e10f10 f7g7 f10e10 g7f7",
        "draw",
    ),
    (
        "4c4/4k4/9/5R3/6b2/3p4P/2P6/4B4/4K4/1N3A1N1 b - - 2 26",
        "e10f10 h1i3 f10e10 i3h1 e10f10 h1i3 f10e10 i3h1",
        "draw",
    ),
    (
        "4c4/4k4/9/5R3/6b2/3p4P/2P6/4B4/4K4/1N3A1N1 b - - 2 26",
        "e10f10 f7f6 f10e10 f6f7 e10f10 f7f6 f10e10 f6f7",
        "draw",
    ),
    (
        "4c4/4k4/9/5R3/6b2/3p4P/2P6/4B4/4K4/1N3A1N1 b - - 2 26",
        "e9d9 e2d2 d9e9 d2e2 e9d9 e2d2 d9e9 d2e2",
        "draw",
    ),
    (
        "4c4/4k4/9/5R3/6b2/3p4P/2P6/4B4/4K4/1N3A1N1 b - - 2 26",
        "d5c5 f7h7 c5d5 h7f7 d5c5 f7h7 c5d5 h7f7",
        "draw",
    ),
];

#[test]
fn xiangqi_repetitions_with_and_without_chasing_end_as_fairy_stockfish_ends_them() {
    let mut chases = 0;
    for &(fen, moves, expected) in CASES {
        let value = show_json(&["games/xiangqi.variant", "--fen", fen, "--play", moves]);
        let (verdict, reason) = result(&value);
        assert_eq!(verdict, expected, "from {fen} after {moves} ({reason})");
        if expected == "draw" {
            assert_eq!(reason, "repetition", "from {fen} after {moves}");
        } else {
            assert!(
                reason == "perpetual-chase" || reason == "perpetual-check",
                "from {fen} after {moves}: {reason}"
            );
        }
        chases += usize::from(reason == "perpetual-chase");
        assert_going_one_ply_before(fen, moves);
    }
    assert!(chases >= 4, "the cases hold perpetual chases: {chases}");
}

/// The cycles of `tests/data/xiangqi-chase.txt` (`python3 scripts/chase_oracle.py --data SEED
/// GAMES`, seeds 101 and 102: longer games with more captures, so thinner boards; then `python3
/// scripts/chase_oracle.py --constructed`: cycles built around one refinement of
/// Fairy-Stockfish's judgement each, where it decides the verdict, and a control for each that
/// pyffish judges the other way: a piece protected by its general alone, whose recapture the
/// flying general forbids; fake roots; captures a discovered check makes possible; a pinned
/// horse attacked by an impaired horse), each ending at the ply and with the verdict pyffish
/// gives, and not one ply earlier.
#[test]
fn xiangqi_cycles_from_thinned_boards_end_as_fairy_stockfish_ends_them() {
    let data = std::fs::read_to_string("tests/data/xiangqi-chase.txt").expect("the chase data");
    let cases: Vec<(&str, &str, &str)> = data
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let mut fields = line.split('\t');
            let mut next = || fields.next().expect("FEN, moves and verdict");
            (next(), next(), next())
        })
        .collect();
    assert!(cases.len() >= 40, "{} cases", cases.len());
    let mut chases = 0;
    for (fen, moves, expected) in cases {
        let (verdict, reason) = result(&show_json(&[
            "games/xiangqi.variant",
            "--fen",
            fen,
            "--play",
            moves,
        ]));
        assert_eq!(verdict, expected, "from {fen} after {moves} ({reason})");
        chases += usize::from(reason == "perpetual-chase");
        assert_going_one_ply_before(fen, moves);
    }
    assert!(chases >= 4, "the data holds perpetual chases: {chases}");
}

#[test]
fn a_perpetual_chase_is_described_and_written_in_the_definition() {
    let (fen, moves, _) = CASES[0];
    let value = show_json(&["games/xiangqi.variant", "--fen", fen, "--play", moves]);
    assert_eq!(
        value["result"]["description"],
        "white wins by perpetual chase"
    );
    let ron = common::stdout(&common::variant(&["dump", "games/xiangqi.variant"]));
    assert!(ron.contains("perpetual_chase: Some(Loss)"), "{ron}");
    assert!(ron.contains("never_chases: true"), "{ron}");
}

#[test]
fn a_chase_strength_that_is_not_a_number_is_refused() {
    let dir = common::temporary_dir("chase-strength");
    let source = std::fs::read_to_string("games/xiangqi.variant").expect("xiangqi");
    let changed = source.replacen("chase strength 4", "chase strength many", 1);
    assert_ne!(changed, source);
    let path = dir.join("changed.variant");
    std::fs::write(&path, changed).expect("write");
    let output = common::variant(&["check", path.to_str().expect("a path")]);
    assert!(!output.status.success());
    assert!(
        common::stderr(&output).contains("chase strength"),
        "{}",
        common::stderr(&output)
    );
}

/// The game from `fen` after all of `moves` but the last has not ended.
fn assert_going_one_ply_before(fen: &str, moves: &str) {
    let first = moves.rsplit_once(' ').expect("several moves").0;
    let (earlier, _) = result(&show_json(&[
        "games/xiangqi.variant",
        "--fen",
        fen,
        "--play",
        first,
    ]));
    assert_eq!(earlier, "-", "from {fen}: one ply before the end");
}
