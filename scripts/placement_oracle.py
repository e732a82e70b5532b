#!/usr/bin/env python3
"""Independent reference implementation of two placement games, Coverage and Cheversi.

Written from the rule texts (`shared/rules/coverage.txt`, `shared/rules/cheversi.txt`) and the rulings
register (`shared/design/rulings.md`, Coverage C1-C13, Cheversi CH1-CH8) only, without reading the Rust
engine, so that the two can be cross-checked. Plain Python 3, no third-party packages.

Model
  * 8x8 board, squares a1..h8; square index = rank * 8 + file (a1 = 0, h8 = 63).
  * White's pieces upper case, Black's lower case; White's pawns move towards rank 8 (C1).
  * Positions: `BOARD[HAND] SIDE - - 0 1`, e.g.
    `8/8/8/8/8/8/8/8[KQBBRRNNPPPPPPPPkqbbrrnnpppppppp] w - - 0 1`.
  * Actions: drops `X@sq`, X the upper-case piece letter for both colours.
  * Games: `coverage`, `coverage-weighted` (C13 scoring), `cheversi`.

Usage
  placement_oracle.py perft GAME DEPTH [--fen FEN] [--play "DROPS..."]
  placement_oracle.py moves GAME [--fen FEN] [--play "DROPS..."]
  placement_oracle.py show  GAME [--fen FEN] [--play "DROPS..."]
  placement_oracle.py random GAME --seed S
  placement_oracle.py verify FILE
  placement_oracle.py selfcheck

`verify` checks claims about complete games made by another implementation (the Rust engine's
`tests/placement_invariants.rs` writes them): FILE holds one JSON object per line,
  {"game": GAME, "history": [DROP, ...],
   "positions": [{"board": BOARD, "side": "w"|"b", "moves": [DROP, ...],
                  "control": {"white": [SQ, ...], "black": [SQ, ...]}}, ...],
   "scores": {"white": N, "black": N}, "result": null | {"winners": [...], "reason": "score"}}
with one entry in "positions" per position of the game, the start included (so one more than
"history"). The oracle replays the history from the game's start with its own rules and
compares, at every position, the board field of the FEN, the side to move, the set of legal
drops (unless "moves" is null: not claimed) and each colour's controlled squares, then the
final scores and result. It prints every
disagreement (at most 20) and exits 1 if there is any.

Conventions chosen where the brief leaves room (see the report):
  * perft counts a finished game reached before the full depth as one leaf.
  * A finished game has no legal moves (`moves` prints nothing, `legal_moves` is []).
  * `result.winners` is [] for a draw.
  * Cheversi rules that need "the last placed piece" (Black King touch, Queen call) only see the drops
    given with --play; a position given by --fen alone has no known history, so they do not apply to it.
"""

import argparse
import json
import random
import sys
import time

WHITE, BLACK = 0, 1
COLOUR_NAMES = ("white", "black")
FILES = "abcdefgh"

START_FEN = {
    "coverage": "8/8/8/8/8/8/8/8[KQBBRRNNPPPPPPPPkqbbrrnnpppppppp] w - - 0 1",
    "coverage-weighted": "8/8/8/8/8/8/8/8[KQBBRRNNPPPPPPPPkqbbrrnnpppppppp] w - - 0 1",
    "cheversi": "8/8/8/8/8/8/8/8[KQRRBBNNkqrrbbnn] w - - 0 1",
}
# Order in which hands are written back out (matches the start FENs of the brief).
HAND_ORDER = {
    "coverage": "KQBRNP",
    "coverage-weighted": "KQBRNP",
    "cheversi": "KQRBN",
}
# C13 control values.
CONTROL_VALUE = {"K": 6, "P": 5, "B": 4, "R": 3, "N": 2, "Q": 1}


# ----------------------------------------------------------------------------------------------
# Squares and tables
# ----------------------------------------------------------------------------------------------

