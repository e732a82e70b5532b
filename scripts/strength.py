#!/usr/bin/env python3
"""How strong `variant uci` is against real engines: an Elo estimate with its error.

Two harnesses (issue 29):

  stockfish  `variant uci` against Stockfish (Debian `stockfish`) with `UCI_LimitStrength` at a
             ladder of `UCI_Elo` values, both at `--movetime` seconds a move (0.5 by default),
             through python-chess's `chess.engine`, which referees every game.
             Prints each rung's score and a maximum-likelihood Elo estimate over all games with
             its standard error and 95% interval (the logistic Elo model; Stockfish's `UCI_Elo`
             is calibrated against CCRL 40/4 ratings, so the estimate is on that scale, roughly).
  fairy      `variant uci` at `--movetime` a move against Fairy-Stockfish at a ladder of node
             limits, in the games `--variants` names (`all`: every two-sided game of games/
             that Fairy-Stockfish knows): per game and rung the score, and the node budget at
             which the two are even (interpolated in log(nodes) between the rungs where our
             score crosses one half): the gap to the strongest variant engine. Both engines
             speak UCI with Fairy-Stockfish's notation; pyffish referees (every move legal by its
             rules, the result its `is_immediate_game_end`, `game_result` when no move is left,
             and `is_optional_game_end`, which covers repetition and move-count draws).

Colours alternate; the first `--random-plies` plies of each pair of games are seeded random
moves, so that games differ. A game still going after `--max-plies` plies is scored a draw.
These are harnesses, not results: run them on a quiet machine (each engine its own core) with a
release build. Prints one line per rung and the estimate; exits 0.

Usage:
  scripts/strength.py stockfish --binary PATH [--stockfish PATH] [--elos 1350,1600,...]
                                [--games N] [--movetime S] [--max-plies P] [--seed S]
                                [--pgn FILE] [--option NAME=VALUE]
  scripts/strength.py fairy --binary PATH --fairy PATH [--nodes 100,300,...] [--games N]
                            [--variants chess,xiangqi,...|all] ...
"""
import argparse
import math
import random
import shutil
import sys

import chess
import chess.engine
import chess.pgn
import pyffish

from uci_referee import Uci, opening, play

LN10_400 = math.log(10) / 400


def expected(diff):
    """The expected score of a player `diff` Elo above its opponent."""
    return 1 / (1 + 10 ** (-diff / 400))


def elo_estimate(results):
    """Maximum-likelihood rating from (opponent rating, score) pairs, score 1, 0.5 or 0, with
    its standard error from the Fisher information; None when all scores are equal (a perfect
    or a zero score has no finite estimate)."""
    scores = {score for _, score in results}
    if not results or scores in ({1.0}, {0.0}):
        return None
    rating = sum(opponent for opponent, _ in results) / len(results)
    for _ in range(100):
        gradient = sum(score - expected(rating - opponent) for opponent, score in results)
        information = sum(expected(rating - o) * (1 - expected(rating - o))
                          for o, _ in results) * LN10_400
        step = gradient / information
        rating += max(-400, min(400, step))
        if abs(step) < 0.01:
            break
    information = sum(expected(rating - o) * (1 - expected(rating - o))
                      for o, _ in results) * LN10_400 ** 2
    return rating, 1 / math.sqrt(information)


def play_game(board, white, black, limits, max_plies, opening, record=None):
    """Plays one game from `board` after the `opening` moves; the score of White (1, 0.5, 0).
    `record(board, result)`, if given, is told the finished game."""
    for move in opening:
        board.push(move)
    engines = {chess.WHITE: (white, limits[0]), chess.BLACK: (black, limits[1])}
    while not game_over(board) and board.ply() < max_plies:
        engine, limit = engines[board.turn]
        move = engine.play(board, limit).move
        if move is None or move not in board.legal_moves:
            raise RuntimeError(f"illegal or no move {move} in {board.fen()}")
        board.push(move)
    result = board.result() if board.is_game_over() else "1/2-1/2" if game_over(board) else "*"
    if record is not None:
        record(board, result if result != "*" else "1/2-1/2")
    return {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)


