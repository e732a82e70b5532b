#!/usr/bin/env python3
"""Independent reference implementation ("oracle") of Takeover Chess and its sub-variants.

Written only from the rule text (`shared/rules/takeover-chess.txt`) and the Takeover section of the
rulings register (`shared/design/rulings.md`, T1-T18), FIDE chess where both are silent, and the
brief's notation contract. No engine code, game file, doc or test of the project was read. Plain
Python 3, standard library only.

Variants (--variant)
  takeover-chess                41-square board (T1, T2), no castling (T12)
  takeover-chess-undefended     41 squares, a takeover leg needs an undefended victim (T14, T15)
  takeover-chess-short-jump     41 squares, a slider's takeover lands just beyond the victim (T14)
  takeover-chess-free-setup     41 squares, free setup on the own first three ranks (T14)
  takeover-chess-64             8x8 FIDE array, Mirror-Knights b1/b8, Knights g1/g8 (T3), castling
  takeover-chess-64-undefended / -64-short-jump / -64-free-setup   the same options on 64 squares

CLI
  takeover_oracle.py moves  --variant V [--fen FEN] [--play "M1 M2 ..."]
  takeover_oracle.py perft  --variant V [--fen FEN] [--play ...] --depth N [--divide]
  takeover_oracle.py show   --variant V [--fen FEN] [--play ...]
  takeover_oracle.py random-games --variant V --games N --seed S [--max-plies P]
  An illegal move in --play or a bad FEN: message on stderr, exit status 1.

Interpretations taken (ruling ids in brackets)
 Board and setup
  * 41 squares: 7x7 a-g/1-7 minus a1 a2 g1 g2 a6 a7 g6 g7; a missing square stops every line: nothing
    lands on, passes or jumps over it [T1]. White K d1, Red mirrored across rank 4 [T2]. White moves
    first; Red is `b` in FEN.
  * 64 squares: FIDE array with Mirror-Knights b1/b8 and Knights g1/g8, FIDE castling [T3]; no castling
    on 41 squares [T12] and none in the free-setup variants (brief).
 Pieces
  * Knight N: a FIDE leap whose first step is the orthogonal square next to the start along the leap's
    long axis, then one diagonal step outward; Mirror-Knight M: first the diagonal step, then the
    orthogonal one. The first-step square must be on the board (it matters only on 41 squares, e.g. N
    a3-b1 is impossible because a2 is missing, M a3-b1 via b2 is fine), may hold anything, and only an
    enemy non-King piece there may be taken over [T4]. The landing square may be empty or enemy, never
    friendly [T6]. Takeover is optional: `e2c3` and `e2c3^d2` are two moves [T5]. With both a takeover
    and an enemy on the landing square the move takes over the first and captures the second [T6].
  * Sliders Q R B: ordinary FIDE moves and replacement captures. Takeover: the first piece on the line
    is an enemy non-King piece and the square just beyond exists and is empty; the slider lands there
    and may go on over empty squares (stopping anywhere) but cannot jump again nor capture by
    replacement in that move [T7]. Passing an enemy piece without taking it over does not exist [T5].
    Short-jump variant: only the square just beyond [T14].
  * King: FIDE steps and captures; takeover over an adjacent enemy non-King piece to the empty square
    just beyond on the same line, only when that piece is undefended (T15 sense) [T8]; the King must not
    be attacked afterwards (general check rule).
  * Pawn: FIDE steps/captures/en passant in its current owner's direction [T9]; double step from the
    current owner's 2nd rank only (rank 2 for White; rank 6 on 41 / rank 7 on 64 for Red), both squares
    empty [T10, T16]. Takeover: diagonally forward over an adjacent enemy non-King piece to the empty
    square beyond [T9]. No en-passant takeover [T9]. Promotion on the owner's far rank by any move,
    jumps included, to q r b n m [T11]. A pawn that stands on its far rank without having moved there
    (placed there in free setup, or converted there) simply cannot move forward; conversion never
    promotes.
  * A takeover flips the owner of the jumped piece where it stands; a converted pawn at once moves (and
    attacks) in its new owner's direction [T9, T16].
  * The King can never be taken over (rule text).
 Check and end of game
  * "Attack" (for check, castling and "defended") = an ordinary replacement capture: sliders along an
    empty line, knights by a leap whose first-step square is on the board (whatever it holds), pawns
    diagonally forward in their owner's direction, King adjacent. Takeovers and en passant never attack.
  * No action (move, takeover, placement) may leave the mover's own King attacked, conversions included;
    converted pieces attack for their new owner at once (so converting a checker can parry a check, and
    a takeover can give check) [T13].
  * "Defended" (King takeover; every takeover leg in the undefended variants) is judged on the position
    before the move: some other piece of the victim's owner attacks the victim's square in the sense
    above, pinned pieces and that side's King included, lines blocked by the moving piece as it stands
    [T15]. En passant is not a defence. In the undefended variants only the takeover leg is restricted,
    not a knight's second-leg replacement capture nor its plain leap [T15].
  * Castling (64, FIDE): king and rook on their original squares with the right kept, the squares
    between empty, the king not in check and not passing over or landing on an attacked square. A right
    is lost when its king or rook square is the from-square, to-square or takeover square of any move
    [T17]; a right lost is never regained. Castling is written as the king's move (e1g1); a King takeover
    over f1 would be written e1g1^f1 and is a different move.
  * Game end: no legal action -> checkmate if the side to move is in check, else stalemate (also in the
    setup phase) [T13]. Otherwise a halfmove clock >= 100 is a draw by the fifty-move rule, then a
    position occurring for the third time is a draw by repetition [T13]. A finished game has no legal
    moves. Checkmate takes precedence over the fifty-move rule.
  * Repetition compares board, side to move, castling rights, pieces in hand and the en-passant square
    only when an en-passant capture is actually legal (FIDE 9.2.3). History starts at the given/initial
    FEN and includes every position reached by --play (and, in perft, along the search path).
  * Halfmove clock: reset by pawn moves (double steps, promotions and pawn takeovers included), every
    capture (en passant and a knight's second-leg capture included) and every takeover [T18]; otherwise
    +1. Fullmove number: +1 after every Red action.
 Free setup (sub-variants)
  * White places its whole army, one piece per action (`N@c3`, upper-case type letter for both sides),
    then Red its whole army, then White makes the first move. After a placement the placer moves again
    while it still holds pieces, otherwise the other side is to move.
  * Zone: empty on-board squares of the placer's first three ranks (White 1-3; Red 5-7 on 41, 6-8 on 64);
    any type on any zone square, pawns on the first rank included. A placement may not leave the
    placer's King attacked (so the King cannot be placed on an attacked square) [T13].
  * A pawn placement resets the halfmove clock (a pawn move, as Fairy-Stockfish counts drops of pawns);
    other placements add 1. The en-passant field is '-' after a placement; the fullmove number goes up
    after each Red placement, exactly as after a Red move (so play starts at fullmove 13 on 41 squares,
    12 Red placements, and at 17 on 64 squares).
  * Hands are written after the board in brackets, White's pieces then Red's, each in the order
    K Q R B N M P; `[]` once all are placed (free-setup variants only).
 FEN
  * Ranks from the top, `*` for a missing square, digits for empty runs, castling field in KQkq order
    or '-', en-passant square after every double step, else '-'. Parsing is strict: `*` exactly on the
    missing squares, one King per side (board + hand), the side not to move not in check (except while
    the side to move is still placing), castling letters only in castling variants and only with king
    and rook at home, an en-passant square only on the right rank with the double-stepped enemy pawn in
    front of it and the square itself empty. Anything else is a bad FEN (exit 1).
 Outputs
  * Lists are sorted with Python's string order. perft prints `MOVE: COUNT` lines (with --divide), then
    `Nodes searched: N`. A finished game is a leaf only at depth 0.
  * random-games: game i (0-based) uses random.Random(S + i) and reports "seed": S + i; each ply picks
    rng.choice(sorted legal list); a game stops at its end or after --max-plies plies (default 300,
    result "none" if unfinished).
"""

