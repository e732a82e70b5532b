#!/usr/bin/env python3
"""Play `variant uci` against Fairy-Stockfish over UCI, refereed by pyffish.

In every two-sided game that both know (chess from games/, crazyhouse and atomic from
tests/variants/, given to `variant uci` with `--variant-path`), one game with each colour: both
engines are sent the same `position fen START moves ...` and `go`; every move of ours must be
legal by pyffish's rules (Fairy-Stockfish's own move generator), and the game must reach a result
by pyffish's rules (no legal move, an immediate end, or a claimable draw) within the ply limit.
Fairy-Stockfish searches a fixed number of nodes (`--nodes`), we a fixed time (`--movetime`).
Prints one line per game and a summary, exits 0; on the first failure prints it and exits 1.

Usage: scripts/fairy_match.py --binary PATH --fairy PATH [--nodes N] [--movetime MS] [--plies P]
"""
import argparse
import queue
import subprocess
import sys
import threading
import time

import pyffish as sf

GAMES = [
    ("chess", None),
    ("crazyhouse", "games/crazyhouse.variant"),
    ("atomic", "games/atomic.variant"),
]


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
    return None


def play(ours, fairy, variant, ours_white, args):
    start = sf.start_fen(variant)
    moves = []
    while len(moves) < args.plies:
        outcome = result(variant, start, moves)
        if outcome is not None:
            return outcome, len(moves)
        white_to_move = len(moves) % 2 == 0
        if white_to_move == ours_white:
            move = ours.best(start, moves, f"go movetime {args.movetime}")
            legal = sf.legal_moves(variant, start, moves)
            if move not in legal:
                raise Failure(f"{variant}: our move {move} is illegal after {moves} "
                              f"(pyffish: {sorted(legal)})")
        else:
            move = fairy.best(start, moves, f"go nodes {args.nodes}")
        moves.append(move)
    raise Failure(f"{variant}: no result in {args.plies} plies: {' '.join(moves)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--fairy", required=True)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--movetime", type=int, default=100)
    parser.add_argument("--plies", type=int, default=400)
    args = parser.parse_args()
    command = [args.binary, "uci"]
    for _, path in GAMES:
        if path:
            command += ["--variant-path", path]
    lines = []
    ours = Engine("variant", command)
    fairy = Engine("Fairy-Stockfish", [args.fairy])
    try:
        for variant, _ in GAMES:
            ours.start(variant)
            fairy.start(variant)
            for ours_white in (True, False):
                outcome, plies = play(ours, fairy, variant, ours_white, args)
                colour = "white" if ours_white else "black"
                line = f"{variant}: variant as {colour}, {outcome} in {plies} plies"
                print(line)
                lines.append(line)
    except Failure as e:
        print(f"FAILED: {e}")
        return 1
    finally:
        ours.quit()
        fairy.quit()
    print(f"{len(lines)} games against Fairy-Stockfish (nodes {args.nodes}) reached a result, "
          f"every move of ours legal by pyffish {'.'.join(map(str, sf.version()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
