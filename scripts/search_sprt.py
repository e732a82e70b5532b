#!/usr/bin/env python3
"""Two builds of `variant uci` against each other at a fixed node budget, with an SPRT.

Why: a change to the search is judged by self-play against the build before it, and on a machine
shared with others wall time is noise; a fixed node budget (`go nodes N`) makes each game the
same however loaded the machine is. `variant match` plays players of one binary only, so this
harness drives two binaries over UCI, refereed by pyffish (Fairy-Stockfish's move generator),
in any game both know (chess, crazyhouse, shogi, xiangqi, atomic, 3check, ...).

Games come in pairs: a seeded random opening of `--random-plies` plies, played once with each
build as the first mover. Pairs are counted in five bins of the pair's total (0, 1/2, 1, 3/2, 2
points for NEW), as fishtest and `variant match --sprt` count them, and the log-likelihood ratio
of "NEW is ELO1 stronger" against "ELO0 stronger" is the normal approximation of the pentanomial
model (fishtest's GSPRT). The match stops when it leaves its bounds or after `--games` games. A
game still going after `--max-plies` plies is a draw. An illegal move by either build stops the
harness with exit code 1. Prints a line per pair and the SPRT line; exits 0.

Usage:
  scripts/search_sprt.py --new PATH --old PATH [--variant chess] [--nodes 10000]
                         [--sprt 0,20] [--games 400] [--random-plies 6] [--seed 1]
                         [--movetime MS] [--new-option NAME=VALUE] [--old-option NAME=VALUE]

`--movetime MS` plays at a fixed time a move (`go movetime MS`) instead of a node budget: for a
change that makes the search faster without changing what it searches (same nodes, same moves),
where a fixed node budget would play the same games twice. Wall time is noise on a loaded
machine: run it with the load stated.

`--new-option`/`--old-option` (repeatable) set a UCI option of one build (`Threads=2`): the same
binary on both sides, with and without an option, is a self-play test of the option.
"""
import argparse
import math
import random
import sys

import pyffish as sf

from uci_referee import Uci, opening, play


def score_of(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def llr(pentanomial, elo0, elo1):
    """The GSPRT log-likelihood ratio of the pair scores (0, 1/4, 1/2, 3/4, 1 per game)."""
    counts = [c + 1e-3 for c in pentanomial]
    n = sum(counts)
    values = [0, 0.25, 0.5, 0.75, 1]
    mean = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / n
    s0, s1 = score_of(elo0), score_of(elo1)
    return (s1 - s0) * (2 * mean - s0 - s1) / (2 * var / n) / n * sum(pentanomial)


def elo_of(pentanomial):
    pairs = sum(pentanomial)
    if pairs == 0:
        return 0.0, 0.0
    points = sum(i * c for i, c in enumerate(pentanomial)) / 4 / pairs
    var = sum(c * (i / 4 - points) ** 2 for i, c in enumerate(pentanomial)) / pairs
    points = min(max(points, 1e-3), 1 - 1e-3)
    elo = -400 * math.log10(1 / points - 1)
    low = min(max(points - 1.96 * math.sqrt(var / pairs), 1e-3), 1 - 1e-3)
    return elo, elo + 400 * math.log10(1 / low - 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--new", required=True)
    parser.add_argument("--old", required=True)
    parser.add_argument("--variant", default="chess")
    parser.add_argument("--nodes", type=int, default=10000)
    parser.add_argument("--sprt", default="0,20")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--random-plies", type=int, default=6)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--movetime", type=int, default=None,
                        help="milliseconds a move instead of --nodes")
    parser.add_argument("--new-option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--old-option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    elo0, elo1 = (float(x) for x in args.sprt.split(",")[:2])
    alpha = beta = 0.05
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    rng = random.Random(args.seed)
    start = sf.start_fen(args.variant)
    new = Uci([args.new, "uci"], "new")
    old = Uci([args.old, "uci"], "old")
    new.set_options(args.new_option)
    old.set_options(args.old_option)
    go = f"movetime {args.movetime}" if args.movetime else f"nodes {args.nodes}"
    pentanomial = [0] * 5
    ratio, verdict = 0.0, "undecided"
    for pair in range(args.games // 2):
        moves = opening(args.variant, start, args.random_plies, rng)
        try:
            a = play(args.variant, start, moves, (new, old), (go, go), args.max_plies)
            b = 1.0 - play(args.variant, start, moves, (old, new), (go, go), args.max_plies)
        except RuntimeError as error:
            raise SystemExit(str(error)) from error
        pentanomial[int(round((a + b) * 2))] += 1
        ratio = llr(pentanomial, elo0, elo1)
        elo, error = elo_of(pentanomial)
        print(f"pair {pair + 1}: {a} {b} {pentanomial} LLR {ratio:.2f} elo {elo:+.0f} +- {error:.0f}",
              flush=True)
        if pair + 1 >= 10 and (ratio >= upper or ratio <= lower):
            verdict = "H1 accepted (elo1)" if ratio >= upper else "H0 accepted (elo0)"
            break
    new.close()
    old.close()
    elo, error = elo_of(pentanomial)
    print(f"{args.variant} {go}: SPRT elo0 {elo0:g}, elo1 {elo1:g}, alpha 0.05, "
          f"beta 0.05: LLR {ratio:.2f} (bounds {lower:.2f}, {upper:.2f}), {sum(pentanomial)} pairs "
          f"{pentanomial}: {verdict}; elo {elo:+.0f} +- {error:.0f}")


if __name__ == "__main__":
    sys.exit(main())