def game_over(board):
    """Whether the game has ended, or is drawn as a player who wants the draw would claim it: a
    position on the board for the third time, or 50 moves without a capture or a pawn move.
    Not python-chess's `claim_draw=True`, which also ends the game where the side to move
    could make a third occurrence with its next move, whether or not it would: that drew
    games a side was winning (it counts the repetition a move could make before the move is
    chosen)."""
    return board.is_game_over() or board.is_repetition(3) or board.halfmove_clock >= 100


def random_opening(board, rng, plies):
    board = board.copy()
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal or board.is_game_over():
            break
        move = rng.choice(legal)
        moves.append(move)
        board.push(move)
    return moves


def match(ours, theirs, board_type, games, limits, args, rng, names=("variant", "opponent")):
    """Games with alternating colours, each pair from one random opening: our score in each.
    `limits` is (ours, theirs); `names` (ours, theirs) name the players in `--pgn`'s records.
    Each game's result goes to stderr as it ends."""
    scores = []
    opening = []
    for game in range(games):
        if game % 2 == 0:
            opening = random_opening(board_type(), rng, args.random_plies)
            record = recorder(args.pgn, names)
            score = play_game(board_type(), ours, theirs, limits, args.max_plies, opening,
                              record)
        else:
            record = recorder(args.pgn, names[::-1])
            score = 1 - play_game(board_type(), theirs, ours, limits[::-1], args.max_plies,
                                  opening, record)
        scores.append(score)
        print(f"  {names[1]}, game {game + 1}/{games}: {score} for us", file=sys.stderr,
              flush=True)
    return scores


def recorder(path, names):
    """What appends a finished game to the PGN file `path` (White `names[0]`), or None."""
    if not path:
        return None

    def record(board, result):
        game = chess.pgn.Game.from_board(board)
        game.headers["White"], game.headers["Black"] = names
        game.headers["Result"] = result
        with open(path, "a", encoding="utf-8") as out:
            print(game, file=out, end="\n\n")
    return record


def options(pairs):
    """`NAME=VALUE` options as python-chess configures them."""
    return dict(pair.partition("=")[::2] for pair in pairs)


def ladder(text):
    return [int(value) for value in text.split(",") if value]


def against_stockfish(args, rng):
    limit = chess.engine.Limit(time=args.movetime)
    results = []
    with chess.engine.SimpleEngine.popen_uci([args.binary, "uci"]) as ours, \
            chess.engine.SimpleEngine.popen_uci(args.stockfish) as stockfish:
        ours.configure(options(args.option))
        for elo in ladder(args.elos):
            stockfish.configure({"UCI_LimitStrength": True, "UCI_Elo": elo})
            scores = match(ours, stockfish, chess.Board, args.games, (limit, limit), args, rng,
                           ("variant", f"Stockfish UCI_Elo {elo}"))
            results.extend((elo, score) for score in scores)
            wins, draws = scores.count(1.0), scores.count(0.5)
            losses = len(scores) - wins - draws
            print(f"UCI_Elo {elo}: +{wins} ={draws} -{losses}, "
                  f"{sum(scores)}/{len(scores)} ({100 * sum(scores) / len(scores):.0f}%)",
                  flush=True)
    estimate = elo_estimate(results)
    if estimate is None:
        print(f"Elo estimate: none (every game {'won' if results[0][1] else 'lost'}): "
              "extend the ladder")
    else:
        rating, error = estimate
        print(f"Elo estimate: {rating:.0f} ± {error:.0f} (95%: {rating - 1.96 * error:.0f} to "
              f"{rating + 1.96 * error:.0f}) over {len(results)} games at {args.movetime} s a "
              "move, on Stockfish's UCI_Elo scale")