import argparse
import json
import random
import sys
import time

PROMOS = "qrbnm"
HAND_ORDER = "KQRBNMP"
WHITE_SET = frozenset("KQRBNMP")
RED_SET = frozenset("kqrbnmp")
EMPTY = "."
OFF = "#"

NORMAL, EP, CASTLE, DROP = 0, 1, 2, 3


class BadInput(Exception):
    pass


# ------------------------------------------------------------------------------------------------
# Geometry
# ------------------------------------------------------------------------------------------------

class Geometry:
    def __init__(self, size):
        if size == 41:
            self.W = self.H = 7
            missing_names = ["a1", "a2", "g1", "g2", "a6", "a7", "g6", "g7"]
        else:
            self.W = self.H = 8
            missing_names = []
        W, H = self.W, self.H
        self.S = S = W + 4
        self.N = S * (H + 4)
        self.missing = set(self.idx("abcdefgh".index(n[0]), int(n[1]) - 1) for n in missing_names)
        self.squares = []  # on-board squares
        self.name = {}
        self.byname = {}
        for r in range(H):
            for f in range(W):
                i = self.idx(f, r)
                if i in self.missing:
                    continue
                self.squares.append(i)
                nm = "abcdefgh"[f] + str(r + 1)
                self.name[i] = nm
                self.byname[nm] = i
        self.onboard = frozenset(self.squares)
        self.ORTH = (S, -S, 1, -1)
        self.DIAG = (S + 1, S - 1, -S + 1, -S - 1)
        self.KING = self.ORTH + self.DIAG
        # leaps: (leap, knight first step (orthogonal), mirror-knight first step (diagonal))
        self.LEAPS = []
        for dx, dy in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (-2, 1), (2, -1), (-2, -1)):
            sx = (dx > 0) - (dx < 0)
            sy = (dy > 0) - (dy < 0)
            if abs(dy) == 2:
                orth = sy * S
            else:
                orth = sx
            diag = sy * S + sx
            self.LEAPS.append((dy * S + dx, orth, diag))

    def idx(self, f, r):
        return (r + 2) * self.S + f + 2

    def rank(self, i):
        return i // self.S - 2

    def file(self, i):
        return i % self.S - 2

    def empty_board(self):
        b = [OFF] * self.N
        for i in self.squares:
            b[i] = EMPTY
        return b


