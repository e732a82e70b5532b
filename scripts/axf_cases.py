#!/usr/bin/env python3
"""Prints Fairy-Stockfish's answers for tests/xiangqi_move_limit.rs: xiangqi games in which one
side checks again and again without a capture, and the ply at which pyffish's
`is_optional_game_end` first ends the game (its 50-move rule, postponed by two plies for every
check beyond ten that one side gave in the plies counted: `chasingRule = axf`).

The moves are chosen greedily and deterministically, never a capture nor a move to a position
seen twice already: White checks whenever it can (leaving Black a quiet reply), else makes the
first such move; Black makes the first such move. Run: python3 scripts/axf_cases.py (needs pyffish)."""

import pyffish as sf

START = [
    "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 74 1",
    "5k3/9/9/9/9/9/9/9/9/R2K5 w - - 76 1",
    "5k3/9/9/9/9/9/9/9/9/R2K5 w - - 84 1",
]


def game(fen):
    def key(played):
        return " ".join(sf.get_fen("xiangqi", fen, played).split()[:2])

    moves, seen = [], {key([]): 1}
    for _ in range(120):
        ends, _value = sf.is_optional_game_end("xiangqi", fen, moves)
        if ends:
            return moves, True
        legal = sorted(sf.legal_moves("xiangqi", fen, moves))
        if not legal:
            return moves, False
        white = len(moves) % 2 == 0 if " w " in fen else len(moves) % 2 == 1

        def fresh(m):
            # at most a second occurrence: a third would end the game by repetition
            return seen.get(key(moves + [m]), 0) < 2

        def quiet(m):
            return not sf.is_capture("xiangqi", fen, moves, m)

        candidates = [m for m in legal if fresh(m) and quiet(m)]
        if white:
            checks = [
                m
                for m in candidates
                if sf.gives_check("xiangqi", fen, moves + [m])
                and any(
                    not sf.is_capture("xiangqi", fen, moves + [m], r)
                    for r in sf.legal_moves("xiangqi", fen, moves + [m])
                )
            ]
            candidates = checks or candidates
        if not candidates:
            return moves, False
        moves.append(candidates[0])
        seen[key(moves)] = seen.get(key(moves), 0) + 1
    return moves, False


for fen in START:
    moves, ends = game(fen)
    checks = sum(sf.gives_check("xiangqi", fen, moves[: i + 1]) for i in range(len(moves)))
    print(f'    // {checks} checks in {len(moves)} plies; pyffish ends the game: {ends}')
    print(f'    ("{fen}", "{" ".join(moves)}"),')
