#!/usr/bin/env python3
"""Play `variant uci` against Fairy-Stockfish over UCI, refereed by pyffish.

In every two-sided game that both know (every games/NAME.variant whose NAME is a variant of
pyffish and which `variant uci` offers in its `UCI_Variant` combo), one game with each colour
(`--one-colour`: one game per variant, the colours alternating from game to game): both
engines are sent the same `position fen START moves ...` and `go`; every move of ours must be
legal by pyffish's rules (Fairy-Stockfish's own move generator), and the game must reach a result
by pyffish's rules (no legal move, an immediate end, a claimable draw, or insufficient material
for both sides) within the ply limit.
Fairy-Stockfish searches a fixed number of nodes (`--nodes`), we a fixed time (`--movetime`).
Prints one line per game and a summary, exits 0; on the first failure prints it and exits 1.

A game still going after `--plies` plies fails the run, unless `--adjudicate` is given: then it
counts as unfinished and is reported, every move of ours having been checked legal all the same.

Usage: scripts/fairy_match.py --binary PATH --fairy PATH [--nodes N] [--movetime MS] [--plies P]
                              [--variants a,b,...] [--one-colour] [--adjudicate]
"""
import argparse
import os
import queue
import subprocess
import sys
import threading
import time

import pyffish as sf



def offered(binary):
    """The names in `variant uci`'s `UCI_Variant` combo."""
    output = subprocess.run([binary, "uci"], input="uci\nquit\n", capture_output=True,
                            text=True, timeout=60).stdout
    for line in output.splitlines():
        if line.startswith("option name UCI_Variant "):
            return set(line.split(" var ")[1:])
    raise Failure("`variant uci` offers no UCI_Variant option")


def both_know(binary):
    """Every library game that pyffish and `variant uci` both know, sorted."""
    library = {name[:-len(".variant")] for name in os.listdir("games") if name.endswith(".variant")}
    return sorted(library & set(sf.variants()) & offered(binary))


class Failure(Exception):
    pass


class Engine:
    """A UCI engine, line by line, with timeouts."""

    def __init__(self, name, command):
        self.name = name
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        # A reader thread, so that waiting for a line can time out.
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix, timeout=60):
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise Failure(f"{self.name}: no `{prefix}` within {timeout}s after {seen[-5:]}")
            if line is None:
                raise Failure(f"{self.name} ended; it printed {seen[-5:]}")
            seen.append(line)
            if line.startswith(prefix):
                return line, seen

    def start(self, variant):
        self.send("uci")
        self.until("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("ucinewgame")
        self.send("isready")
        self.until("readyok")

    def best(self, start, moves, go):
        position = f"position fen {start}" + (" moves " + " ".join(moves) if moves else "")
        self.send(position)
        self.send(go)
        line, _ = self.until("bestmove")
        return line.split()[1]

    def quit(self):
        try:
            self.send("quit")
            self.process.wait(timeout=10)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.process.kill()


def result(variant, start, moves):
    """The result by pyffish's rules (from white's side: 1-0, 0-1, 1/2-1/2), or None."""
    legal = sf.legal_moves(variant, start, moves)
    to_move_is_white = (len(moves) % 2 == 0) == (start.split()[1] == "w")

    def score(value):
        if value == 0:
            return "1/2-1/2"
        return "1-0" if (value > 0) == to_move_is_white else "0-1"

    over, value = sf.is_immediate_game_end(variant, start, moves)
    if over:
        return score(value)
    if not legal:
        return score(sf.game_result(variant, start, moves))
    over, value = sf.is_optional_game_end(variant, start, moves)
    if over:
        return score(value)
    # Neither side can mate (a dead position, K+N against K): a draw, as the library's
    # `material` rules end it at once and Fairy-Stockfish's GUIs adjudicate it.
    if all(sf.has_insufficient_material(variant, start, moves)):
        return "1/2-1/2"
    return None


def move_limit_reached(variant, start, moves):
    """Whether the half-move clock of the position has reached 100 plies."""
    return int(sf.get_fen(variant, start, moves).split()[-2]) >= 100


def play(ours, fairy, variant, ours_white, args):
    """One game: its result and length, or (None, plies) when it is unfinished at the limit and
    `--adjudicate` is given."""
    start = sf.start_fen(variant)
    moves = []
    while len(moves) < args.plies:
        outcome = result(variant, start, moves)
        if outcome is not None:
            return outcome, len(moves)
        white_to_move = len(moves) % 2 == 0
        if white_to_move == ours_white:
            move = ours.best(start, moves, f"go movetime {args.movetime}")
            if move == "(none)" and move_limit_reached(variant, start, moves):
                # Our 50-move limit ended the game; Fairy-Stockfish's xiangqi postpones it by
                # the checks beyond ten in the last plies (its `chasingRule = axf` offset), which
                # the language does not say. A known difference (games/xiangqi.variant).
                return "1/2-1/2 (our move limit)", len(moves)
            legal = sf.legal_moves(variant, start, moves)
            if move not in legal:
                raise Failure(f"{variant}: our move {move} is illegal after {moves} "
                              f"(pyffish: {sorted(legal)})")
        else:
            move = fairy.best(start, moves, f"go nodes {args.nodes}")
        moves.append(move)
    if args.adjudicate:
        return None, len(moves)
    raise Failure(f"{variant}: no result in {args.plies} plies: {' '.join(moves)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fairy", required=True)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--movetime", type=int, default=100)
    parser.add_argument("--plies", type=int, default=400)
    parser.add_argument("--variants", help="comma-separated; default: every game both know")
    parser.add_argument("--one-colour", action="store_true")
    parser.add_argument("--adjudicate", action="store_true")
    args = parser.parse_args()
    lines = []
    unfinished = 0
    ours = Engine("variant", [args.binary, "uci"])
    fairy = Engine("Fairy-Stockfish", [args.fairy])
    try:
        variants = args.variants.split(",") if args.variants else both_know(args.binary)
        print(f"variants: {' '.join(variants)}", flush=True)
        for index, variant in enumerate(variants):
            ours.start(variant)
            fairy.start(variant)
            colours = [index % 2 == 0] if args.one_colour else [True, False]
            for ours_white in colours:
                outcome, plies = play(ours, fairy, variant, ours_white, args)
                colour = "white" if ours_white else "black"
                if outcome is None:
                    unfinished += 1
                    outcome = "unfinished"
                line = f"{variant}: variant as {colour}, {outcome} in {plies} plies"
                print(line, flush=True)
                lines.append(line)
    except Failure as e:
        print(f"FAILED: {e}")
        return 1
    finally:
        ours.quit()
        fairy.quit()
    finished = len(lines) - unfinished
    print(f"{finished} games against Fairy-Stockfish (nodes {args.nodes}) reached a result, "
          f"{unfinished} unfinished after {args.plies} plies, "
          f"every move of ours legal by pyffish {'.'.join(map(str, sf.version()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
