"""UCI engines playing a game that pyffish referees: shared by scripts/strength.py (against
Fairy-Stockfish) and scripts/search_sprt.py (two builds of `variant uci`).

Why pyffish: it is Fairy-Stockfish's own move generator, independent of ours, and knows every
variant both engines play; every move is checked legal by it and the game ends where it says.
"""
import subprocess

import pyffish


class Uci:
    """A UCI engine driven line by line: only what a game needs (the variant, a position, `go`)."""

    def __init__(self, command, name=None):
        self.name = name or command[0]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait(self, prefix):
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.name} quit while we waited for `{prefix}`")
            if line.startswith(prefix):
                return line.strip()

    def set_options(self, options):
        """Sets `NAME=VALUE` options (`Threads=2`), as given on a harness's command line."""
        for option in options:
            name, _, value = option.partition("=")
            self.send(f"setoption name {name} value {value}")

    def new_game(self, variant):
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")

    def best_move(self, fen, moves, go):
        """The move chosen after `position fen FEN moves ...` and `go GO` (`nodes 1000`,
        `movetime 500`)."""
        self.send(f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else ""))
        self.send(f"go {go}")
        words = self.wait("bestmove").split()
        return words[1] if len(words) > 1 else "(none)"

    def close(self):
        try:
            self.send("quit")
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()


def over(variant, fen, moves):
    """The result for the side to move (1, 0.5, 0) if the game is over after `moves`, else None:
    pyffish's `is_immediate_game_end`, its `game_result` when no move is left, and
    `is_optional_game_end` (repetition and move-count rules), and a draw where neither side has
    the material to win (`has_insufficient_material`: a dead position, which our engine ends, as
    FIDE's rules do, and then has no move to give). Its values are from the side to move's
    view."""
    if all(pyffish.has_insufficient_material(variant, fen, moves)):
        return 0.5
    end, value = pyffish.is_immediate_game_end(variant, fen, moves)
    if not end:
        if not pyffish.legal_moves(variant, fen, moves):
            end, value = True, pyffish.game_result(variant, fen, moves)
        else:
            end, value = pyffish.is_optional_game_end(variant, fen, moves)
    if not end:
        return None
    return 1.0 if value > 0 else 0.0 if value < 0 else 0.5


def play(variant, fen, opening, engines, goes, max_plies):
    """One game from `fen` after the `opening` moves, `engines[0]` moving first with the `go`
    arguments `goes[0]`: the first mover's score (1, 0.5, 0). A game still going after
    `max_plies` plies is a draw; an illegal move raises RuntimeError."""
    moves = list(opening)
    for engine in engines:
        engine.new_game(variant)
    while len(moves) < max_plies:
        result = over(variant, fen, moves)
        if result is not None:
            return result if len(moves) % 2 == 0 else 1.0 - result
        mover = len(moves) % 2
        move = engines[mover].best_move(fen, moves, goes[mover])
        if move not in pyffish.legal_moves(variant, fen, moves):
            raise RuntimeError(f"{engines[mover].name} played illegal `{move}` in {variant} "
                               f"after {fen} moves {' '.join(moves)}")
        moves.append(move)
    return 0.5


def opening(variant, fen, plies, rng):
    """A seeded random opening of exactly `plies` plies after which the game goes on (drawn
    again until one is found)."""
    while True:
        moves = []
        for _ in range(plies):
            legal = pyffish.legal_moves(variant, fen, moves)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        if len(moves) == plies and over(variant, fen, moves) is None:
            return moves