VARIANTS = {
    "takeover-chess": (41, ""),
    "takeover-chess-undefended": (41, "undefended"),
    "takeover-chess-short-jump": (41, "short"),
    "takeover-chess-free-setup": (41, "setup"),
    "takeover-chess-64": (64, ""),
    "takeover-chess-64-undefended": (64, "undefended"),
    "takeover-chess-64-short-jump": (64, "short"),
    "takeover-chess-64-free-setup": (64, "setup"),
}

START_41 = "*rbkqb*/*pmpnp*/2p1p2/7/2P1P2/*PMPNP*/*RBKQB* w - - 0 1"
START_64 = "rmbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBNR w KQkq - 0 1"
SETUP_41 = "*5*/*5*/7/7/7/*5*/*5*[KQRBBNMPPPPPkqrbbnmppppp] w - - 0 1"
SETUP_64 = "8/8/8/8/8/8/8/8[KQRRBBNMPPPPPPPPkqrrbbnmpppppppp] w - - 0 1"


class Variant:
    def __init__(self, name):
        if name not in VARIANTS:
            raise BadInput("unknown variant %r (known: %s)" % (name, ", ".join(sorted(VARIANTS))))
        size, opt = VARIANTS[name]
        self.name = name
        self.g = Geometry(size)
        self.undefended = opt == "undefended"
        self.short = opt == "short"
        self.setup = opt == "setup"
        self.castling = size == 64 and not self.setup
        g = self.g
        H = g.H
        if self.setup:
            self.start_fen = SETUP_41 if size == 41 else SETUP_64
        else:
            self.start_fen = START_41 if size == 41 else START_64
        # per colour (True = White): pawn direction, 2nd rank, promotion rank, setup ranks
        self.pdir = {True: g.S, False: -g.S}
        self.second = {True: 1, False: H - 2}
        self.last = {True: H - 1, False: 0}
        zone_ranks = {True: (0, 1, 2), False: (H - 3, H - 2, H - 1)}
        self.zone = {c: [i for i in g.squares if g.rank(i) in zone_ranks[c]] for c in (True, False)}
        # castling data (64 only): right letter -> (king sq, rook sq, king to, rook to, empty, safe)
        self.cast = {}
        self.cast_mask = {}
        if self.castling:
            sq = g.byname
            for white, suffix in ((True, "1"), (False, "8")):
                K, Q = ("K", "Q") if white else ("k", "q")
                e, h, a = sq["e" + suffix], sq["h" + suffix], sq["a" + suffix]
                self.cast[K] = (e, h, sq["g" + suffix], sq["f" + suffix],
                                [sq["f" + suffix], sq["g" + suffix]], [sq["f" + suffix], sq["g" + suffix]])
                self.cast[Q] = (e, a, sq["c" + suffix], sq["d" + suffix],
                                [sq["b" + suffix], sq["c" + suffix], sq["d" + suffix]],
                                [sq["d" + suffix], sq["c" + suffix]])
            for r, (k, rk, _, _, _, _) in self.cast.items():
                self.cast_mask.setdefault(k, set()).add(r)
                self.cast_mask.setdefault(rk, set()).add(r)


