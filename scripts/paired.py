#!/usr/bin/env python3
"""Two builds' games against the same opponent on the same openings, compared game by game.

`scripts/strength.py stockfish ... --seed S --pgn A.pgn` run once with each build (the same
seed, rungs and game count) plays the same openings with the same colours, so the i-th games of
the two files differ only by the build. The difference of the two scores, game by game, has a
much smaller error than either score: this prints both scores, their difference and its
standard error (paired), which is how a change is judged against Stockfish (issue 29).

Usage: scripts/paired.py NEW.pgn OLD.pgn [--name variant]
  `--name`: the White/Black name of our engine in the PGN headers (default `variant`).
Exits 2 when a file has no scored game of ours.
"""
import argparse
import math
import sys

import chess.pgn

SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def scores(path, name):
    """Our score in each finished game of `path`, in file order."""
    out = []
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            white = game.headers.get("White", "")
            black = game.headers.get("Black", "")
            result = SCORES.get(game.headers.get("Result", "*"))
            if result is None or name not in (white, black):
                continue
            out.append(result if white == name else 1.0 - result)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new")
    parser.add_argument("old")
    parser.add_argument("--name", default="variant")
    args = parser.parse_args()
    new, old = scores(args.new, args.name), scores(args.old, args.name)
    n = min(len(new), len(old))
    if n == 0:
        print("no scored game of ours in both files", file=sys.stderr)
        return 2
    diffs = [a - b for a, b in zip(new[:n], old[:n])]
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1))
    print(f"{n} games: new {sum(new[:n]):g}, old {sum(old[:n]):g}, "
          f"difference {sum(diffs):+g} (standard error {spread * math.sqrt(n):.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
