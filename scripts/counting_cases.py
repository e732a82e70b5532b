#!/usr/bin/env python3
"""Prints Fairy-Stockfish's answers for tests/counting.rs: for each (FEN, moves) of sittuyin's
ASEAN counting cases, the FEN pyffish writes after the moves (`get_fen`) and whether the
counting ends the game there (`is_optional_game_end`, with no legal-move end before it).

Run: python3 scripts/counting_cases.py (needs pyffish)."""

import pyffish as sf

CASES = [
    # a count starts when the side to move has its king alone: the rook's limit, 16 moves
    ("8/8/8/8/8/4k3/8/R3K3[] w - - 0 1", ["a1a2"]),
    # a silver's, 44 moves; a knight's, 64; a ferz gives no count
    ("8/8/8/8/8/4k3/8/S3K3[] w - - 0 1", ["a1a2"]),
    ("8/8/8/8/8/4k3/8/N3K3[] w - - 0 1", ["a1b3"]),
    ("8/8/8/8/8/4k3/8/F3K3[] w - - 0 1", ["a1b2"]),
    # the strongest piece decides
    ("8/8/8/8/8/4k3/8/FR2K3[] w - - 0 1", ["a1b2"]),
    # no count while a pawn is on the board
    ("8/8/8/8/8/4k3/P7/R3K3[] w - - 0 1", ["a1b1"]),
    # a capture that leaves the king alone starts the count again, with the new limit
    ("8/8/8/8/8/4k3/7s/RS2K2R[] w - 88 10 1", ["h1h2"]),
    # a quiet move counts on
    ("8/8/8/8/8/4k3/7s/RS2K2R[] w - 88 10 1", ["e1d1"]),
    # the lone king takes the rook: the count runs on
    ("8/8/8/8/8/4k3/4R3/6K1[] b - 32 3 1", ["e3e2"]),
    # the 32nd ply is within the limit, the 33rd passes it: a draw
    ("8/8/8/8/8/4k3/8/R3K3[] b - 32 31 1", ["e3d3"]),
    ("8/8/8/8/8/4k3/8/R3K3[] b - 32 31 1", ["e3d3", "a1a2"]),
]

for fen, moves in CASES:
    after = sf.get_fen("sittuyin", fen, moves)
    ends, _ = sf.is_optional_game_end("sittuyin", fen, moves)
    mate = not sf.legal_moves("sittuyin", fen, moves)
    print(f'    ("{fen}", "{" ".join(moves)}", "{after}", {str(ends and not mate).lower()}),')