# ------------------------------------------------------------------------------------------------
# Attacks
# ------------------------------------------------------------------------------------------------

def attacked(V, b, sq, by_white):
    """Is square sq attacked (ordinary replacement capture) by a piece of colour by_white?"""
    g = V.g
    S = g.S
    if by_white:
        P, N, M, B, R, Q, K = "PNMBRQK"
        if b[sq - S - 1] == P or b[sq - S + 1] == P:
            return True
    else:
        P, N, M, B, R, Q, K = "pnmbrqk"
        if b[sq + S - 1] == P or b[sq + S + 1] == P:
            return True
    for d in g.KING:
        if b[sq + d] == K:
            return True
    for leap, orth, diag in g.LEAPS:
        src = sq - leap
        c = b[src]
        if c == N:
            if b[src + orth] != OFF:
                return True
        elif c == M:
            if b[src + diag] != OFF:
                return True
    for d in g.ORTH:
        t = sq + d
        while b[t] == EMPTY:
            t += d
        c = b[t]
        if c == R or c == Q:
            return True
    for d in g.DIAG:
        t = sq + d
        while b[t] == EMPTY:
            t += d
        c = b[t]
        if c == B or c == Q:
            return True
    return False


def find_king(b, white):
    try:
        return b.index("K" if white else "k")
    except ValueError:
        return -1


# ------------------------------------------------------------------------------------------------
# Position
# ------------------------------------------------------------------------------------------------

