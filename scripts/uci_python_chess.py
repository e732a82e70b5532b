#!/usr/bin/env python3
"""Drive `variant uci` (or `variant xboard`) with python-chess's `chess.engine`, a real client.

For chess and for each variant python-chess knows that the library has as a game file
(crazyhouse, atomic, king of the hill, 3check, antichess, horde and racing kings, from games/),
python-chess sets `UCI_Variant` (over CECP, antichess is left out: python-chess calls it `giveaway`,
XBoard's name for a game with castling),
sends the positions and reads the engine's moves:
- whole games of the engine against seeded random moves, under a clock, a depth, a node count
  and a move time in turn; every move the engine plays must be legal by python-chess's rules, and
  the game must end (by python-chess's rules) within the ply limit;
- in chess, a game of the engine against itself to the ply limit or the end;
- `analyse` at a few positions of each game: a score and a principal variation of legal moves,
  and with `multipv` as many lines as asked.
With `--protocol xboard` the same games are played over CECP (`variant xboard`), whose clients
give no node limits: a move time stands in for them, and `multipv` is not asked of analyses.
Prints one summary line and exits 0; on the first failure prints it and exits 1.

Usage: scripts/uci_python_chess.py --binary PATH [--protocol uci|xboard] [--seed S] [--plies N]
"""
import argparse
import random
import sys

import chess
import chess.engine
import chess.variant


class Failure(Exception):
    pass


def check_pv(board, pv, what):
    replay = board.copy()
    for move in pv:
        if move not in replay.legal_moves:
            raise Failure(f"{what}: pv move {move} is illegal in {replay.fen()}")
        replay.push(move)


def check_analysis(engine, board, what, xboard):
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    if "score" not in info or not info.get("pv"):
        raise Failure(f"{what}: analyse gave no score or no pv: {info}")
    check_pv(board, info["pv"], what)
    if xboard:
        return
    lines = engine.analyse(board, chess.engine.Limit(depth=2), multipv=3)
    expected = min(3, board.legal_moves.count())
    if len(lines) != expected or any("score" not in l or not l.get("pv") for l in lines):
        raise Failure(f"{what}: multipv 3 gave {lines}")
    for line in lines:
        check_pv(board, line["pv"], what)


def limits(ply, xboard):
    """A different kind of limit move by move: clock, depth, nodes, move time."""
    kind = ply % 4
    if xboard and kind == 2:
        kind = 3
    if kind == 0:
        return chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.05, black_inc=0.05)
    if kind == 1:
        return chess.engine.Limit(depth=2)
    if kind == 2:
        return chess.engine.Limit(nodes=3000)
    return chess.engine.Limit(time=0.05)


def over(board):
    # Our chess ends by itself when a position occurs the third time and when fifty moves pass
    # without a capture or a pawn move, where python-chess lets a player claim the draw. Its
    # `claim_draw=True` also ends the game when the player to move *could* claim one with their
    # next move (a move that would repeat a position the third time), which our rules do not:
    # only what has happened ends the game here.
    return board.is_game_over() or board.is_repetition(3) or board.halfmove_clock >= 100


def play(engine, board, rng, plies, engine_sides, what, xboard):
    analysed = 0
    while not over(board) and board.ply() < plies:
        if board.turn in engine_sides:
            result = engine.play(board, limits(board.ply(), xboard))
            move = result.move
            if move is None:
                raise Failure(f"{what}: no move from the engine in {board.fen()} (not over)")
            if move not in board.legal_moves:
                raise Failure(f"{what}: illegal move {move} in {board.fen()}")
        else:
            move = rng.choice(list(board.legal_moves))
        if board.ply() % 20 == 5 and analysed < 3:
            check_analysis(engine, board, f"{what} at ply {board.ply()}", xboard)
            analysed += 1
        board.push(move)
    return board


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--plies", type=int, default=300)
    parser.add_argument("--protocol", choices=["uci", "xboard"], default="uci")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    xboard = args.protocol == "xboard"
    command = [args.binary, args.protocol, "--variant-path", "games/crazyhouse.variant",
               "--variant-path", "games/atomic.variant"]
    games = [
        ("chess", chess.Board, {chess.WHITE}),
        ("chess", chess.Board, {chess.BLACK}),
        ("crazyhouse", chess.variant.CrazyhouseBoard, {chess.WHITE}),
        ("atomic", chess.variant.AtomicBoard, {chess.BLACK}),
        ("kingofthehill", chess.variant.KingOfTheHillBoard, {chess.WHITE}),
        ("3check", chess.variant.ThreeCheckBoard, {chess.BLACK}),
        ("antichess", chess.variant.AntichessBoard, {chess.WHITE}),
        ("horde", chess.variant.HordeBoard, {chess.BLACK}),
        ("racingkings", chess.variant.RacingKingsBoard, {chess.WHITE}),
    ]
    if xboard:
        # python-chess names antichess `giveaway` over CECP, the name XBoard gives a game with
        # castling (python-chess's GiveawayBoard has the same name): no game of ours is that.
        games = [game for game in games if game[0] != "antichess"]
    summary = []
    try:
        popen = chess.engine.SimpleEngine.popen_xboard if xboard else chess.engine.SimpleEngine.popen_uci
        with popen(command) as engine:
            for name, board_type, sides in games:
                board = play(engine, board_type(), rng, args.plies, sides, name, xboard)
                if not over(board):
                    raise Failure(f"{name}: the engine did not end the game against random "
                                  f"moves in {args.plies} plies: {board.fen()}")
                summary.append(f"{name} {board.result(claim_draw=True)} in {board.ply()} plies")
            # The engine against itself, to the end or a shorter ply limit.
            board = play(engine, chess.Board(), rng, 80, {chess.WHITE, chess.BLACK}, "self-play",
                         xboard)
            summary.append(f"self-play {board.ply()} plies")
    except (Failure, chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
        print(f"FAILED: {e}")
        return 1
    print(f"python-chess {chess.__version__} played `variant {args.protocol}`: " + ", ".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