# Every two-sided game of games/ that Fairy-Stockfish knows by the same name (tests/library.rs).
FAIRY_VARIANTS = (
    "chess crazyhouse atomic kingofthehill knightmate extinction gothic amazon berolina courier "
    "chaturanga breakthrough newzealand hoppelpoppel torpedo 3check antichess losers horde "
    "racingkings seirawan placement ataxx spartan duck grasshopper shogi minishogi xiangqi "
    "minixiangqi janggi dobutsu sittuyin shako"
).split()


def even_budget(rungs):
    """The node count at which our score crosses one half, interpolated in log(nodes) between
    rungs ((nodes, score) sorted by nodes); a bound when it never crosses."""
    for (low, low_score), (high, high_score) in zip(rungs, rungs[1:]):
        if low_score >= 0.5 >= high_score and low_score != high_score:
            share = (low_score - 0.5) / (low_score - high_score)
            return f"about {math.exp(math.log(low) + share * (math.log(high) - math.log(low))):.0f}"
    if rungs and rungs[0][1] < 0.5:
        return f"below {rungs[0][0]}"
    return f"above {rungs[-1][0]}" if rungs else "unknown"


def against_fairy(args, rng):
    variants = FAIRY_VARIANTS if args.variants == "all" else args.variants.split(",")
    ours_go = f"movetime {round(args.movetime * 1000)}"
    for variant in variants:
        rungs = []
        fen = pyffish.start_fen(variant)
        ours, fairy = Uci([args.binary, "uci"], "variant"), Uci([args.fairy], "Fairy-Stockfish")
        ours.set_options(args.option)
        try:
            for nodes in ladder(args.nodes):
                theirs_go = f"nodes {nodes}"
                score = 0.0
                for game in range(args.games):
                    if game % 2 == 0:
                        moves = opening(variant, fen, args.random_plies, rng)
                        score += play(variant, fen, moves, (ours, fairy), (ours_go, theirs_go),
                                      args.max_plies)
                    else:
                        score += 1 - play(variant, fen, moves, (fairy, ours),
                                          (theirs_go, ours_go), args.max_plies)
                rungs.append((nodes, score / args.games))
                print(f"{variant}: Fairy-Stockfish at {nodes} nodes a move: {score}/{args.games} "
                      f"for us ({100 * score / args.games:.0f}%)", flush=True)
        finally:
            ours.close()
            fairy.close()
        print(f"{variant}: even at {even_budget(rungs)} Fairy-Stockfish nodes a move "
              f"(ours {args.movetime} s a move)", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponent", choices=["stockfish", "fairy"])
    parser.add_argument("--binary", required=True, help="the `variant` binary")
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish",
                        help="the Stockfish binary (Debian puts it in /usr/games)")
    parser.add_argument("--fairy", help="the Fairy-Stockfish binary (for `fairy`)")
    parser.add_argument("--elos", default="1350,1600,1800,2000,2200")
    parser.add_argument("--nodes", default="100,300,1000,3000,10000,30000")
    parser.add_argument("--games", type=int, default=10, help="games per rung")
    parser.add_argument("--movetime", type=float, default=0.5, help="seconds a move")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--random-plies", type=int, default=2)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a UCI option of ours (`Threads=2`), repeatable")
    parser.add_argument("--pgn", help="append the Stockfish games to this PGN file")
    parser.add_argument("--variants", default="chess,crazyhouse,atomic",
                        help="for `fairy`: comma-separated Fairy-Stockfish variant names, or "
                             "`all` (every two-sided library game Fairy-Stockfish knows)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.opponent == "stockfish":
        against_stockfish(args, rng)
    else:
        if not args.fairy:
            parser.error("`fairy` needs --fairy PATH")
        against_fairy(args, rng)
    return 0


if __name__ == "__main__":
    sys.exit(main())