class Pos:
    __slots__ = ("V", "b", "white", "castling", "ep", "half", "full", "hands", "_key", "_legal")

    def __init__(self, V, b, white, castling, ep, half, full, hands):
        self.V = V
        self.b = b
        self.white = white
        self.castling = castling  # string in KQkq order
        self.ep = ep  # square index or -1
        self.half = half
        self.full = full
        self.hands = hands  # None, or {True: {type: n}, False: {...}}
        self._key = None
        self._legal = None

    # -- FEN --------------------------------------------------------------------------------------
    def fen(self):
        g = self.V.g
        rows = []
        for r in range(g.H - 1, -1, -1):
            s = ""
            run = 0
            for f in range(g.W):
                c = self.b[g.idx(f, r)]
                if c == EMPTY:
                    run += 1
                    continue
                if run:
                    s += str(run)
                    run = 0
                s += "*" if c == OFF else c
            if run:
                s += str(run)
            rows.append(s)
        board = "/".join(rows)
        if self.V.setup:
            h = ""
            for white in (True, False):
                for t in HAND_ORDER:
                    n = self.hands[white].get(t, 0)
                    h += (t if white else t.lower()) * n
            board += "[" + h + "]"
        return "%s %s %s %s %d %d" % (board, "w" if self.white else "b", self.castling or "-",
                                      g.name[self.ep] if self.ep >= 0 else "-", self.half, self.full)

    def hand_count(self, white):
        if self.hands is None:
            return 0
        return sum(self.hands[white].values())

    def placing(self):
        return self.hands is not None and self.hand_count(self.white) > 0

    def in_check(self):
        k = find_king(self.b, self.white)
        return k >= 0 and attacked(self.V, self.b, k, not self.white)

    # -- move generation --------------------------------------------------------------------------
    def pseudo(self):
        """Pseudo-legal actions (own King safety not yet checked)."""
        V = self.V
        g = V.g
        b = self.b
        us = self.white
        moves = []
        add = moves.append
        if self.placing():
            for t in HAND_ORDER:
                if self.hands[us].get(t, 0) > 0:
                    for sq in V.zone[us]:
                        if b[sq] == EMPTY:
                            add((t, sq, None, -1, DROP))
            return moves
        own = WHITE_SET if us else RED_SET
        enemy = RED_SET if us else WHITE_SET
        eking = "k" if us else "K"
        undef = V.undefended
        S = g.S

        def victim_ok(t):
            # takeover-leg condition of the undefended variants [T14, T15]
            return not undef or not attacked(V, b, t, not us)

        for sq in g.squares:
            c = b[sq]
            if c not in own:
                continue
            p = c.upper()
            if p == "P":
                d = V.pdir[us]
                last = V.last[us]

                def addp(frm, to, tk, flag=NORMAL):
                    if g.rank(to) == last:
                        for pr in PROMOS:
                            add((frm, to, pr, tk, flag))
                    else:
                        add((frm, to, None, tk, flag))

                f1 = sq + d
                if b[f1] == EMPTY:
                    addp(sq, f1, -1)
                    if g.rank(sq) == V.second[us] and b[f1 + d] == EMPTY:
                        add((sq, f1 + d, None, -1, NORMAL))
                for dx in (-1, 1):
                    t = sq + d + dx
                    ct = b[t]
                    if ct in enemy:
                        if ct != eking:
                            addp(sq, t, -1)
                            u = t + d + dx
                            if b[u] == EMPTY and victim_ok(t):
                                addp(sq, u, t)
                    elif t == self.ep and ct == EMPTY and b[sq + dx] in enemy and b[sq + dx].upper() == "P":
                        add((sq, t, None, -1, EP))
            elif p == "N" or p == "M":
                knight = p == "N"
                for leap, orth, diag in g.LEAPS:
                    first = sq + (orth if knight else diag)
                    cf = b[first]
                    if cf == OFF:
                        continue
                    to = sq + leap
                    ct = b[to]
                    if ct == OFF or ct in own or ct == eking:
                        continue
                    add((sq, to, None, -1, NORMAL))
                    if cf in enemy and cf != eking and victim_ok(first):
                        add((sq, to, None, first, NORMAL))
            elif p == "K":
                for d in g.KING:
                    t = sq + d
                    ct = b[t]
                    if ct == EMPTY:
                        add((sq, t, None, -1, NORMAL))
                    elif ct in enemy and ct != eking:
                        add((sq, t, None, -1, NORMAL))
                        u = t + d
                        # King takeover: always needs an undefended victim [T8, T15]
                        if b[u] == EMPTY and not attacked(V, b, t, not us):
                            add((sq, u, None, t, NORMAL))
                if self.castling:
                    for r in (("K", "Q") if us else ("k", "q")):
                        if r not in self.castling:
                            continue
                        k, rk, kto, rto, between, safe = V.cast[r]
                        if sq != k or b[rk] != ("R" if us else "r"):
                            continue
                        if any(b[x] != EMPTY for x in between):
                            continue
                        if attacked(V, b, k, not us):
                            continue
                        # the landing square is checked by the general legality test
                        if any(attacked(V, b, x, not us) for x in safe if x != kto):
                            continue
                        add((sq, kto, None, -1, CASTLE))
            else:
                dirs = g.ORTH if p == "R" else g.DIAG if p == "B" else g.KING
                for d in dirs:
                    t = sq + d
                    while b[t] == EMPTY:
                        add((sq, t, None, -1, NORMAL))
                        t += d
                    ct = b[t]
                    if ct in enemy and ct != eking:
                        add((sq, t, None, -1, NORMAL))
                        u = t + d
                        if b[u] == EMPTY and victim_ok(t):
                            add((sq, u, None, t, NORMAL))
                            if not V.short:
                                u += d
                                while b[u] == EMPTY:
                                    add((sq, u, None, t, NORMAL))
                                    u += d
        return moves

    def board_after(self, m):
        frm, to, pr, tk, flag = m
        b = self.b[:]
        us = self.white
        if flag == DROP:
            b[to] = frm if us else frm.lower()
            return b
        pc = b[frm]
        if tk >= 0:
            b[tk] = b[tk].swapcase()
        if flag == EP:
            b[to - self.V.pdir[us]] = EMPTY
        b[frm] = EMPTY
        if pr:
            b[to] = pr.upper() if us else pr
        else:
            b[to] = pc
        if flag == CASTLE:
            for r in (("K", "Q") if us else ("k", "q")):
                k, rk, kto, rto, _, _ = self.V.cast[r]
                if kto == to:
                    b[rk] = EMPTY
                    b[rto] = "R" if us else "r"
        return b

    def legal(self):
        """Legal actions ignoring draws by rule (fifty moves / repetition)."""
        if self._legal is not None:
            return self._legal
        us = self.white
        ksq = find_king(self.b, us)
        out = []
        for m in self.pseudo():
            b = self.board_after(m)
            if m[4] == DROP:
                k = m[1] if m[0] == "K" else ksq
            elif self.b[m[0]] in "Kk":
                k = m[1]
            else:
                k = ksq
            if k >= 0 and attacked(self.V, b, k, not us):
                continue
            out.append(m)
        self._legal = out
        return out

    def move_str(self, m):
        frm, to, pr, tk, flag = m
        g = self.V.g
        if flag == DROP:
            return frm + "@" + g.name[to]
        s = g.name[frm] + g.name[to] + (pr or "")
        if tk >= 0:
            s += "^" + g.name[tk]
        return s

    def play(self, m):
        V = self.V
        frm, to, pr, tk, flag = m
        us = self.white
        b = self.board_after(m)
        hands = self.hands
        castling = self.castling
        ep = -1
        if flag == DROP:
            hands = {True: dict(self.hands[True]), False: dict(self.hands[False])}
            hands[us][frm] -= 1
            half = 0 if frm == "P" else self.half + 1
            nxt = us if sum(hands[us].values()) > 0 else (not us)
        else:
            pc = self.b[frm]
            capture = flag == EP or self.b[to] != EMPTY and flag != CASTLE
            pawn = pc in "Pp"
            half = 0 if (pawn or capture or tk >= 0) else self.half + 1
            if pawn and abs(to - frm) == 2 * V.g.S:
                ep = (to + frm) // 2
            if castling:
                lost = set()
                for x in (frm, to, tk):
                    lost |= V.cast_mask.get(x, set())
                castling = "".join(r for r in castling if r not in lost)
            nxt = not us
        full = self.full + (0 if us else 1)
        return Pos(V, b, nxt, castling, ep, half, full, hands)

    def key(self):
        if self._key is None:
            ep = -1
            if self.ep >= 0 and any(m[4] == EP for m in self.legal()):
                ep = self.ep
            hk = ""
            if self.hands is not None:
                hk = repr(sorted(self.hands[True].items())) + repr(sorted(self.hands[False].items()))
            self._key = ("".join(self.b), self.white, self.castling, ep, hk)
        return self._key


