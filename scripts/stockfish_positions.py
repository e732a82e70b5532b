#!/usr/bin/env python3
"""Quiet chess positions valued by Stockfish: data for fitting the evaluation's weights.

Stockfish plays itself with `UCI_LimitStrength` at a random `UCI_Elo` (1500, 1800, 2100 or
2400; 4000 nodes a move) from 2, 4 or 6 random plies. After ply 12 about one position in eight
is kept where the move before was no capture and the side to move is not in check; a second
Stockfish values it at 30000 nodes, and it is written (`FEN<TAB>centipawns`, the side to move's
view) unless that search's best move is a capture, a promotion or a check, or the value is a
mate or beyond 15 pawns: positions a static evaluation can be compared with (issue 29, README
"A fit of the evaluation's weights against Stockfish's values").

Usage: scripts/stockfish_positions.py OUT.tsv COUNT SEED [--stockfish PATH]
  Writes at least COUNT positions (a game's positions are all written once it is valued).
"""
import argparse
import random
import shutil

import chess
import chess.engine

ELOS = [1500, 1800, 2100, 2400]


def sample_game(play, rng):
    """One game of Stockfish against itself; the positions kept for valuing."""
    play.configure({"UCI_LimitStrength": True, "UCI_Elo": rng.choice(ELOS)})
    board = chess.Board()
    for _ in range(rng.choice([2, 4, 6])):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    kept = []
    while not board.is_game_over() and board.ply() < 200:
        move = play.play(board, chess.engine.Limit(nodes=4000)).move
        capture = board.is_capture(move)
        board.push(move)
        if board.ply() >= 12 and not capture and not board.is_check() and rng.random() < 0.12:
            if not board.is_game_over():
                kept.append(board.copy(stack=False))
    return kept


def value(judge, board):
    """Stockfish's value of a quiet `board` (side to move), or None where it is not quiet."""
    info = judge.analyse(board, chess.engine.Limit(nodes=30000))
    pv = info.get("pv") or []
    if not pv:
        return None
    best = pv[0]
    if board.is_capture(best) or best.promotion or board.gives_check(best):
        return None
    score = info["score"].pov(board.turn)
    if score.is_mate() or abs(score.score()) > 1500:
        return None
    return score.score()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("count", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    play = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    judge = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    judge.configure({"Threads": 1, "Hash": 32})
    written = 0
    try:
        with open(args.out, "w", encoding="utf-8") as out:
            while written < args.count:
                for board in sample_game(play, rng):
                    cp = value(judge, board)
                    if cp is not None:
                        fen = " ".join(board.fen().split()[:4]) + " 0 1"
                        out.write(f"{fen}\t{cp}\n")
                        written += 1
                out.flush()
    finally:
        play.quit()
        judge.quit()


if __name__ == "__main__":
    main()
