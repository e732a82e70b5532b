#!/usr/bin/env python3
"""Expectations of tests/repetition.rs for the games whose repetition or move limit is not a
plain verdict for the side that repeated: janggi (the material count decides, perpetual check
loses) and minishogi (the fourth occurrence loses for sente, perpetual check loses), from
pyffish (Fairy-Stockfish 0.0.90).

For each case it prints the first ply at which pyffish's `is_optional_game_end` (or
`is_immediate_game_end`) says the game may end, and the result then for the side to move
(`win`, `loss`, `draw`). Run: python3 scripts/repetition_oracle.py
"""

import pyffish as sf

CASES = [
    # janggi: knights out and back, equal material: Han (Black) wins by its 1.5
    ("janggi", None, "h1g3 h10g8 g3h1 g8h10 h1g3 h10g8 g3h1 g8h10"),
    # janggi: the same with White a chariot up: White wins the repetition
    ("janggi", "3k5/9/9/9/9/9/9/9/R3K4/9 w - - 0 1", "e2e3 d10d9 e3e2 d9d10 e2e3 d10d9 e3e2 d9d10"),
    # janggi: White's chariot checks with every move: White loses, a chariot up or not
    ("janggi", "3k5/8R/9/9/9/9/9/9/4K4/9 w - - 0 1", "i9i10 d10d9 i10i9 d9d10 i9i10 d10d9 i10i9 d9d10"),
    # janggi: passes in the cycle (never two in a row); equal material
    ("janggi", None, "e2e2 h10g8 e2e2 g8h10 e2e2 h10g8 e2e2 g8h10"),
    # janggi: the 50-move rule, decided by the material count (White a chariot up)
    ("janggi", "3k5/9/9/9/9/9/9/9/R3K4/9 w - - 99 60", "a2a3"),
    # janggi: the 50-move rule with equal material: Han wins
    ("janggi", "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 98 60", "h1g3 h10g8"),
    # minishogi: the fourth occurrence with sente to move: sente loses
    ("minishogi", None, "e1e2 a5a4 e2e1 a4a5 e1e2 a5a4 e2e1 a4a5 e1e2 a5a4 e2e1 a4a5"),
    # minishogi: the fourth occurrence with gote to move: sente loses all the same
    ("minishogi", "rbsgk/4p/5/P4/KGSBR[-] b 0 1", "a5a4 e1e2 a4a5 e2e1 a5a4 e1e2 a4a5 e2e1 a5a4 e1e2 a4a5 e2e1"),
    # minishogi: gote checks with every move: gote loses
    ("minishogi", "K4/4r/5/5/4k[-] b - - 0 1", "e4e5 a5a4 e5e4 a4a5 e4e5 a5a4 e5e4 a4a5 e4e5 a5a4 e5e4 a4a5"),
    # minishogi: sente checks with every move: sente loses
    ("minishogi", "k4/4R/5/5/4K[-] w - - 0 1", "e4e5 a5a4 e5e4 a4a5 e4e5 a5a4 e5e4 a4a5 e4e5 a5a4 e5e4 a4a5"),
]


def verdict(value):
    return "draw" if value == 0 else "win" if value > 0 else "loss"


def main():
    for variant, fen, moves in CASES:
        fen = fen or sf.start_fen(variant)
        moves = moves.split()
        for ply in range(len(moves) + 1):
            played = moves[:ply]
            optional, value = sf.is_optional_game_end(variant, fen, played)
            immediate, value2 = sf.is_immediate_game_end(variant, fen, played)
            if optional or immediate:
                print(variant, fen, " ".join(played), verdict(value if optional else value2),
                      "(all moves)" if ply == len(moves) else f"(after {ply} of {len(moves)})", sep=" | ")
                break
        else:
            print(variant, fen, " ".join(moves), "-", sep=" | ")


if __name__ == "__main__":
    main()
