#!/usr/bin/env python3
"""Prints Fairy-Stockfish's answers for tests/library.rs's sittuyin draw of a side whose only
moves are promotions, as `position` records of scripts/fsf_oracle_data.py's format.

Fairy-Stockfish (pyffish 0.0.90, position.cpp `is_optional_game_end`, "sittuyin stalemate due
to optional promotion (3.9 c.7)") draws a position where the side to move has its king and one
pawn on the board, is not in check, and every legal move is a promotion. It is an optional end
there: `legal_moves` still lists the promotions, and `is_optional_game_end` says (True, 0). Our
sittuyin ends the game at once, as it does every optional end of Fairy-Stockfish's it has, so
such a position is written here as the data files write an ended one: no moves, result `draw`.
Elsewhere the record is pyffish's legal moves and `-` (every case here has moves).

Run: python3 scripts/sittuyin_promotion_draw_cases.py (needs pyffish). Deterministic."""

import pyffish as sf

CASES = [
    # the pawn blocked by the knight, the king's squares the rook's: promotions only, a draw
    "4k1r1/8/8/8/8/7n/7P/7K[] w - - 0 1",
    # the same for Black
    "7k/7p/7N/8/8/8/8/4K1R1[] b - - 0 1",
    # without the knight the pawn may step: the game goes on
    "4k1r1/8/8/8/8/8/7P/7K[] w - - 0 1",
    # a knight besides: the game goes on
    "4k1r1/8/8/8/8/7n/7P/6NK[] w - - 0 1",
    # in check, the only move a promotion that blocks it: the game goes on
    "4k1r1/8/8/8/8/7n/7P/r6K[] w - - 0 1",
    # two pawns, only the one on d5 may promote, and nothing else moves: the game goes on
    "4k1r1/8/3s4/3P4/8/7n/7P/7K[] w - - 0 1",
]

for fen in CASES:
    moves = sorted(sf.legal_moves("sittuyin", fen, []))
    ends, value = sf.is_optional_game_end("sittuyin", fen, [])
    assert moves and not sf.is_immediate_game_end("sittuyin", fen, [])[0]
    if ends:
        assert value == 0, "the optional end is a draw"
        print(f"# pyffish lists {' '.join(moves)}, and ends the game there: a draw")
        print(f"position\t{fen}\t\tdraw\t-")
    else:
        print(f"position\t{fen}\t{' '.join(moves)}\t-\t-")
