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
"""
import argparse
import math
import random
import subprocess
import sys

import pyffish as sf


class Engine:
    """A UCI engine driven line by line."""

    def __init__(self, name, path, variant):
        self.name = name
        self.process = subprocess.Popen([path, "uci"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix):
        for line in self.process.stdout:
            if line.startswith(prefix):
                return line.strip()
        raise SystemExit(f"{self.name} ended before `{prefix}`")

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.until("readyok")

    def best(self, start, moves, nodes):
        self.send(f"position fen {start}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go nodes {nodes}")
        return self.until("bestmove").split()[1]

    def quit(self):
        self.send("quit")
        self.process.wait(timeout=10)


def over(variant, start, moves):
    """The result for the side to move (1, 0.5, 0) if the game is over, else None."""
    legal = sf.legal_moves(variant, start, moves)
    if not legal:
        value = sf.game_result(variant, start, moves)
    else:
        ended, value = sf.is_immediate_game_end(variant, start, moves)
        if not ended:
            ended, value = sf.is_optional_game_end(variant, start, moves)
            if not ended:
                return None
    return 1.0 if value > 0 else 0.0 if value < 0 else 0.5


def play(variant, start, opening, first, second, nodes, max_plies):
    """One game from `opening`, `first` moving first: `first`'s score."""
    moves = list(opening)
    engines = [first, second]
    for engine in engines:
        engine.new_game()
    while len(moves) < max_plies:
        result = over(variant, start, moves)
        if result is not None:
            mover = len(moves) % 2
            return result if mover == 0 else 1.0 - result
        engine = engines[len(moves) % 2]
        mv = engine.best(start, moves, nodes)
        if mv not in sf.legal_moves(variant, start, moves):
            raise SystemExit(f"{engine.name} played illegal {mv} after {' '.join(moves)}")
        moves.append(mv)
    return 0.5


def opening(variant, start, plies, rng):
    """A random opening of `plies` plies that does not end the game."""
    while True:
        moves = []
        for _ in range(plies):
            legal = sf.legal_moves(variant, start, moves)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        if len(moves) == plies and over(variant, start, moves) is None:
            return moves


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
    args = parser.parse_args()
    elo0, elo1 = (float(x) for x in args.sprt.split(",")[:2])
    alpha = beta = 0.05
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    rng = random.Random(args.seed)
    start = sf.start_fen(args.variant)
    new = Engine("new", args.new, args.variant)
    old = Engine("old", args.old, args.variant)
    pentanomial = [0] * 5
    ratio, verdict = 0.0, "undecided"
    for pair in range(args.games // 2):
        moves = opening(args.variant, start, args.random_plies, rng)
        a = play(args.variant, start, moves, new, old, args.nodes, args.max_plies)
        b = 1.0 - play(args.variant, start, moves, old, new, args.nodes, args.max_plies)
        pentanomial[int(round((a + b) * 2))] += 1
        ratio = llr(pentanomial, elo0, elo1)
        elo, error = elo_of(pentanomial)
        print(f"pair {pair + 1}: {a} {b} {pentanomial} LLR {ratio:.2f} elo {elo:+.0f} +- {error:.0f}",
              flush=True)
        if pair + 1 >= 10 and (ratio >= upper or ratio <= lower):
            verdict = "H1 accepted (elo1)" if ratio >= upper else "H0 accepted (elo0)"
            break
    new.quit()
    old.quit()
    elo, error = elo_of(pentanomial)
    print(f"{args.variant} nodes {args.nodes}: SPRT elo0 {elo0:g}, elo1 {elo1:g}, alpha 0.05, "
          f"beta 0.05: LLR {ratio:.2f} (bounds {lower:.2f}, {upper:.2f}), {sum(pentanomial)} pairs "
          f"{pentanomial}: {verdict}; elo {elo:+.0f} +- {error:.0f}")


if __name__ == "__main__":
    sys.exit(main())