def square_name(sq):
    """Name of square index `sq` (a1 = 0 ... h8 = 63)."""
    return FILES[sq % 8] + str(sq // 8 + 1)


def parse_square(name):
    """Square index of a name like `e4`."""
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345678":
        raise ValueError(f"bad square {name!r}")
    return (int(name[1]) - 1) * 8 + FILES.index(name[0])


def _leaper_table(offsets):
    """For each square, the on-board squares reached by the given (file, rank) offsets (C5 leapers)."""
    table = []
    for sq in range(64):
        f, r = sq % 8, sq // 8
        table.append(tuple((r + dr) * 8 + f + df for df, dr in offsets
                           if 0 <= f + df < 8 and 0 <= r + dr < 8))
    return table


def _ray_table(directions):
    """For each square, one tuple of squares per direction, nearest first (C5 sliders)."""
    table = []
    for sq in range(64):
        rays = []
        for df, dr in directions:
            f, r = sq % 8 + df, sq // 8 + dr
            ray = []
            while 0 <= f < 8 and 0 <= r < 8:
                ray.append(r * 8 + f)
                f += df
                r += dr
            if ray:
                rays.append(tuple(ray))
        table.append(tuple(rays))
    return table


KING_STEPS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if df or dr]
KNIGHT_JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING_TABLE = _leaper_table(KING_STEPS)
KNIGHT_TABLE = _leaper_table(KNIGHT_JUMPS)
ROOK_RAYS = _ray_table([(1, 0), (-1, 0), (0, 1), (0, -1)])
BISHOP_RAYS = _ray_table([(1, 1), (1, -1), (-1, 1), (-1, -1)])
QUEEN_RAYS = tuple(ROOK_RAYS[sq] + BISHOP_RAYS[sq] for sq in range(64))
SLIDER_RAYS = {"R": ROOK_RAYS, "B": BISHOP_RAYS, "Q": QUEEN_RAYS}
NEIGHBOUR_MASK = [sum(1 << t for t in KING_TABLE[sq]) for sq in range(64)]


def colour_of(piece):
    """WHITE for an upper-case piece letter, BLACK for lower case."""
    return WHITE if piece.isupper() else BLACK