# ------------------------------------------------------------------------------------------------
# FEN parsing
# ------------------------------------------------------------------------------------------------

def parse_fen(V, fen):
    g = V.g
    parts = fen.split()
    if len(parts) not in (4, 6):
        raise BadInput("FEN needs 4 or 6 fields: %r" % fen)
    board = parts[0]
    hands = None
    if "[" in board:
        if not V.setup:
            raise BadInput("pieces in hand are only allowed in free-setup variants")
        if not board.endswith("]") or board.count("[") != 1:
            raise BadInput("bad hand field in %r" % board)
        board, htxt = board[:-1].split("[")
        hands = {True: {}, False: {}}
        for ch in htxt:
            if ch.upper() not in HAND_ORDER:
                raise BadInput("bad piece in hand %r" % ch)
            w = ch.isupper()
            hands[w][ch.upper()] = hands[w].get(ch.upper(), 0) + 1
    elif V.setup:
        raise BadInput("free-setup FEN needs a [hand] field (may be [])")
    rows = board.split("/")
    if len(rows) != g.H:
        raise BadInput("FEN board needs %d ranks" % g.H)
    b = g.empty_board()
    for ri, row in enumerate(rows):
        r = g.H - 1 - ri
        f = 0
        for ch in row:
            if ch.isdigit():
                n = int(ch)
                if n == 0:
                    raise BadInput("bad digit in FEN")
                for _ in range(n):
                    if f >= g.W or g.idx(f, r) in g.missing:
                        raise BadInput("empty run over a missing square or past the rank in %r" % row)
                    f += 1
            elif ch == "*":
                if f >= g.W or g.idx(f, r) not in g.missing:
                    raise BadInput("'*' on an existing square in %r" % row)
                f += 1
            elif ch.upper() in HAND_ORDER:
                if f >= g.W or g.idx(f, r) in g.missing:
                    raise BadInput("piece on a missing square or past the rank in %r" % row)
                b[g.idx(f, r)] = ch
                f += 1
            else:
                raise BadInput("bad character %r in FEN" % ch)
        if f != g.W:
            raise BadInput("rank %r does not have %d squares" % (row, g.W))
    if parts[1] not in ("w", "b"):
        raise BadInput("bad side to move %r" % parts[1])
    white = parts[1] == "w"
    # kings
    for w in (True, False):
        n = b.count("K" if w else "k") + (hands[w].get("K", 0) if hands else 0)
        if n != 1:
            raise BadInput("%s must have exactly one King" % ("White" if w else "Red"))
    # setup phase consistency
    if hands is not None:
        wh = sum(hands[True].values())
        rh = sum(hands[False].values())
        if wh > 0 and not white:
            raise BadInput("Red cannot act while White still has pieces to place")
        if wh == 0 and rh > 0 and white:
            raise BadInput("White cannot move while Red still has pieces to place")
    # castling
    cast = parts[2]
    if cast == "-":
        cast = ""
    else:
        if not V.castling:
            raise BadInput("no castling in this variant")
        for ch in cast:
            if ch not in "KQkq" or cast.count(ch) > 1:
                raise BadInput("bad castling field %r" % parts[2])
        for ch in cast:
            k, rk = V.cast[ch][0], V.cast[ch][1]
            w = ch.isupper()
            if b[k] != ("K" if w else "k") or b[rk] != ("R" if w else "r"):
                raise BadInput("castling right %s without king and rook at home" % ch)
        cast = "".join(ch for ch in "KQkq" if ch in cast)
    # en passant
    ep = -1
    if parts[3] != "-":
        if parts[3] not in g.byname:
            raise BadInput("bad en-passant square %r" % parts[3])
        ep = g.byname[parts[3]]
        them = not white
        d = V.pdir[them]
        pawn_sq = ep + d
        if (g.rank(ep) != V.second[them] + (1 if them else -1) or b[ep] != EMPTY
                or b[pawn_sq] != ("P" if them else "p") or b[ep - d] != EMPTY):
            raise BadInput("impossible en-passant square %r" % parts[3])
    half, full = 0, 1
    if len(parts) == 6:
        try:
            half, full = int(parts[4]), int(parts[5])
        except ValueError:
            raise BadInput("bad move counters")
        if half < 0 or full < 1:
            raise BadInput("bad move counters")
    pos = Pos(V, b, white, cast, ep, half, full, hands)
    # the side not to move must not be in check (unless the side to move is still placing pieces)
    if not pos.placing():
        k = find_king(b, not white)
        if k >= 0 and attacked(V, b, k, white):
            raise BadInput("the side not to move is in check")
    return pos


