#!/usr/bin/env python3
"""Cross-check a game file against Fairy-Stockfish (pyffish), an independent engine.

Plays seeded random games with Fairy-Stockfish's own move generator and, at every position,
compares its legal moves with ours (`variant show GAME --json --play ...`, the whole game replayed
each time), the position itself (board with promoted pieces, hands, side to move, castling
rights, en passant and the clocks, normalised as `position_key` says) and whether the side to move
is in check; then the end of the game: where Fairy-Stockfish has no legal move, or a king has
exploded, we must have the same result for the side to move (a win, a draw or a loss).

The variant is one of Fairy-Stockfish's built-in variants, or one defined in a variant
configuration file (`--config FILE`, Fairy-Stockfish's variants.ini format, loaded with
`pyffish.load_variant_config`; `--variant` names its section).

`--sparse P` starts every game from a thinned setup instead: each piece but the kings (letter `k`)
is taken off with probability P and castling rights are dropped, so the games reach open boards,
exposed kings and mates that random games from the full setup seldom reach. We read the thinned
setup with `--fen`.

`--bias B` (0 to 1, default 0: uniform) steers the random games towards the rare events of games
with hands: with probability B a move is drawn from the "interesting" moves instead of all of
them: captures of a promoted piece if there are any, else promotions, else captures (uniform
among them; uniform among all moves when there is none). Without it, random crazyhouse games
mostly drop pieces and seldom capture a promoted piece.

Usage: scripts/crosscheck_fairy.py --variant atomic --game games/atomic.variant
       [--config FILE] [--games N] [--seed S] [--plies P] [--sparse P] [--bias B] [--binary PATH]
Prints one summary line, `N positions in G random games agree with Fairy-Stockfish VARIANT
(...)`, and exits 0; on the first disagreement it prints the position and both sides' view of it
and exits 1.

Perft mode, to count reference figures with pyffish by recursion over `legal_moves` (the number
of legal moves at the last ply, summed over the tree):
       scripts/crosscheck_fairy.py --variant crazyhouse --perft 3 [--fen FEN] [--config FILE]
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


def thinned(fen, rng, probability):
    """`fen` with each piece but the kings removed with the given probability, and no castling
    rights (a removed rook would leave one that neither engine accepts)."""
    fields = fen.split()
    ranks = []
    for rank in fields[0].split("/"):
        squares_of_rank = []
        for char in rank:
            if char.isdigit():
                squares_of_rank += ["."] * int(char)
            elif char.lower() != "k" and rng.random() < probability:
                squares_of_rank.append(".")
            else:
                squares_of_rank.append(char)
        text, empty = "", 0
        for square in squares_of_rank:
            if square == ".":
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += square
        ranks.append(text + (str(empty) if empty else ""))
    return " ".join(["/".join(ranks), fields[1], "-"] + fields[3:])


def outcome(result, side):
    """1, 0 or -1: our result for the side to move (a win, a draw, a loss)."""
    if side in result["winners"]:
        return 1
    return -1 if side in result["losers"] else 0


def position_key(fen):
    """The parts of a FEN both engines must agree on, normalised.

    Compared as written: the board (promoted pieces marked `~`), the side to move, the castling
    rights and the move number. Normalised, because the two engines may legitimately write them
    differently:
    - the hand: its letters are sorted, since their order within the brackets carries no meaning
      (both engines happen to write crazyhouse hands in the same order, but nothing requires it);
      a board without brackets is an empty hand;
    - en passant: Fairy-Stockfish writes the target square only when a pawn can take there
      (X-FEN), we write it after every double step (standard FEN). `ep_agree` compares it;
    - the half-move clock is left out in games with hands: Fairy-Stockfish resets it on every
      drop, we only on drops of `irreversible` pieces (the pawns) as on their moves, and
      python-chess on no drop; no rule of crazyhouse settles it, and pyffish's `legal_moves` does
      not apply the fifty-move rule. Without hands it is compared.
    """
    fields = fen.split(" ")
    # The checks each side still needs (`3+3`, 3check), after the en-passant field, when present.
    checks = fields.pop(4) if len(fields) > 6 and "+" in fields[4] else ""
    board, bracket, hand = fields[0].partition("[")
    hand = "".join(sorted(hand.rstrip("]")))
    clock = "" if bracket else fields[4]
    return (board, hand, fields[1], fields[2], clock, fields[5], checks), fields[3]


def ep_agree(mine, theirs):
    """Fairy-Stockfish's en-passant square, when it writes one, must be ours."""
    return theirs == "-" or mine == theirs


def squares(board):
    """Square name -> FEN letter (with `~` for a promoted piece) of the board field."""
    found = {}
    ranks = board.split("/")
    for row, text in enumerate(ranks):
        rank = len(ranks) - row
        file = 0
        i = 0
        while i < len(text):
            if text[i].isdigit():
                j = i
                while j < len(text) and text[j].isdigit():
                    j += 1
                file += int(text[i:j])
                i = j
                continue
            letter = text[i]
            if i + 1 < len(text) and text[i + 1] == "~":
                letter += "~"
                i += 1
            found[f"{chr(ord('a') + file)}{rank}"] = letter
            file += 1
            i += 1
    return found