def is_dark(sq):
    """True for dark squares; a1 is dark (CH5)."""
    return (sq % 8 + sq // 8) % 2 == 0


# ----------------------------------------------------------------------------------------------
# Control (both games)
# ----------------------------------------------------------------------------------------------

def piece_control(board, sq):
    """Squares controlled by the piece on `sq`, as a list.

    C2/C4/C5/C8/C9 (and CH7 for the shared pieces): what the piece could move or capture to in chess
    right now, ignoring check. Kings and knights take their 8 targets minus own-occupied ones; sliders
    run until the first occupied square, which is included if enemy and excluded if own. Pawns: forward
    one if empty; from the owner's 2nd row also forward two if both are empty (rule b); diagonally
    forward only onto an enemy piece (C4); plus the en-passant square of C8. A pawn on its last row
    controls nothing (C3).
    """
    piece = board[sq]
    me = colour_of(piece)
    kind = piece.upper()
    out = []
    if kind == "K" or kind == "N":
        for t in (KING_TABLE if kind == "K" else KNIGHT_TABLE)[sq]:
            occ = board[t]
            if occ is None or colour_of(occ) != me:
                out.append(t)
        return out
    if kind in SLIDER_RAYS:
        for ray in SLIDER_RAYS[kind][sq]:
            for t in ray:
                occ = board[t]
                if occ is None:
                    out.append(t)
                    continue
                if colour_of(occ) != me:
                    out.append(t)
                break
        return out
    if kind == "P":
        f, r = sq % 8, sq // 8
        step = 1 if me == WHITE else -1
        second_row = 1 if me == WHITE else 6
        ahead = r + step
        if not 0 <= ahead < 8:
            return out  # C3: last row, controls nothing
        one = ahead * 8 + f
        if board[one] is None:
            out.append(one)
            if r == second_row:
                two = (r + 2 * step) * 8 + f
                if board[two] is None:
                    out.append(two)
        for df in (-1, 1):
            if 0 <= f + df < 8:
                diag = ahead * 8 + f + df
                occ = board[diag]
                if occ is not None and colour_of(occ) != me:
                    out.append(diag)
        # C8: enemy pawn on ITS owner's 4th row, my pawn beside it on the same rank,
        # the square it passed (behind it, from its own view) empty -> I control that square.
        enemy_fourth = 4 if me == WHITE else 3       # Black's 4th row = rank 5, White's = rank 4
        if r == enemy_fourth:
            enemy_pawn = "p" if me == WHITE else "P"
            behind_rank = r + step                    # rank 6 behind a Black pawn, rank 3 behind White's
            for df in (-1, 1):
                if 0 <= f + df < 8 and board[r * 8 + f + df] == enemy_pawn:
                    behind = behind_rank * 8 + f + df
                    if board[behind] is None and behind not in out:
                        out.append(behind)
        return out
    raise ValueError(f"unknown piece {piece!r}")


def control_masks(board):
    """Bitmasks (white, black) of the squares each colour controls (C4: union over its pieces)."""
    masks = [0, 0]
    for sq in range(64):
        if board[sq] is not None:
            m = 0
            for t in piece_control(board, sq):
                m |= 1 << t
            masks[colour_of(board[sq])] |= m
    return masks


# ----------------------------------------------------------------------------------------------
# Positions
# ----------------------------------------------------------------------------------------------

class Position:
    """Board (64 cells, piece letter or None), hands (per colour: dict letter -> count, upper case),
    side to move, and the history of drops played from this position's origin: (colour, kind, sq)."""

    __slots__ = ("board", "hands", "side", "history")

    def __init__(self, board, hands, side, history=()):
        self.board = board
        self.hands = hands
        self.side = side
        self.history = list(history)

    def copy(self):
        """An independent copy."""
        return Position(self.board[:], [dict(self.hands[0]), dict(self.hands[1])], self.side,
                        self.history)

    def hand_size(self, colour):
        """Number of unplaced pieces of `colour`."""
        return sum(self.hands[colour].values())

    def drop(self, kind, sq):
        """Play the drop `kind@sq` for the side to move (no legality check) and pass the turn."""
        me = self.side
        self.board[sq] = kind if me == WHITE else kind.lower()
        hand = self.hands[me]
        hand[kind] -= 1
        if hand[kind] == 0:
            del hand[kind]
        self.history.append((me, kind, sq))
        self.side = 1 - me


def parse_fen(fen):
    """Position from `BOARD[HAND] SIDE ...` (the board may also be written `.../8/[HAND]`)."""
    fen = fen.strip()
    if "[" not in fen:
        raise ValueError("FEN needs a [hand] part")
    board_part, rest = fen.split("[", 1)
    hand_part, rest = rest.split("]", 1)
    board_part = board_part.rstrip("/")
    fields = rest.split()
    side = WHITE if not fields or fields[0] == "w" else BLACK
    if fields and fields[0] not in ("w", "b"):
        raise ValueError(f"bad side {fields[0]!r}")
    ranks = board_part.split("/")
    if len(ranks) != 8:
        raise ValueError("board needs 8 ranks")
    board = [None] * 64
    for i, text in enumerate(ranks):
        r = 7 - i
        f = 0
        for ch in text:
            if ch.isdigit():
                f += int(ch)
            else:
                if ch.upper() not in "KQRBNP":
                    raise ValueError(f"bad piece {ch!r}")
                board[r * 8 + f] = ch
                f += 1
        if f != 8:
            raise ValueError(f"rank {r + 1} does not have 8 squares")
    hands = [{}, {}]
    for ch in hand_part:
        if ch.upper() not in "KQRBNP":
            raise ValueError(f"bad hand piece {ch!r}")
        h = hands[colour_of(ch)]
        h[ch.upper()] = h.get(ch.upper(), 0) + 1
    return Position(board, hands, side)


def to_fen(pos, game):
    """`BOARD[HAND] SIDE - - 0 1`, hands written White first in the order HAND_ORDER[game]."""
    rows = []
    for r in range(7, -1, -1):
        text, run = "", 0
        for f in range(8):
            p = pos.board[r * 8 + f]
            if p is None:
                run += 1
            else:
                if run:
                    text += str(run)
                    run = 0
                text += p
        if run:
            text += str(run)
        rows.append(text)
    order = HAND_ORDER[game]
    hand = "".join(k * pos.hands[WHITE].get(k, 0) for k in order)
    hand += "".join(k.lower() * pos.hands[BLACK].get(k, 0) for k in order)
    return "/".join(rows) + "[" + hand + "] " + ("w" if pos.side == WHITE else "b") + " - - 0 1"


# ----------------------------------------------------------------------------------------------
# Coverage
# ----------------------------------------------------------------------------------------------

def coverage_drop_squares(pos):
    """(legal square mask, own control mask) for the side to move.

    C7: a drop goes on any empty square not controlled by an opponent piece, no exception (rule c
    included). C3/C10: pawns may go on the 1st/last rows, bishops on either colour, so every type in
    hand shares the same squares.
    """
    masks = control_masks(pos.board)
    me = pos.side
    empty = 0
    for sq in range(64):
        if pos.board[sq] is None:
            empty |= 1 << sq
    return empty & ~masks[1 - me], masks[me]


def coverage_over(pos):
    """C11: the game is over before a turn when the mover has no legal drop (incl. an empty hand /
    both hands empty) or every legal drop is on a square he controls himself."""
    if not pos.hands[pos.side]:
        return True
    legal, own = coverage_drop_squares(pos)
    return legal == 0 or legal & ~own == 0


def coverage_moves(pos):
    """Legal drops (C7, C11): every type in hand on every legal square; none if the game is over."""
    if not pos.hands[pos.side]:
        return []
    legal, own = coverage_drop_squares(pos)
    if legal == 0 or legal & ~own == 0:
        return []
    squares = [sq for sq in range(64) if legal >> sq & 1]
    return [(k, sq) for k in pos.hands[pos.side] for sq in squares]


def coverage_move_count(pos):
    """Number of legal drops (perft bulk count), 0 when the game is over (C11)."""
    if not pos.hands[pos.side]:
        return 0
    legal, own = coverage_drop_squares(pos)
    if legal == 0 or legal & ~own == 0:
        return 0
    return len(pos.hands[pos.side]) * bin(legal).count("1")


def coverage_scores(pos):
    """C4/C6: every square (empty or occupied) controlled by exactly one colour scores 1 for it."""
    w, b = control_masks(pos.board)
    return [bin(w & ~b).count("1"), bin(b & ~w).count("1")]


def coverage_weighted_scores(pos):
    """C13: per square, the colour with more pieces controlling it takes it; equal counts -> higher
    sum of control values (K6 P5 B4 R3 N2 Q1); still equal -> nobody."""
    count = [[0] * 64, [0] * 64]
    value = [[0] * 64, [0] * 64]
    for sq in range(64):
        p = pos.board[sq]
        if p is None:
            continue
        c = colour_of(p)
        v = CONTROL_VALUE[p.upper()]
        for t in piece_control(pos.board, sq):
            count[c][t] += 1
            value[c][t] += v
    scores = [0, 0]
    for t in range(64):
        if count[0][t] != count[1][t]:
            scores[0 if count[0][t] > count[1][t] else 1] += 1
        elif value[0][t] != value[1][t]:
            scores[0 if value[0][t] > value[1][t] else 1] += 1
    return scores


def coverage_result(pos, scores):
    """C12: higher score wins; equal -> fewer unplaced pieces wins; else draw (winners [])."""
    if scores[0] != scores[1]:
        return [COLOUR_NAMES[0 if scores[0] > scores[1] else 1]]
    left = [pos.hand_size(WHITE), pos.hand_size(BLACK)]
    if left[0] != left[1]:
        return [COLOUR_NAMES[0 if left[0] < left[1] else 1]]
    return []


# ----------------------------------------------------------------------------------------------
# Cheversi
# ----------------------------------------------------------------------------------------------

def last_drop_of(pos, colour):
    """The most recent (colour, kind, sq) drop of `colour` in the known history, or None."""
    for entry in reversed(pos.history):
        if entry[0] == colour:
            return entry
    return None


def cheversi_base_moves(pos):
    """Cheversi drops for the side to move without the lookahead of CH4.

    n = pieces already placed by the mover + 1 (hands start with 8).
      CH3: White's 1st placement is the King (anywhere); Black's King not before his 8th placement.
      CH1/CH2: with any piece on the board, the drop touches (8-neighbourhood) a piece of either colour.
      CH4: Black's King touches the square of White's last-placed piece.
      CH5: a bishop goes on the other square colour than the side's bishop already on the board.
      CH6: if the opponent's last action placed his Queen and the mover holds his Queen, he places it;
           Black at his 7th placement holding his Queen places it.
    """
    me = pos.side
    hand = pos.hands[me]
    if not hand:
        return []
    n = 8 - sum(hand.values()) + 1
    kinds = sorted(hand)
    if me == WHITE and n == 1:
        kinds = [k for k in kinds if k == "K"]
    if me == BLACK and n < 8:
        kinds = [k for k in kinds if k != "K"]
    if "Q" in hand:
        last = pos.history[-1] if pos.history else None
        called = last is not None and last[0] != me and last[1] == "Q"
        if called or (me == BLACK and n == 7):
            kinds = ["Q"]
    if not kinds:
        return []
    board = pos.board
    occupied = 0
    for sq in range(64):
        if board[sq] is not None:
            occupied |= 1 << sq
    empties = [sq for sq in range(64) if board[sq] is None]
    if occupied:
        empties = [sq for sq in empties if NEIGHBOUR_MASK[sq] & occupied]
    own_bishop = "B" if me == WHITE else "b"
    moves = []
    for k in kinds:
        targets = empties
        if k == "K" and me == BLACK:
            last_white = last_drop_of(pos, WHITE)
            if last_white is not None:
                targets = [sq for sq in targets if NEIGHBOUR_MASK[sq] >> last_white[2] & 1]
        elif k == "B":
            colours = {is_dark(sq) for sq in range(64) if board[sq] == own_bishop}
            targets = [sq for sq in targets if is_dark(sq) not in colours]
        moves.extend((k, sq) for sq in targets)
    return moves


def cheversi_opponent_can_answer(pos, kind, sq):
    """CH4 lookahead: after `kind@sq`, an opponent who still holds pieces has a (base) legal drop."""
    after = pos.copy()
    after.drop(kind, sq)
    if not after.hands[after.side]:
        return True
    return bool(cheversi_base_moves(after))


def cheversi_moves(pos):
    """Legal Cheversi drops: the base rules filtered by the CH4 lookahead. None once both hands are
    empty (CH8); also none (the game stops) if the mover has no legal drop left."""
    return [m for m in cheversi_base_moves(pos) if cheversi_opponent_can_answer(pos, *m)]


def cheversi_scores(pos):
    """CH7: each EMPTY square gives 1 point to a side per piece of that side attacking it; lines are
    blocked by any piece; a square may score for both sides."""
    scores = [0, 0]
    board = pos.board
    for sq in range(64):
        p = board[sq]
        if p is None:
            continue
        c = colour_of(p)
        for t in piece_control(board, sq):
            if board[t] is None:
                scores[c] += 1
    return scores


def cheversi_result(pos, scores):
    """CH7: higher total wins; equal totals draw (winners [])."""
    if scores[0] == scores[1]:
        return []
    return [COLOUR_NAMES[0 if scores[0] > scores[1] else 1]]


# ----------------------------------------------------------------------------------------------
# Game dispatch, perft, CLI
# ----------------------------------------------------------------------------------------------

def legal_moves(game, pos):
    """Legal drops of `pos` as (kind, sq) pairs, empty when the game is over."""
    return cheversi_moves(pos) if game == "cheversi" else coverage_moves(pos)


def game_over(game, pos):
    """True when the game has ended (C11 / CH8)."""
    if game == "cheversi":
        return not cheversi_moves(pos)
    return coverage_over(pos)


def scores_of(game, pos):
    """[white, black] scores by the game's scoring rule (C6, C13 or CH7)."""
    if game == "coverage":
        return coverage_scores(pos)
    if game == "coverage-weighted":
        return coverage_weighted_scores(pos)
    return cheversi_scores(pos)


def result_of(game, pos):
    """None while the game goes on, else {"winners": [...], "reason": "score"}."""
    if not game_over(game, pos):
        return None
    scores = scores_of(game, pos)
    winners = cheversi_result(pos, scores) if game == "cheversi" else coverage_result(pos, scores)
    return {"winners": winners, "reason": "score"}


def move_text(move):
    """`X@sq` for a (kind, sq) drop."""
    return move[0] + "@" + square_name(move[1])


def parse_move(text):
    """(kind, sq) from `X@sq` (the letter is taken case-insensitively)."""
    if len(text) != 4 or text[1] != "@":
        raise ValueError(f"bad drop {text!r}")
    return text[0].upper(), parse_square(text[2:])


def perft(game, pos, depth):
    """Leaf count of the legal action tree to `depth`; a finished game is a leaf (counts 1)."""
    if depth == 0:
        return 1
    if depth == 1 and game != "cheversi":
        n = coverage_move_count(pos)
        return n if n else 1
    moves = legal_moves(game, pos)
    if not moves:
        return 1
    total = 0
    for kind, sq in moves:
        child = pos.copy()
        child.drop(kind, sq)
        total += perft(game, child, depth - 1)
    return total


def setup(game, fen, play):
    """Position from `fen` (or the game's start) after the drops in `play`, each checked legal."""
    pos = parse_fen(fen or START_FEN[game])
    for text in (play or "").split():
        move = parse_move(text)
        if move not in legal_moves(game, pos):
            raise SystemExit(f"illegal drop {text} in {to_fen(pos, game)}")
        pos.drop(*move)
    return pos


def show(game, pos):
    """The `show` JSON object of a position."""
    scores = scores_of(game, pos)
    return {
        "fen": to_fen(pos, game),
        "legal_moves": sorted(move_text(m) for m in legal_moves(game, pos)),
        "scores": {"white": scores[0], "black": scores[1]},
        "result": result_of(game, pos),
    }


def random_game(game, seed):
    """A uniformly random legal game from the start: (drops, final position)."""
    rng = random.Random(seed)
    pos = parse_fen(START_FEN[game])
    played = []
    while True:
        moves = sorted(move_text(m) for m in legal_moves(game, pos))
        if not moves:
            return played, pos
        text = rng.choice(moves)
        played.append(text)
        pos.drop(*parse_move(text))


# ----------------------------------------------------------------------------------------------
# Self-check
# ----------------------------------------------------------------------------------------------

def _controlled_names(fen, sq_name):
    """Names of the squares controlled by the piece on `sq_name` in `fen` (sorted)."""
    pos = parse_fen(fen)
    return sorted(square_name(t) for t in piece_control(pos.board, parse_square(sq_name)))


def selfcheck():
    """Hand-checked positions, perft 1-2 of every game and a few random games."""
    ok = True

    def expect(label, got, want):
        nonlocal ok
        good = got == want
        ok &= good
        print(("ok   " if good else "FAIL ") + label + ": " + repr(got) + ("" if good else f" != {want!r}"))

    empty_hand = "[] w - - 0 1"
    expect("R a1 alone controls 14", len(_controlled_names("8/8/8/8/8/8/8/R7" + empty_hand, "a1")), 14)
    expect("P e2 alone", _controlled_names("8/8/8/8/8/8/4P3/8" + empty_hand, "e2"), ["e3", "e4"])
    expect("P e2, e4 blocked", _controlled_names("8/8/8/8/4p3/8/4P3/8" + empty_hand, "e2"), ["e3"])
    expect("P e2, e3 blocked", _controlled_names("8/8/8/8/8/4n3/4P3/8" + empty_hand, "e2"), [])
    expect("P e3 not 2nd row", _controlled_names("8/8/8/8/8/4P3/8/8" + empty_hand, "e3"), ["e4"])
    expect("P e2 diagonal enemy", _controlled_names("8/8/8/8/8/3n1N2/4P3/8" + empty_hand, "e2"),
           ["d3", "e3", "e4"])
    expect("C8 P e5 vs p d5", _controlled_names("8/8/8/3pP3/8/8/8/8" + empty_hand, "e5"), ["d6", "e6"])
    expect("C8 p d4 vs P e4", _controlled_names("8/8/8/8/3pP3/8/8/8" + empty_hand, "d4"), ["d3", "e3"])
    expect("C8 needs behind empty", _controlled_names("8/8/3N4/3pP3/8/8/8/8" + empty_hand, "e5"), ["e6"])
    expect("C8 enemy behind", _controlled_names("8/8/3n4/3pP3/8/8/8/8" + empty_hand, "e5"),
           ["d6", "e6"])  # d6 holds an enemy knight: captured diagonally, not via C8
    expect("C8 not for P on 4th", _controlled_names("8/8/8/8/3pP3/8/8/8" + empty_hand, "e4"), ["e5"])
    expect("P last row", _controlled_names("4P3/8/8/8/8/8/8/8" + empty_hand, "e8"), [])
    expect("p e7 black", _controlled_names("8/4p3/8/8/8/8/8/8" + empty_hand, "e7"), ["e5", "e6"])
    expect("N a1 own b3", _controlled_names("8/8/8/8/8/1P6/8/N7" + empty_hand, "a1"), ["c2"])
    expect("B c1 enemy e3", _controlled_names("8/8/8/8/8/4n3/8/2B5" + empty_hand, "c1"),
           ["a3", "b2", "d2", "e3"])
    pos = parse_fen("8/8/8/8/8/8/8/R7" + empty_hand)
    expect("coverage score R a1", coverage_scores(pos), [14, 0])
    pos = parse_fen("8/8/8/8/8/8/8/Rr6" + empty_hand)
    expect("coverage score R a1 r b1", coverage_scores(pos), [8, 14])  # R: b1 + a2-a8; r: a1, c1-h1, b2-b8
    pos = parse_fen("8/8/8/8/8/8/8/8[Kk] w - - 0 1")
    pos.drop("K", parse_square("d4"))
    expect("coverage black avoids K d4", len(coverage_moves(pos)), 64 - 1 - 8)

    pos = parse_fen("8/8/8/8/8/8/8/8[p] w - - 0 1")
    expect("C11 empty hand ends, C12 fewer unplaced wins", result_of("coverage", pos),
           {"winners": ["white"], "reason": "score"})
    pos = parse_fen("8/8/8/8/8/8/8/8[Pp] w - - 0 1")
    expect("C12 draw", (coverage_scores(pos), coverage_result(pos, [0, 0])), ([0, 0], []))
    # C11 self-block (end of random coverage game, seed 1): Black's one legal square is his own.
    pos = parse_fen("Ppp1B1N1/4Q2P/N1PP3P/K4p1P/1R1b1k2/p1pr1Bqn/r1b4n/5R2[PPppp] b - - 0 1")
    legal, own = coverage_drop_squares(pos)
    expect("C11 self-block ends", (legal != 0, legal & ~own, coverage_over(pos)), (True, 0, True))
    pos = parse_fen("8/8/8/8/8/8/8/8[KQRRBBNNkqrrbbnn] w - - 0 1")
    pos.history = []
    expect("CH3 first White drop is K", len(cheversi_moves(pos)), 64)
    pos = setup("cheversi", None, "K@d4 Q@e5")
    expect("CH6 queen call", sorted({m[0] for m in cheversi_moves(pos)}), ["Q"])
    pos = setup("cheversi", None, "K@a1 B@b2 B@a2")
    expect("CH5 second bishop on light squares only",
           {is_dark(sq) for k, sq in cheversi_moves(pos) if k == "B"}, {False})

    for game in ("coverage", "coverage-weighted", "cheversi"):
        for depth in (1, 2):
            start = time.time()
            n = perft(game, parse_fen(START_FEN[game]), depth)
            print(f"     perft {game} {depth}: {n} ({time.time() - start:.2f}s)")
        for seed in (1, 2, 3):
            drops, pos = random_game(game, seed)
            print(f"     random {game} seed {seed}: {len(drops)} drops, scores {scores_of(game, pos)}, "
                  f"result {result_of(game, pos)}")
    print("selfcheck " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def verify(path):
    """The `verify` command: see the module docstring. Returns the exit code."""
    problems = []
    games = positions = 0

    def differ(where, what, ours, theirs):
        problems.append(f"{where}: {what} differ\n  claimed: {ours}\n  oracle:  {theirs}")

    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            claim = json.loads(line)
            game = claim["game"]
            history = claim["history"]
            if len(claim["positions"]) != len(history) + 1:
                problems.append(f"line {number}: {len(claim['positions'])} positions for "
                                f"{len(history)} drops")
                continue
            pos = parse_fen(START_FEN[game])
            games += 1
            replayed = True
            for ply, stated in enumerate(claim["positions"]):
                where = f"line {number} ({game}) after {' '.join(history[:ply]) or 'no drop'}"
                positions += 1
                board = to_fen(pos, game).split("[")[0]
                if stated["board"] != board:
                    differ(where, "boards", stated["board"], board)
                side = "w" if pos.side == WHITE else "b"
                if stated["side"] != side:
                    differ(where, "sides to move", stated["side"], side)
                legal_list = legal_moves(game, pos)
                legal = sorted(move_text(m) for m in legal_list)
                if stated["moves"] is not None and (sorted(stated["moves"]) != legal
                                                    or len(stated["moves"]) != len(legal)):
                    differ(where, "legal drops", sorted(stated["moves"]), legal)
                masks = control_masks(pos.board)
                for colour, name in enumerate(COLOUR_NAMES):
                    mine = sorted(square_name(t) for t in range(64) if masks[colour] >> t & 1)
                    if sorted(stated["control"][name]) != mine:
                        differ(where, f"{name}'s controlled squares",
                               sorted(stated["control"][name]), mine)
                if ply == len(history):
                    break
                move = parse_move(history[ply])
                if move not in legal_list:
                    problems.append(f"{where}: {history[ply]} is not legal for the oracle")
                    replayed = False
                    break
                pos.drop(*move)
            if not replayed:
                continue
            scores = scores_of(game, pos)
            mine = {"white": scores[0], "black": scores[1]}
            where = f"line {number} ({game}) at the end"
            if claim["scores"] != mine:
                differ(where, "scores", claim["scores"], mine)
            result = result_of(game, pos)
            stated_result = claim["result"]
            if stated_result is not None:
                stated_result = {"winners": sorted(stated_result["winners"]),
                                 "reason": stated_result["reason"]}
            if stated_result != result:
                differ(where, "results", claim["result"], result)
    for problem in problems[:20]:
        print(problem)
    if problems:
        print(f"verify: {len(problems)} disagreements")
        return 1
    print(f"verify: {positions} positions of {games} games agree")
    return 0


def main(argv=None):
    """CLI entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    games = ("coverage", "coverage-weighted", "cheversi")
    p = sub.add_parser("perft")
    p.add_argument("game", choices=games)
    p.add_argument("depth", type=int)
    for name in ("moves", "show"):
        q = sub.add_parser(name)
        q.add_argument("game", choices=games)
    for q in (p, sub.choices["moves"], sub.choices["show"]):
        q.add_argument("--fen")
        q.add_argument("--play")
    r = sub.add_parser("random")
    r.add_argument("game", choices=games)
    r.add_argument("--seed", type=int, required=True)
    v = sub.add_parser("verify")
    v.add_argument("file")
    sub.add_parser("selfcheck")
    args = parser.parse_args(argv)

    if args.command == "selfcheck":
        return selfcheck()
    if args.command == "verify":
        return verify(args.file)
    if args.command == "random":
        drops, pos = random_game(args.game, args.seed)
        print(" ".join(drops))
        print(json.dumps(show(args.game, pos)))
        return 0
    pos = setup(args.game, args.fen, args.play)
    if args.command == "perft":
        print(f"Nodes searched: {perft(args.game, pos, args.depth)}")
    elif args.command == "moves":
        for text in sorted(move_text(m) for m in legal_moves(args.game, pos)):
            print(text)
    else:
        print(json.dumps(show(args.game, pos)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