# ------------------------------------------------------------------------------------------------
# Game with history
# ------------------------------------------------------------------------------------------------

class Game:
    def __init__(self, V, fen=None):
        self.V = V
        self.pos = parse_fen(V, fen or V.start_fen)
        self.hist = {}
        self._count(self.pos, 1)

    def _count(self, p, n):
        k = p.key()
        self.hist[k] = self.hist.get(k, 0) + n

    def over_by_rule(self, p):
        return p.half >= 100 or self.hist.get(p.key(), 0) >= 3

    def legal(self, p=None):
        p = p or self.pos
        if self.over_by_rule(p):
            return []
        return p.legal()

    def legal_strs(self):
        p = self.pos
        return sorted(p.move_str(m) for m in self.legal(p))

    def push_str(self, s):
        p = self.pos
        for m in self.legal(p):
            if p.move_str(m) == s:
                self.push(m)
                return
        raise BadInput("illegal move %r in position %s" % (s, p.fen()))

    def push(self, m):
        self.pos = self.pos.play(m)
        self._count(self.pos, 1)

    def result(self):
        p = self.pos
        if not p.legal():
            if p.in_check():
                return "%s wins by checkmate" % ("red" if p.white else "white")
            return "draw by stalemate"
        if p.half >= 100:
            return "draw by fifty-move rule"
        if self.hist.get(p.key(), 0) >= 3:
            return "draw by repetition"
        return "none"

    def perft(self, depth, p=None):
        p = p or self.pos
        if depth == 0:
            return 1
        moves = self.legal(p)
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:
            q = p.play(m)
            self._count(q, 1)
            total += self.perft(depth - 1, q)
            self._count(q, -1)
        return total