def classify(move, board, white_to_move):
    """'drop', 'promoted capture', 'promotion', 'capture' or 'quiet' (UCI move, board squares)."""
    if "@" in move:
        return "drop"
    target = board.get(move[2:4])
    enemy = target is not None and target[0].isupper() != white_to_move
    if enemy and target.endswith("~"):
        return "promoted capture"
    if len(move) == 5:
        return "promotion"
    return "capture" if enemy else "quiet"


def choose(rng, moves, bias, board, white_to_move):
    """A uniform random move, or with probability `bias` an interesting one (see the module)."""
    if bias <= 0 or rng.random() >= bias:
        return rng.choice(moves)
    kinds = {}
    for move in moves:
        kinds.setdefault(classify(move, board, white_to_move), []).append(move)
    for kind in ("promoted capture", "promotion", "capture"):
        if kind in kinds:
            return rng.choice(kinds[kind])
    return rng.choice(moves)


def perft(variant, fen, moves, depth):
    """Fairy-Stockfish's perft by recursion over `legal_moves` (legal moves at the last ply)."""
    legal = sf.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [move], depth - 1) for move in legal)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", required=True, help="Fairy-Stockfish's variant name")
    parser.add_argument("--game", help="our game file")
    parser.add_argument("--config", help="a Fairy-Stockfish variant configuration (ini) to load")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--sparse", type=float, default=0.0,
                        help="remove each piece but the kings from the setup with this probability")
    parser.add_argument("--bias", type=float, default=0.0,
                        help="probability of drawing an interesting move (see above)")
    parser.add_argument("--binary", default="target/release/variant")
    parser.add_argument("--perft", type=int, help="print Fairy-Stockfish's perft to this depth")
    parser.add_argument("--fen", help="the position for --perft (default: the start)")
    args = parser.parse_args()
    if args.config is not None:
        with open(args.config, encoding="utf-8") as config:
            sf.load_variant_config(config.read())
    if args.variant not in sf.variants():
        raise SystemExit(f"Fairy-Stockfish knows no variant `{args.variant}`"
                         + (f" (not defined in {args.config})" if args.config else ""))
    setup = sf.start_fen(args.variant)
    if args.perft:
        fen = args.fen or setup
        for depth in range(1, args.perft + 1):
            print(f"depth {depth}: {perft(args.variant, fen, [], depth)}")
        return 0
    if not args.game:
        parser.error("--game is required unless --perft is given")
    rng = random.Random(args.seed)
    positions = 0
    ends = {}
    played = {}
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
            side = shown["side_to_move"]
            where = f"game {game}: after {' '.join(moves) or 'no move'} from {fsf_start}\n at {fen}"
            their_fen = sf.get_fen(args.variant, fsf_start, moves)
            (mine_key, mine_ep), (their_key, their_ep) = position_key(fen), position_key(their_fen)
            if mine_key != their_key or not ep_agree(mine_ep, their_ep):
                print(f"{where}\n positions differ\n ours:   {fen}\n theirs: {their_fen}")
                return 1
            # Our automatic draws (repetition, the move limit, dead material) end the game where
            # pyffish's move list goes on: stop there.
            if result is not None and result["draw"] and theirs and not mine:
                ends[result["reason"]] = ends.get(result["reason"], 0) + 1
                positions += 1
                break
            if theirs != mine:
                print(f"{where}\n moves differ\n ours:   {mine}\n theirs: {theirs}\n"
                      f" only ours:   {sorted(set(mine) - set(theirs))}\n"
                      f" only theirs: {sorted(set(theirs) - set(mine))}")
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
                # The same verdict for the side to move (checkmate, stalemate, exploded king).
                value = sf.game_result(args.variant, fsf_start, moves)
                theirs_outcome = (value > 0) - (value < 0)
                if outcome(result, side) != theirs_outcome:
                    print(f"{where}\n results differ: ours {result['description']}, "
                          f"Fairy-Stockfish {value} for {side}")
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
            board, white_to_move = squares(their_key[0]), their_key[2] == "w"
            move = choose(rng, theirs, args.bias, board, white_to_move)
            kind = classify(move, board, white_to_move)
            played[kind] = played.get(kind, 0) + 1
            moves.append(move)
    summary = ", ".join(f"{reason} {count}" for reason, count in sorted(ends.items()))
    sparse = f", sparse setups {args.sparse}" if args.sparse > 0 else ""
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(played.items()))
    print(f"{positions} positions in {args.games} random games agree with Fairy-Stockfish "
          f"{args.variant} (games ended by: {summary}{sparse}; moves played: {kinds})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
