#!/usr/bin/env python3
"""Cross-check a game file against Fairy-Stockfish (pyffish), an independent engine.

Plays seeded random games with Fairy-Stockfish's own move generator for one of its built-in
variants and, at every position, compares its legal moves with ours (`variant moves GAME --play
...`, the whole game replayed each time), then the end of the game: where Fairy-Stockfish has no
legal move, or a king has exploded, we must have a result.

Usage: scripts/crosscheck_fairy.py --variant atomic --game tests/variants/atomic.variant
       [--games N] [--seed S] [--plies P] [--binary PATH]
Prints one summary line, `N positions in G random games agree with Fairy-Stockfish (...)`, and
exits 0; on the first disagreement it prints the position and both move lists and exits 1.
"""

import argparse
import json
import random
import subprocess
import sys

import pyffish as sf


def ours(binary, game, moves):
    """Our legal moves and result after `moves` from the start."""
    result = subprocess.run(
        [binary, "show", game, "--json", "--play", " ".join(moves)],
        capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"our engine refused {moves}: {result.stderr}")
    shown = json.loads(result.stdout)
    return sorted(shown["legal_moves"]), shown["result"], shown["fen"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", required=True, help="Fairy-Stockfish's variant name")
    parser.add_argument("--game", required=True, help="our game file")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--binary", default="target/release/variant")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = sf.start_fen(args.variant)
    positions = 0
    ends = {}
    for game in range(args.games):
        moves = []
        while True:
            theirs = sorted(sf.legal_moves(args.variant, start, moves))
            mine, result, fen = ours(args.binary, args.game, moves)
            # Our automatic draws (repetition, the move limit, dead material) end the game where
            # pyffish's move list goes on: stop there.
            if result is not None and result["draw"] and theirs and not mine:
                ends[result["reason"]] = ends.get(result["reason"], 0) + 1
                positions += 1
                break
            # Fairy-Stockfish lists no move once a king has exploded; we end the game then.
            if theirs != mine:
                print(f"game {game}: moves differ after {' '.join(moves)}\n at {fen}\n"
                      f" ours:   {mine}\n theirs: {theirs}")
                return 1
            positions += 1
            if not theirs:
                if result is None:
                    print(f"game {game}: Fairy-Stockfish has no move but we have no result at {fen}")
                    return 1
                ends[result["reason"]] = ends.get(result["reason"], 0) + 1
                break
            if result is not None:
                # A draw rule of ours (repetition, 50 moves, dead position) that pyffish's move
                # list does not apply: the game ends here for us.
                ends[result["reason"]] = ends.get(result["reason"], 0) + 1
                break
            if len(moves) >= args.plies:
                ends["ply limit"] = ends.get("ply limit", 0) + 1
                break
            moves.append(rng.choice(theirs))
    summary = ", ".join(f"{reason} {count}" for reason, count in sorted(ends.items()))
    print(f"{positions} positions in {args.games} random games agree with Fairy-Stockfish "
          f"{args.variant} (games ended by: {summary})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
