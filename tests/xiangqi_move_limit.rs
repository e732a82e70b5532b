//! Xiangqi's 50-move rule grows with checks (`move-limit 50 draws, plus 1 per check beyond 10`,
//! docs/language.md §2.14), through the real binary, against Fairy-Stockfish: its
//! `chasingRule = axf` postpones the 50-move draw by two plies for every check beyond ten that
//! one side gave in the plies counted.
//!
//! The games are pyffish 0.0.90's, printed by `scripts/axf_cases.py`: each plays no capture, and
//! `is_optional_game_end` ends it after its last move where the comment says so, and at no
//! earlier ply.

mod common;

use common::show_json;

const XIANGQI: &str = "games/xiangqi.variant";

/// (FEN, moves): pyffish's games.
const GAMES: &[(&str, &str)] = &[
    // 6 checks in 26 plies; pyffish ends the game: True
    ("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 74 1", "a1a10 d10d9 a10a9 d9d10 a9a10 d10d9 a10a9 d9d10 a9a1 d10d9 a1a10 d9d8 a10a8 d8d9 a8a1 d9d10 a1a2 d10d9 a2a1 d9d8 a1a8 d8d9 a8a10 d9d8 a10a1 d8d9"),
    // 15 checks in 29 plies; pyffish ends the game: False
    ("5k3/9/9/9/9/9/9/9/9/R2K5 w - - 76 1", "a1a10 f10f9 a10a9 f9f10 a9a10 f10f9 a10a9 f9f10 a9f9 f10e10 f9e9 e10f10 e9e10 f10f9 e10e9 f9f10 e9e10 f10f9 e10e9 f9f8 e9e8 f8f9 e8f8 f9e9 f8e8 e9f9 e8f8 f9e9 f8e8"),
    // 8 checks in 16 plies; pyffish ends the game: True
    ("5k3/9/9/9/9/9/9/9/9/R2K5 w - - 84 1", "a1a10 f10f9 a10a9 f9f10 a9a10 f10f9 a10a9 f9f10 a9f9 f10e10 f9e9 e10f10 e9e10 f10f9 e10e9 f9f10"),
];

/// Whether pyffish ended each game after its last move (as the comments above say).
const ENDS: &[bool] = &[true, false, true];

#[test]
fn the_fifty_moves_grow_with_checks_beyond_ten_as_in_fairy_stockfish() {
    for (&(fen, moves), &ends) in GAMES.iter().zip(ENDS) {
        let all: Vec<&str> = moves.split(' ').collect();
        // Before the last move the game goes on: in the second game, 105 plies without a
        // capture (76 + 29) with 15 checks by White, past the plain 50 moves.
        let before = show_json(&[
            XIANGQI,
            "--fen",
            fen,
            "--play",
            &all[..all.len() - 1].join(" "),
        ]);
        assert!(
            before["result"].is_null(),
            "{fen} {moves}: {}",
            before["result"]
        );
        let after = show_json(&[XIANGQI, "--fen", fen, "--play", moves]);
        if ends {
            assert_eq!(after["result"]["reason"], "move-limit", "{fen} {moves}");
            assert_eq!(after["result"]["winners"], serde_json::json!([]));
        } else {
            assert!(
                after["result"].is_null(),
                "{fen} {moves}: {}",
                after["result"]
            );
        }
    }
}