# ------------------------------------------------------------------------------------------------
# CLI
# ------------------------------------------------------------------------------------------------

def make_game(args):
    V = Variant(args.variant)
    game = Game(V, args.fen)
    if args.play:
        for s in args.play.split():
            game.push_str(s)
    return game


def cmd_moves(args):
    game = make_game(args)
    for s in game.legal_strs():
        print(s)


def cmd_perft(args):
    game = make_game(args)
    t0 = time.time()
    if args.divide and args.depth >= 1:
        p = game.pos
        rows = []
        total = 0
        for m in game.legal(p):
            q = p.play(m)
            game._count(q, 1)
            n = game.perft(args.depth - 1, q)
            game._count(q, -1)
            rows.append((p.move_str(m), n))
            total += n
        for s, n in sorted(rows):
            print("%s: %d" % (s, n))
    else:
        total = game.perft(args.depth)
    if args.time:
        print("time: %.2fs" % (time.time() - t0), file=sys.stderr)
    print("Nodes searched: %d" % total)


def cmd_show(args):
    game = make_game(args)
    print(game.pos.fen())
    print("result: %s" % game.result())


def cmd_random(args):
    V = Variant(args.variant)
    for i in range(args.games):
        seed = args.seed + i
        rng = random.Random(seed)
        game = Game(V, args.fen)
        start = game.pos.fen()
        plies = []
        while len(plies) < args.max_plies:
            p = game.pos
            legal = sorted((p.move_str(m), m) for m in game.legal(p))
            if not legal:
                break
            strs = [s for s, _ in legal]
            s, m = legal[strs.index(rng.choice(strs))]
            plies.append({"fen": p.fen(), "legal": strs, "played": s})
            game.push(m)
        out = {"variant": V.name, "seed": seed, "start_fen": start, "plies": plies,
               "final_fen": game.pos.fen(), "result": game.result()}
        print(json.dumps(out))
        sys.stdout.flush()


def main(argv=None):
    try:
        import signal
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    except (ImportError, AttributeError, ValueError):
        pass
    ap = argparse.ArgumentParser(description="Takeover Chess oracle")
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(sp):
        sp.add_argument("--variant", required=True)
        sp.add_argument("--fen")
        sp.add_argument("--play", default="")

    sp = sub.add_parser("moves")
    common(sp)
    sp = sub.add_parser("perft")
    common(sp)
    sp.add_argument("--depth", type=int, required=True)
    sp.add_argument("--divide", action="store_true")
    sp.add_argument("--time", action="store_true", help="print the run time on stderr")
    sp = sub.add_parser("show")
    common(sp)
    sp = sub.add_parser("random-games")
    sp.add_argument("--variant", required=True)
    sp.add_argument("--fen", help="start position (default: the variant's start)")
    sp.add_argument("--games", type=int, required=True)
    sp.add_argument("--seed", type=int, required=True)
    sp.add_argument("--max-plies", type=int, default=300)
    args = ap.parse_args(argv)
    try:
        {"moves": cmd_moves, "perft": cmd_perft, "show": cmd_show, "random-games": cmd_random}[args.cmd](args)
    except BadInput as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
