#!/usr/bin/env python3
"""Cross-check `variant` against python-chess, an independent implementation of FIDE chess.

Plays random games with python-chess and, at every position, compares the legal moves that
`variant moves chess --fen FEN` lists, the FEN that `variant show --json --play MOVE` writes
after each move, and the game result. Exits 1 on the first disagreement.

Usage: scripts/crosscheck_python_chess.py [--games N] [--seed S] [--binary PATH]
"""
import argparse
import json
import random
import subprocess
import sys

import chess


def variant(binary, *args):
    done = subprocess.run([binary, *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"variant {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def ours_show(binary, fen, moves):
    args = ["show", "chess", "--json", "--fen", fen]
    if moves:
        args += ["--play", " ".join(moves)]
    return json.loads(variant(binary, *args))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--binary", default="target/release/variant")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    positions = 0
    ends = {}
    for game in range(args.games):
        board = chess.Board()
        start = board.fen()
        played = []
        while True:
            fen = board.fen(en_passant="fen")
            shown = ours_show(args.binary, start, played) if played else ours_show(args.binary, fen, [])
            # The game is over at checkmate, stalemate, a dead position by material (FIDE 5.2.2, as
            # python-chess's is_insufficient_material), the 50-move rule and threefold repetition
            # (both automatic in our chess.variant); a finished game has no legal moves.
            reason = ("checkmate" if board.is_checkmate() else
                      "stalemate" if board.is_stalemate() else
                      "material" if board.is_insufficient_material() else
                      "repetition" if board.is_repetition(3) else
                      "move-limit" if board.halfmove_clock >= 100 else None)
            over = reason is not None
            expected_moves = [] if over else sorted(m.uci() for m in board.legal_moves)
            if sorted(shown["legal_moves"]) != expected_moves:
                print(f"game {game}: moves differ at {fen}\n ours:   {sorted(shown['legal_moves'])}\n theirs: {expected_moves}")
                return 1
            if shown["fen"] != fen:
                print(f"game {game}: FEN differs after {played}\n ours:   {shown['fen']}\n theirs: {fen}")
                return 1
            positions += 1
            ours = shown["result"]["reason"] if shown["result"] is not None else None
            if ours != reason:
                print(f"game {game}: result differs at {fen}: ours {shown['result']}, theirs {reason}")
                return 1
            if over:
                ends[reason] = ends.get(reason, 0) + 1
            if over or len(played) >= 400:
                break
            move = rng.choice(list(board.legal_moves))
            board.push(move)
            played.append(move.uci())
    summary = ", ".join(f"{reason} {count}" for reason, count in sorted(ends.items())) or "none"
    print(f"{positions} positions in {args.games} random games agree with python-chess "
          f"{chess.__version__} (games ended by: {summary})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
