#!/usr/bin/env python3
"""Cross-check a game file against Fairy-Stockfish (pyffish), an independent engine.

Plays seeded random games with Fairy-Stockfish's own move generator and, at every position,
compares its legal moves with ours (`variant show GAME --json --play ...`, the whole game replayed
each time), the position (FEN without the en-passant field, which Fairy-Stockfish writes only
when an en-passant capture is possible) and whether the side to move is in check; then the end of
the game: where Fairy-Stockfish has no legal move, or a king has exploded, we must have the same
result (a win, a loss or a draw for the side to move).

The variant is one of Fairy-Stockfish's built-in variants, or one defined in a variant
configuration file (`--config FILE`, Fairy-Stockfish's variants.ini format, loaded with
`pyffish.load_variant_config`; `--variant` names its section).

`--sparse P` starts every game from a thinned setup instead: each piece but the kings (letter `k`)
is taken off with probability P and castling rights are dropped, so the games reach open boards,
exposed kings and mates that random games from the full setup seldom reach. We read the thinned
setup with `--fen`.

Usage: scripts/crosscheck_fairy.py --variant atomic --game tests/variants/atomic.variant
       [--config FILE] [--games N] [--seed S] [--plies P] [--sparse P] [--binary PATH]
Prints one summary line, `N positions in G random games agree with Fairy-Stockfish VARIANT
(...)`, and exits 0; on the first disagreement it prints the position and both sides' view of it
and exits 1.
"""

import argparse
import json
import random
import subprocess
import sys

import pyffish as sf


def ours(binary, game, start, moves):
    """Our view of the position after `moves` from `start` (None: the game file's setup)."""
    command = [binary, "show", game, "--json", "--play", " ".join(moves)]
    if start is not None:
        command += ["--fen", start]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"our engine refused {moves} from {start or 'the setup'}: {result.stderr}")
    return json.loads(result.stdout)


def without_en_passant(fen):
    """The FEN's fields but the fourth (en passant), for comparison."""
    fields = fen.split()
    return " ".join(fields[:3] + fields[4:])


def outcome_for_side_to_move(result, side):
    """1, 0 or -1: our result for the side to move (win, draw, loss)."""
    if side in result["winners"]:
        return 1
    if side in result["losers"]:
        return -1
    return 0


def thinned(fen, rng, probability):
    """`fen` with each piece but the kings removed with the given probability, and no castling
    rights (a removed rook would leave one that neither engine accepts)."""
    fields = fen.split()
    ranks = []
    for rank in fields[0].split("/"):
        squares = []
        for char in rank:
            if char.isdigit():
                squares += ["."] * int(char)
            elif char.lower() != "k" and rng.random() < probability:
                squares.append(".")
            else:
                squares.append(char)
        text, empty = "", 0
        for square in squares:
            if square == ".":
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += square
        ranks.append(text + (str(empty) if empty else ""))
    return " ".join(["/".join(ranks), fields[1], "-"] + fields[3:])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", required=True, help="Fairy-Stockfish's variant name")
    parser.add_argument("--game", required=True, help="our game file")
    parser.add_argument("--config", help="a Fairy-Stockfish variant configuration (ini) to load")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--sparse", type=float, default=0.0,
                        help="remove each piece but the kings from the setup with this probability")
    parser.add_argument("--binary", default="target/release/variant")
    args = parser.parse_args()
    if args.config is not None:
        with open(args.config, encoding="utf-8") as config:
            sf.load_variant_config(config.read())
    if args.variant not in sf.variants():
        raise SystemExit(f"Fairy-Stockfish knows no variant `{args.variant}`"
                         + (f" (not defined in {args.config})" if args.config else ""))
    rng = random.Random(args.seed)
    setup = sf.start_fen(args.variant)
    positions = 0
    ends = {}
    for game in range(args.games):
        start = None
        if args.sparse > 0:
            start = thinned(setup, rng, args.sparse)
            if sf.validate_fen(start, args.variant) != sf.FEN_OK:
                raise SystemExit(f"Fairy-Stockfish refuses the thinned setup {start}")
        fsf_start = start or setup
        moves = []
        while True:
            theirs = sorted(sf.legal_moves(args.variant, fsf_start, moves))
            shown = ours(args.binary, args.game, start, moves)
            mine, result, fen = sorted(shown["legal_moves"]), shown["result"], shown["fen"]
            where = f"game {game}: after {' '.join(moves) or 'no move'} from {fsf_start}\n at {fen}"
            # Our automatic draws (repetition, the move limit, dead material) end the game where
            # pyffish's move list goes on: stop there.
            if result is not None and result["draw"] and theirs and not mine:
                ends[result["reason"]] = ends.get(result["reason"], 0) + 1
                positions += 1
                break
            if theirs != mine:
                print(f"{where}\n moves differ\n ours:   {mine}\n theirs: {theirs}")
                return 1
            their_fen = sf.get_fen(args.variant, fsf_start, moves)
            if without_en_passant(their_fen) != without_en_passant(fen):
                print(f"{where}\n positions differ\n ours:   {fen}\n theirs: {their_fen}")
                return 1
            their_check = sf.gives_check(args.variant, fsf_start, moves)
            if their_check != shown["in_check"]:
                print(f"{where}\n check differs: ours {shown['in_check']}, theirs {their_check}")
                return 1
            positions += 1
            if not theirs:
                # Fairy-Stockfish lists no move at the end of its game (mate, stalemate, an
                # exploded king): we must end the game with the same result.
                if result is None:
                    print(f"{where}\n Fairy-Stockfish has no move but we have no result")
                    return 1
                their_value = sf.game_result(args.variant, fsf_start, moves)
                their_outcome = (their_value > 0) - (their_value < 0)
                mine_outcome = outcome_for_side_to_move(result, shown["side_to_move"])
                if their_outcome != mine_outcome:
                    print(f"{where}\n results differ for the side to move: ours {result}, "
                          f"theirs {their_value}")
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
    sparse = f", sparse setups {args.sparse}" if args.sparse > 0 else ""
    print(f"{positions} positions in {args.games} random games agree with Fairy-Stockfish "
          f"{args.variant} (games ended by: {summary}{sparse})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
