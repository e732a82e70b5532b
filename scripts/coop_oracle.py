#!/usr/bin/env python3
"""Independent reference implementation ("oracle") of Cooperative Chess.

Pure Python 3, standard library only.  Written only from
``/work/shared/rules/cooperative-chess.txt`` and the Cooperative Chess section
(CC1-CC28) of ``/work/shared/design/rulings.md``; no engine code was read.

Sides, turns, numbering
-----------------------
White and Black are the team (allies, never capture each other), Red is the
enemy.  Turn cycle W, R, B, R = slot 0..3, White first.  The "next partner" of
a Red move is Black in slot 1 and White in slot 3 (CC5).  Red's pieces carry
numbers 1-16 (a7=1 ... h7=8, a8=9 ... h8=16, so the King e8 is 13 and the
Queen d8 is 12), kept through moves and promotion (CC1).

Setup (CC1): White R N B K a1-d1, Black K B N R e1-h1, White pawns a2-d2,
Black pawns e2-h2; Red a normal black army on ranks 7-8.

Notation
--------
* Ordinary moves: UCI, ``e2e4``, ``e7e8q``; castling is the King's move
  (White ``d1b1``, Black ``e1g1``, Red ``e8g8`` / ``e8c8``).
* Rule 7a: ``CAPTURE&KINGMOVE`` e.g. ``e7g5&e8d8`` (capture, then Red King slide).
* Rule 7b: ``FROM~TO`` (jumper ends on TO), ``FROM~TOx`` (jumper removed),
  ``FROM~TO-`` (nothing happens: own square, or the Red King onto a team King).

Position file (``--position FILE.json``)
----------------------------------------
::

  {"pieces": [{"side": "white"|"black"|"red", "type": "K"|"Q"|"R"|"B"|"N"|"P",
               "square": "e1", "number": 13  (red only, required, unique 1..16)}, ...],
   "slot": 0..3,
   "castling": ["white", "black", "red_kingside", "red_queenside"]  (those still available),
   "en_passant": null or "e3",
   "halfmove": 0,
   "history": [ earlier positions, each {"pieces": [...], "slot": s,
                "castling": [...], "en_passant": ...} ] }

``castling``, ``en_passant``, ``halfmove`` and ``history`` are optional
(defaults: none, null, 0, []).  ``history`` lists the earlier positions of the
game (any order); each one counts once toward threefold repetition, and the
file's own position counts as well.  Validation (errors exit 1): exactly one
King per side; no pawn on rank 1 or 8; Red numbers present, unique, 1..16;
no number on team pieces; castling rights only with King and rook on their home
squares; an en-passant square only where a double step just happened (rank 3
empty with a pawn of the previous mover -- White in slot 1, Black in slot 3 --
on rank 4 and rank 2 empty, Red to move; or rank 6 empty with a Red pawn on
rank 5, rank 7 empty and a team partner to move).

CLI
---
::

  coop_oracle.py moves  [--position F] [--play "A1 A2 ..."]
  coop_oracle.py perft  --depth N [--divide] [--position F] [--play ...]
  coop_oracle.py policy [--position F] [--play ...] [--dice 3,5,2] [--seed N]
  coop_oracle.py show   [--position F] [--play ...]
  coop_oracle.py random-games --games N --seed S [--max-plies P] [--summary]

``--play`` accepts, on team turns, exactly the legal ordinary moves; on Red
turns any legal ordinary Red move (a superset of what the policy produces), any
7a form whose capture is one the piece's movement allows and whose King move is
one of the CC21 slides, and any 7b form ``FROM~TO?`` with FROM a Red piece, TO
in b2-g7 and the marker matching the CC22 outcome (for an equal-value Red-vs-Red
contest both ``FROM~TO`` and ``FROM~TOx`` are accepted).  It does not check that
the policy could actually reach rule 7 with that piece.

``policy`` prints ``{"side": "red", "rule", "dice", "candidates", "chosen"}``.
With ``--dice`` the values are consumed in order (error naming the rule when too
few).  With ``--seed`` (and no ``--dice``) dice are ``rng.randint(1, 6)`` from
``random.Random(seed)`` and ``chosen = rng.choice(candidates)`` from the same
generator afterwards.  With both, the dice come from ``--dice`` and the pick
from ``random.Random(seed)``.  With neither, the dice list is empty (so an
error as soon as a die is needed).  ``chosen`` is filled when seeded or when
there is a single candidate, else null.  ``random-games`` uses one ``random.Random(seed)`` per
game: team moves ``rng.choice(sorted legal)``, Red moves by the policy with the
same generator (dice via ``randint(1,6)``, pick via ``choice``).  ``--max-plies``
(default 20000) stops a game unfinished (``"result": null``); ``--summary`` (an
extra) prints only ``{"seed", "plies": count, "result"}`` per game.

Measured perft from the start (CC26): 10 / 200 / 2040 / 45411 / 521277
(depths 1-5, as the ruling states); depth 6 gives 12867420 (this oracle only).

Interpretations taken (ruling ids)
----------------------------------
Movement / legality
  * CC2: a team move (White moves only white pieces, Black only black ones) is
    legal iff afterwards neither team King is attacked by Red.  Red's move is
    legal iff afterwards the Red King is attacked by no team piece (either
    colour); the same "any team piece" test is used for Red's castling squares.
  * Kings are never captured (CC4/CC23): no side generates a capture of any King.
    If the Red King stands attacked after a 7b jump the team plays on normally
    (the team may leave it attacked).  A Red King that jumps next to a team
    King attacks it like any King: the partner to move must resolve that check
    (he cannot capture the Red King), else it is checkmate; next to both team
    Kings it is "both_kings_in_check".
  * CC27: pawn double steps by rank (team from rank 2, Red from rank 7, also for
    a Red pawn that jumped back to rank 7); team promotes on rank 8 to q/r/b/n,
    Red on rank 1 to q only.  En passant only by the very next mover.  The
    stored en-passant square is set after every double step (whether or not a
    capture is possible) and cleared by every other action; the repetition key
    only includes it when a legal en-passant capture exists (CC25).
  * CC9/CC27 castling: White d1->b1 with a1->c1 (b1, c1 empty; d1, c1, b1 not
    attacked by Red), Black e1->g1 with h1->f1 (f1, g1 empty; e1, f1, g1 not
    attacked), Red normal (e8g8: f8, g8 empty, e8 f8 g8 not attacked; e8c8:
    b8 c8 d8 empty, e8 d8 c8 not attacked).  A right is lost when an action
    moves from, moves to, or removes a piece on its King's or rook's home square
    (7b targets are on ranks 2-7, so only a jump's FROM can matter).
End of game (CC2, CC3, CC24, CC25)
  * Checked after every action and for the initial position, in CC24 order:
    both team Kings attacked -> Red wins ("both_kings_in_check"); no legal
    ordinary move for the side to move -> Red to move: in check -> team wins
    ("checkmate"), else draw ("stalemate"); partner to move: either team King
    attacked -> Red wins ("checkmate"), else draw ("stalemate"); then threefold
    repetition -> draw ("threefold_repetition"); then halfmove >= 100 -> draw
    ("hundred_ply_rule").
  * Repetition key: piece placement (side+type, no Red numbers), slot (0..3),
    castling rights, en-passant square only when a legal en-passant capture
    exists.  The start counts; the third occurrence ends the game.  The full
    game history is compared (7b pawn jumps can undo "irreversible" changes).
  * 100-ply counter resets on any capture or removal (team, Red, 7a, 7b) and on
    any pawn move or pawn jump; a 7b with no effect does not reset it.
Perft (CC26)
  * Tree of ordinary legal moves, at Red nodes all Red legal chess moves.  Leaves
    at depth 0 count 1 even if the game ended there; an interior node that is
    finished (both Kings attacked, no moves, repetition, 100-ply) has no
    children.  Repetition history from --play / --position is taken into
    account.
Red's policy (Rules 1-7b, CC10-CC23, CC28)
  * CC11 "attacked by the next partner": capture patterns only (pawn diagonals,
    knights, King steps, sliders on a clear line) on the board after the move
    considered; pins, the attacker's King safety, Red's defence and en passant
    are ignored.  "Safe" = destination not attacked by the next partner.
  * Values CC4: P1 N3 B3 R5 Q9; for 7b contests the King counts highest.
  * Rule 1 (CC12): Red King attacked by any team piece.  Candidates: legal
    moves capturing a checking piece (en passant included, by any piece incl.
    the King), else the other King moves (castling impossible in check), else
    the rest.
  * Rule 2 (CC13): threatened = non-King Red piece attacked by the next partner
    on the current board.  Among threatened pieces with >= 1 safe legal move keep
    those of highest (current) value; if any of them has a safe capture, the
    candidates are all their safe captures reduced to the highest victim value;
    otherwise each keeps its safe moves of minimal Chebyshev distance (CC6;
    castling never belongs to a non-King piece), union.
  * Rule 3 (CC14): all legal captures (en passant and capturing promotions
    included, King captures included) whose destination is safe, reduced to the
    highest victim value.
  * Rule 4 (CC14): if legal captures exist (all unsafe) one d6; 1-3 -> all
    captures reduced to the highest victim value; 4-6 -> go on.
  * Rule 5 (CC15): exactly one legal move (castling counts).
  * Rule 6: always 3d6 (three dice recorded individually), n = sum - 2.  If the
    piece numbered n is on the board, 6a (still a pawn: legal moves to rank 1
    with safe destination), else 6b (CC17: legal moves after which the moved
    piece -- a Queen after promotion -- attacks a team non-King piece; keep the
    ones whose destination has the fewest next-partner attackers), else 6c
    (CC18: legal safe moves, direction = (sign df, sign dr), each knight move its
    own direction, castling along the rank; the farthest Chebyshev move per
    direction is a candidate).  6a-6c consider castling as the King's (piece 13).
  * CC19 (default, not the reroll option): rolled piece on board but 6a-6c empty
    -> rule 7 with that number excluded.
  * Rule 7 (CC20): nearest number among Red pieces on the board other than n;
    tie -> lower if n odd, higher if n even.  (The Red King is always on the
    board; the case "no other Red piece" cannot arise because a lone King with
    >= 2 legal moves always has a 6c move.)
  * Rule 7a (CC21): captures of team non-King pieces that the piece's movement
    allows (pseudo-legal: pins ignored; en passant and capturing promotion to a
    Queen included).  If afterwards the Red King is attacked (by any team piece),
    for each of the 8 directions the King steps outwards until the first square
    where it is not attacked (judged with the King actually there): an empty
    square or a team non-King piece (captured) is the destination; a Red piece,
    a team King, the edge or an attacked team non-King piece first met gives
    nothing for that direction.  A capture with no direction is unavailable.
    Then available captures are reduced to the highest victim value; candidates
    = every (capture, direction) combination.  A selected Red King uses only its
    legal captures.  No available capture -> 7b.
  * Rule 7b (CC22): row die (rank = d6+1), then column die (1=b ... 6=g).
    Outcomes as CC22; an equal-value Red-vs-Red contest yields two candidates
    (``FROM~TO`` and ``FROM~TOx``), the random pick between them is not a die.
    The jump ignores Red King safety, never promotes, clears en passant.
  * Dice recorded in the order read (CC10): rule 4's d6 only when it has a
    capture, rule 6's three dice always when reached, 7b's row then column die.
  * CC28: the random pick among candidates is one uniform choice over the
    sorted candidate list.
Output conventions
  * Lists of moves/candidates are sorted as strings.  ``pieces`` in ``show`` are
    sorted by square (a1, b1, ..., h8).  ``castling`` is listed in the order
    white, black, red_kingside, red_queenside.
"""

import argparse
import json
import random
import re
import sys

FILES = 'abcdefgh'
SIDE_NAMES = {'w': 'white', 'b': 'black', 'r': 'red'}
NAME_SIDES = {v: k for k, v in SIDE_NAMES.items()}
SLOT_SIDE = ['w', 'r', 'b', 'r']
KI = {'w': 0, 'b': 1, 'r': 2}          # index into State.kings
VALUE = {'P': 1, 'N': 3, 'B': 3, 'R': 5, 'Q': 9, 'K': 100}

# castling rights bitmask
C_WHITE, C_BLACK, C_RK, C_RQ = 1, 2, 4, 8
C_NAMES = [(C_WHITE, 'white'), (C_BLACK, 'black'), (C_RK, 'red_kingside'), (C_RQ, 'red_queenside')]


class OracleError(Exception):
    pass


def sqname(i):
    return FILES[i & 7] + str((i >> 3) + 1)


def sqparse(s):
    if not isinstance(s, str) or len(s) != 2 or s[0] not in FILES or s[1] not in '12345678':
        raise OracleError('bad square %r' % (s,))
    return FILES.index(s[0]) + 8 * (int(s[1]) - 1)


def _onboard(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def _build_tables():
    kn, kg, rays, tpf, rpf, tpc, rpc = [], [], [], [], [], [], []
    dirs = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    for s in range(64):
        f, r = s & 7, s >> 3
        kn.append([(f + a) + 8 * (r + b) for a, b in
                   [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
                   if _onboard(f + a, r + b)])
        kg.append([(f + a) + 8 * (r + b) for a, b in dirs if _onboard(f + a, r + b)])
        rr = []
        for a, b in dirs:
            ray = []
            ff, r2 = f + a, r + b
            while _onboard(ff, r2):
                ray.append(ff + 8 * r2)
                ff += a
                r2 += b
            rr.append(ray)
        rays.append(rr)
        # squares from which a team pawn attacks s (team pawns attack upwards)
        tpf.append([(f + a) + 8 * (r - 1) for a in (-1, 1) if _onboard(f + a, r - 1)])
        # squares from which a red pawn attacks s (red pawns attack downwards)
        rpf.append([(f + a) + 8 * (r + 1) for a in (-1, 1) if _onboard(f + a, r + 1)])
        # capture targets of a team / red pawn standing on s
        tpc.append([(f + a) + 8 * (r + 1) for a in (-1, 1) if _onboard(f + a, r + 1)])
        rpc.append([(f + a) + 8 * (r - 1) for a in (-1, 1) if _onboard(f + a, r - 1)])
    return kn, kg, rays, tpf, rpf, tpc, rpc, dirs


KN, KG, RAYS, TEAM_PAWN_FROM, RED_PAWN_FROM, TEAM_PAWN_CAP, RED_PAWN_CAP, DIRS = _build_tables()
ORTH = (0, 1, 2, 3)
DIAG = (4, 5, 6, 7)

CMASK = [0] * 64
CMASK[0] |= C_WHITE   # a1
CMASK[3] |= C_WHITE   # d1
CMASK[4] |= C_BLACK   # e1
CMASK[7] |= C_BLACK   # h1
CMASK[60] |= C_RK | C_RQ  # e8
CMASK[63] |= C_RK     # h8
CMASK[56] |= C_RQ     # a8
# castling: king (from, to) -> (right, rook from, rook to, empty squares, unattacked squares)
CASTLES = {
    'w': [(3, 1, C_WHITE, 0, 2, (1, 2), (3, 2, 1))],
    'b': [(4, 6, C_BLACK, 7, 5, (5, 6), (4, 5, 6))],
    'r': [(60, 62, C_RK, 63, 61, (61, 62), (60, 61, 62)),
          (60, 58, C_RQ, 56, 59, (57, 58, 59), (60, 59, 58))],
}
ROOK_CASTLE = {(3, 1): (0, 2), (4, 6): (7, 5), (60, 62): (63, 61), (60, 58): (56, 59)}

# move flags
NORMAL, EP, CASTLE, DOUBLE = 0, 1, 2, 3


def attacked(b, s, colors):
    """Is square s attacked (CC11 capture patterns) by a piece whose colour is in `colors`?"""
    for t in KN[s]:
        p = b[t]
        if p is not None and p[1] == 'N' and p[0] in colors:
            return True
    for t in KG[s]:
        p = b[t]
        if p is not None and p[1] == 'K' and p[0] in colors:
            return True
    if 'r' in colors:
        for t in RED_PAWN_FROM[s]:
            p = b[t]
            if p == 'rP':
                return True
    if 'w' in colors or 'b' in colors:
        for t in TEAM_PAWN_FROM[s]:
            p = b[t]
            if p is not None and p[1] == 'P' and p[0] != 'r' and p[0] in colors:
                return True
    rays = RAYS[s]
    for d in ORTH:
        for t in rays[d]:
            p = b[t]
            if p is not None:
                if p[0] in colors and (p[1] == 'R' or p[1] == 'Q'):
                    return True
                break
    for d in DIAG:
        for t in rays[d]:
            p = b[t]
            if p is not None:
                if p[0] in colors and (p[1] == 'B' or p[1] == 'Q'):
                    return True
                break
    return False


def attackers(b, s, colors):
    """List of squares holding pieces (colour in `colors`) that attack s (CC11)."""
    out = []
    for t in KN[s]:
        p = b[t]
        if p is not None and p[1] == 'N' and p[0] in colors:
            out.append(t)
    for t in KG[s]:
        p = b[t]
        if p is not None and p[1] == 'K' and p[0] in colors:
            out.append(t)
    if 'r' in colors:
        for t in RED_PAWN_FROM[s]:
            if b[t] == 'rP':
                out.append(t)
    for t in TEAM_PAWN_FROM[s]:
        p = b[t]
        if p is not None and p[1] == 'P' and p[0] != 'r' and p[0] in colors:
            out.append(t)
    rays = RAYS[s]
    for d in range(8):
        kinds = ('R', 'Q') if d < 4 else ('B', 'Q')
        for t in rays[d]:
            p = b[t]
            if p is not None:
                if p[0] in colors and p[1] in kinds:
                    out.append(t)
                break
    return out


def piece_attacks(b, s):
    """Squares attacked (CC11) by the piece on s."""
    p = b[s]
    k = p[1]
    if k == 'P':
        return RED_PAWN_CAP[s] if p[0] == 'r' else TEAM_PAWN_CAP[s]
    if k == 'N':
        return KN[s]
    if k == 'K':
        return KG[s]
    ds = ORTH if k == 'R' else DIAG if k == 'B' else range(8)
    out = []
    for d in ds:
        for t in RAYS[s][d]:
            out.append(t)
            if b[t] is not None:
                break
    return out


class State:
    __slots__ = ('board', 'nums', 'slot', 'castle', 'ep', 'halfmove', 'kings', 'rep', 'result')

    def copy(self):
        st = State()
        st.board = list(self.board)
        st.nums = list(self.nums)
        st.slot = self.slot
        st.castle = self.castle
        st.ep = self.ep
        st.halfmove = self.halfmove
        st.kings = list(self.kings)
        st.rep = dict(self.rep)
        st.result = self.result
        return st

    @property
    def mover(self):
        return SLOT_SIDE[self.slot]


def start_state():
    st = State()
    b = [None] * 64
    n = [0] * 64
    for i, k in enumerate('RNBK'):
        b[i] = 'w' + k
    for i, k in enumerate('KBNR'):
        b[4 + i] = 'b' + k
    for f in range(8):
        b[8 + f] = ('w' if f < 4 else 'b') + 'P'
        b[48 + f] = 'rP'
        n[48 + f] = f + 1
    for f, k in enumerate('RNBQKBNR'):
        b[56 + f] = 'r' + k
        n[56 + f] = 9 + f
    st.board, st.nums = b, n
    st.slot = 0
    st.castle = C_WHITE | C_BLACK | C_RK | C_RQ
    st.ep = None
    st.halfmove = 0
    st.kings = [3, 4, 60]
    st.rep = {}
    st.result = None
    add_rep(st)
    st.result = game_result(st)
    return st


# ---------------------------------------------------------------- move generation

def pseudo_moves(st, color, only=None):
    b = st.board
    out = []
    enemy = 'wb' if color == 'r' else 'r'
    squares = range(64) if only is None else (only,)
    for s in squares:
        p = b[s]
        if p is None or p[0] != color:
            continue
        k = p[1]
        if k == 'P':
            if color == 'r':
                fwd, start_rank, promo_rank, caps, promos = -8, 6, 0, RED_PAWN_CAP[s], ('q',)
            else:
                fwd, start_rank, promo_rank, caps, promos = 8, 1, 7, TEAM_PAWN_CAP[s], ('q', 'r', 'b', 'n')
            t = s + fwd
            if b[t] is None:
                if (t >> 3) == promo_rank:
                    for pr in promos:
                        out.append((s, t, pr, NORMAL))
                else:
                    out.append((s, t, '', NORMAL))
                    if (s >> 3) == start_rank and b[t + fwd] is None:
                        out.append((s, t + fwd, '', DOUBLE))
            for t in caps:
                q = b[t]
                if q is not None:
                    if q[0] in enemy and q[1] != 'K':
                        if (t >> 3) == promo_rank:
                            for pr in promos:
                                out.append((s, t, pr, NORMAL))
                        else:
                            out.append((s, t, '', NORMAL))
                elif t == st.ep:
                    c = b[t - fwd]
                    if c is not None and c[1] == 'P' and c[0] in enemy:
                        out.append((s, t, '', EP))
        elif k == 'N' or k == 'K':
            for t in (KN[s] if k == 'N' else KG[s]):
                q = b[t]
                if q is None or (q[0] in enemy and q[1] != 'K'):
                    out.append((s, t, '', NORMAL))
            if k == 'K' and st.castle:
                for (kf, kt, right, rf, rt, empties, safe) in CASTLES[color]:
                    if (st.castle & right) and s == kf and b[rf] == color + 'R' \
                            and all(b[e] is None for e in empties) \
                            and not any(attacked(b, a, enemy) for a in safe):
                        out.append((kf, kt, '', CASTLE))
        else:
            ds = ORTH if k == 'R' else DIAG if k == 'B' else range(8)
            rays = RAYS[s]
            for d in ds:
                for t in rays[d]:
                    q = b[t]
                    if q is None:
                        out.append((s, t, '', NORMAL))
                    else:
                        if q[0] in enemy and q[1] != 'K':
                            out.append((s, t, '', NORMAL))
                        break
    return out


def make(st, m):
    """Apply an ordinary move; returns undo info."""
    b = st.board
    n = st.nums
    frm, to, promo, flag = m
    p = b[frm]
    cap = b[to]
    changes = [(frm, p, n[frm]), (to, cap, n[to])]
    undo = (changes, st.ep, st.castle, st.halfmove, st.slot, tuple(st.kings))
    b[to] = p if not promo else p[0] + promo.upper()
    n[to] = n[frm]
    b[frm] = None
    n[frm] = 0
    reset = cap is not None or p[1] == 'P'
    mask = CMASK[frm] | CMASK[to]
    newep = None
    if flag == EP:
        csq = to + 8 if p[0] == 'r' else to - 8
        changes.append((csq, b[csq], n[csq]))
        b[csq] = None
        n[csq] = 0
    elif flag == CASTLE:
        rf, rt = ROOK_CASTLE[(frm, to)]
        changes.append((rf, b[rf], n[rf]))
        changes.append((rt, b[rt], n[rt]))
        b[rt] = b[rf]
        n[rt] = n[rf]
        b[rf] = None
        n[rf] = 0
        mask |= CMASK[rf] | CMASK[rt]
    elif flag == DOUBLE:
        newep = (frm + to) >> 1
    if p[1] == 'K':
        st.kings[KI[p[0]]] = to
    st.castle &= ~mask
    st.ep = newep
    st.halfmove = 0 if reset else st.halfmove + 1
    st.slot = (st.slot + 1) & 3
    return undo


def unmake(st, undo):
    changes, st.ep, st.castle, st.halfmove, st.slot, kings = undo
    st.kings[:] = kings
    b = st.board
    n = st.nums
    for s, p, num in reversed(changes):
        b[s] = p
        n[s] = num


def king_safe_after(st, color):
    b = st.board
    if color == 'r':
        return not attacked(b, st.kings[2], 'wb')
    return not attacked(b, st.kings[0], 'r') and not attacked(b, st.kings[1], 'r')


def legal_moves(st, only=None):
    color = SLOT_SIDE[st.slot]
    out = []
    for m in pseudo_moves(st, color, only):
        u = make(st, m)
        ok = king_safe_after(st, color)
        unmake(st, u)
        if ok:
            out.append(m)
    return out


def uci(m):
    return sqname(m[0]) + sqname(m[1]) + m[2]


# ---------------------------------------------------------------- repetition / result

def ep_key(st):
    if st.ep is None:
        return None
    color = SLOT_SIDE[st.slot]
    b = st.board
    ep = st.ep
    if color == 'r':
        froms = RED_PAWN_FROM[ep]
    else:
        froms = TEAM_PAWN_FROM[ep]
    for s in froms:
        if b[s] == color + 'P':
            m = (s, ep, '', EP)
            if m in pseudo_moves(st, color, s):
                u = make(st, m)
                ok = king_safe_after(st, color)
                unmake(st, u)
                if ok:
                    return ep
    return None


def rep_key(st):
    return (tuple(st.board), st.slot, st.castle, ep_key(st))


def add_rep(st):
    k = rep_key(st)
    st.rep[k] = st.rep.get(k, 0) + 1
    return k


def in_check(st):
    b = st.board
    return (attacked(b, st.kings[0], 'r'), attacked(b, st.kings[1], 'r'), attacked(b, st.kings[2], 'wb'))


def game_result(st, key=None):
    """CC24 order.  Returns None or a dict {"winners", "reason"}."""
    wc, bc, rc = in_check(st)
    if wc and bc:
        return {'winners': ['red'], 'reason': 'both_kings_in_check'}
    if not legal_moves(st):
        if st.mover == 'r':
            if rc:
                return {'winners': ['white', 'black'], 'reason': 'checkmate'}
            return {'winners': [], 'reason': 'stalemate'}
        if wc or bc:
            return {'winners': ['red'], 'reason': 'checkmate'}
        return {'winners': [], 'reason': 'stalemate'}
    if key is None:
        key = rep_key(st)
    if st.rep.get(key, 0) >= 3:
        return {'winners': [], 'reason': 'threefold_repetition'}
    if st.halfmove >= 100:
        return {'winners': [], 'reason': 'hundred_ply_rule'}
    return None


# ---------------------------------------------------------------- perft

def perft(st, depth):
    if depth == 0:
        return 1
    b = st.board
    k = st.kings
    if attacked(b, k[0], 'r') and attacked(b, k[1], 'r'):
        return 0
    if st.halfmove >= 100:
        return 0
    key = rep_key(st)
    if st.rep.get(key, 0) >= 3:
        return 0
    moves = legal_moves(st)
    if depth == 1:
        return len(moves)
    total = 0
    rep = st.rep
    for m in moves:
        u = make(st, m)
        ck = rep_key(st)
        rep[ck] = rep.get(ck, 0) + 1
        total += perft(st, depth - 1)
        rep[ck] -= 1
        unmake(st, u)
    return total


def perft_divide(st, depth):
    res = {}
    if depth == 0:
        return res
    if st.result is not None:
        return res
    for m in legal_moves(st):
        u = make(st, m)
        ck = rep_key(st)
        st.rep[ck] = st.rep.get(ck, 0) + 1
        res[uci(m)] = perft(st, depth - 1)
        st.rep[ck] -= 1
        unmake(st, u)
    return res


# ---------------------------------------------------------------- Red policy helpers

def cap_square(st, m):
    """Square of the piece captured by ordinary move m, or None."""
    frm, to, promo, flag = m
    if flag == EP:
        return to + 8 if st.board[frm][0] == 'r' else to - 8
    if flag == CASTLE:
        return None
    return to if st.board[to] is not None else None


def victim_value(st, m):
    c = cap_square(st, m)
    return VALUE[st.board[c][1]]


def is_safe(st, m, npc):
    """Destination not attacked by the next partner after the move (CC11)."""
    u = make(st, m)
    r = not attacked(st.board, m[1], npc)
    unmake(st, u)
    return r


def cheb(m):
    a, b = m[0], m[1]
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


def reduce_by_victim(st, moves, key=lambda x: x):
    if not moves:
        return []
    vals = [victim_value(st, key(x)) for x in moves]
    top = max(vals)
    return [x for x, v in zip(moves, vals) if v == top]


def sign(x):
    return (x > 0) - (x < 0)


class Dice:
    def __init__(self, values=None, rng=None):
        self.values = list(values or [])
        self.rng = rng
        self.used = []

    def roll(self, rule):
        if self.rng is not None:
            v = self.rng.randint(1, 6)
        else:
            if len(self.used) >= len(self.values):
                raise OracleError('rule %s needs another die (only %d given)' % (rule, len(self.values)))
            v = self.values[len(self.used)]
        self.used.append(v)
        return v


def king_slides(st):
    """CC21: after a capture leaving the Red King attacked, the King moves it can slide to."""
    b = st.board
    k = st.kings[2]
    out = []
    for d in range(8):
        for t in RAYS[k][d]:
            q = b[t]
            if q is not None and (q[0] == 'r' or q[1] == 'K'):
                break
            b[k] = None
            b[t] = 'rK'
            ok = not attacked(b, t, 'wb')
            b[t] = q
            b[k] = 'rK'
            if ok:
                out.append(t)
                break
            if q is not None:
                break
    return out


def rule7a_candidates(st, s):
    b = st.board
    if b[s][1] == 'K':
        caps = [m for m in legal_moves(st, s) if cap_square(st, m) is not None]
        caps = reduce_by_victim(st, caps)
        return [uci(m) for m in caps]
    caps = [m for m in pseudo_moves(st, 'r', s) if cap_square(st, m) is not None]
    avail = []
    for m in caps:
        u = make(st, m)
        if not attacked(st.board, st.kings[2], 'wb'):
            avail.append((m, [uci(m)]))
        else:
            k = st.kings[2]
            sl = king_slides(st)
            if sl:
                avail.append((m, [uci(m) + '&' + sqname(k) + sqname(t) for t in sl]))
        unmake(st, u)
    avail = reduce_by_victim(st, avail, key=lambda x: x[0])
    return [a for _, acts in avail for a in acts]


def jump_outcomes(st, s, t):
    """CC22: list of 7b action strings for the Red piece on s jumping to t."""
    b = st.board
    f, tt = sqname(s), sqname(t)
    if s == t:
        return [f + '~' + tt + '-']
    q = b[t]
    p = b[s]
    if q is None:
        return [f + '~' + tt]
    if q[0] != 'r':
        if q[1] != 'K':
            return [f + '~' + tt]
        if p[1] == 'K':
            return [f + '~' + tt + '-']
        return [f + '~' + tt + 'x']
    vj, vo = VALUE[p[1]], VALUE[q[1]]
    if vj > vo:
        return [f + '~' + tt]
    if vj < vo:
        return [f + '~' + tt + 'x']
    return [f + '~' + tt, f + '~' + tt + 'x']


def red_policy(st, dice):
    """Returns (rule, candidates) -- candidates sorted action strings; dice consumed via `dice`."""
    if st.result is not None:
        raise OracleError('the game is over')
    if st.mover != 'r':
        raise OracleError('it is not Red to move')
    b = st.board
    npc = 'b' if st.slot == 1 else 'w'
    legal = legal_moves(st)
    rk = st.kings[2]
    # Rule 1
    if attacked(b, rk, 'wb'):
        checkers = set(attackers(b, rk, 'wb'))
        g = [m for m in legal if cap_square(st, m) in checkers]
        if not g:
            g = [m for m in legal if m[0] == rk]
        if not g:
            g = legal
        return '1', sorted(uci(m) for m in g)
    safe = {m: is_safe(st, m, npc) for m in legal}
    # Rule 2
    threatened = [s for s in range(64) if b[s] is not None and b[s][0] == 'r' and b[s][1] != 'K'
                  and attacked(b, s, npc)]
    by_piece = {}
    for s in threatened:
        sm = [m for m in legal if m[0] == s and safe[m]]
        if sm:
            by_piece[s] = sm
    if by_piece:
        topv = max(VALUE[b[s][1]] for s in by_piece)
        top = [s for s in by_piece if VALUE[b[s][1]] == topv]
        caps = [m for s in top for m in by_piece[s] if cap_square(st, m) is not None]
        if caps:
            cands = reduce_by_victim(st, caps)
        else:
            cands = []
            for s in top:
                dmin = min(cheb(m) for m in by_piece[s])
                cands += [m for m in by_piece[s] if cheb(m) == dmin]
        return '2', sorted(uci(m) for m in cands)
    # Rule 3
    caps = [m for m in legal if cap_square(st, m) is not None]
    sc = [m for m in caps if safe[m]]
    if sc:
        return '3', sorted(uci(m) for m in reduce_by_victim(st, sc))
    # Rule 4
    if caps:
        d = dice.roll('4')
        if d <= 3:
            return '4', sorted(uci(m) for m in reduce_by_victim(st, caps))
    # Rule 5
    if len(legal) == 1:
        return '5', [uci(legal[0])]
    # Rule 6
    n = dice.roll('6') + dice.roll('6') + dice.roll('6') - 2
    where = [s for s in range(64) if b[s] is not None and b[s][0] == 'r' and st.nums[s] == n]
    if where:
        s = where[0]
        pm = [m for m in legal if m[0] == s]
        # 6a
        if b[s][1] == 'P':
            c = [m for m in pm if (m[1] >> 3) == 0 and safe[m]]
            if c:
                return '6a', sorted(uci(m) for m in c)
        # 6b
        qual = []
        for m in pm:
            u = make(st, m)
            bb = st.board
            hit = any(bb[t] is not None and bb[t][0] != 'r' and bb[t][1] != 'K'
                      for t in piece_attacks(bb, m[1]))
            if hit:
                qual.append((m, len(attackers(bb, m[1], npc))))
            unmake(st, u)
        if qual:
            lo = min(c for _, c in qual)
            return '6b', sorted(uci(m) for m, c in qual if c == lo)
        # 6c
        best = {}
        for m in pm:
            if not safe[m]:
                continue
            df = (m[1] & 7) - (m[0] & 7)
            dr = (m[1] >> 3) - (m[0] >> 3)
            if b[s][1] == 'N':
                dkey = (df, dr)
            else:
                dkey = (sign(df), sign(dr))
            best.setdefault(dkey, []).append(m)
        c = []
        for ms in best.values():
            far = max(cheb(m) for m in ms)
            c += [m for m in ms if cheb(m) == far]
        if c:
            return '6c', sorted(uci(m) for m in c)
    # Rule 7 (CC19/CC20)
    others = [(abs(st.nums[s] - n), st.nums[s], s) for s in range(64)
              if b[s] is not None and b[s][0] == 'r' and st.nums[s] != n]
    if not others:
        raise OracleError('rule 7 found no other Red piece')
    dmin = min(o[0] for o in others)
    near = [o for o in others if o[0] == dmin]
    if len(near) > 1:
        near.sort(key=lambda o: o[1])
        pick = near[0] if n % 2 == 1 else near[-1]
    else:
        pick = near[0]
    s = pick[2]
    c = rule7a_candidates(st, s)
    if c:
        return '7a', sorted(c)
    row = dice.roll('7b')
    col = dice.roll('7b')
    t = col + 8 * row
    return '7b', sorted(jump_outcomes(st, s, t))


def run_policy(st, dice_values=None, seed=None, rng=None):
    if rng is None and seed is not None:
        rng = random.Random(seed)
    if dice_values is not None:
        dice = Dice(values=dice_values)
    else:
        dice = Dice(rng=rng)
    rng_pick = rng
    rule, cands = red_policy(st, dice)
    if rng_pick is not None:
        chosen = rng_pick.choice(cands)
    elif len(cands) == 1:
        chosen = cands[0]
    else:
        chosen = None
    return {'side': 'red', 'rule': rule, 'dice': dice.used, 'candidates': cands, 'chosen': chosen}


# ---------------------------------------------------------------- applying actions

UCI_RE = re.compile(r'^([a-h][1-8])([a-h][1-8])([qrbn]?)$')
JUMP_RE = re.compile(r'^([a-h][1-8])~([a-h][1-8])([x-]?)$')


def finish_action(st):
    key = add_rep(st)
    st.result = game_result(st, key)


def apply_action(st, a):
    if st.result is not None:
        raise OracleError('action %r: the game is already over (%s)' % (a, st.result['reason']))
    color = st.mover
    if color != 'r' or ('&' not in a and '~' not in a):
        lm = {uci(m): m for m in legal_moves(st)}
        if a not in lm:
            raise OracleError('illegal action %r for %s' % (a, SIDE_NAMES[color]))
        make(st, lm[a])
        finish_action(st)
        return
    b = st.board
    if '&' in a:
        capm, _, km = a.partition('&')
        mc, mk = UCI_RE.match(capm), UCI_RE.match(km)
        if not mc or not mk or mk.group(3):
            raise OracleError('bad 7a action %r' % a)
        s = sqparse(mc.group(1))
        if b[s] is None or b[s][0] != 'r' or b[s][1] == 'K':
            raise OracleError('7a action %r: no Red non-King piece on %s' % (a, mc.group(1)))
        caps = {uci(m): m for m in pseudo_moves(st, 'r', s) if cap_square(st, m) is not None}
        if capm not in caps:
            raise OracleError('7a action %r: %s is not a capture of that piece' % (a, capm))
        u = make(st, caps[capm])
        k = st.kings[2]
        if not attacked(st.board, k, 'wb'):
            unmake(st, u)
            raise OracleError('7a action %r: the capture does not expose the Red King' % a)
        sl = {sqname(k) + sqname(t): t for t in king_slides(st)}
        if km not in sl:
            unmake(st, u)
            raise OracleError('7a action %r: %s is not a valid King slide' % (a, km))
        t = sl[km]
        b = st.board
        b[t] = 'rK'
        st.nums[t] = st.nums[k]
        b[k] = None
        st.nums[k] = 0
        st.kings[2] = t
        st.castle &= ~(CMASK[k] | CMASK[t])
        finish_action(st)
        return
    mj = JUMP_RE.match(a)
    if not mj:
        raise OracleError('bad 7b action %r' % a)
    s, t = sqparse(mj.group(1)), sqparse(mj.group(2))
    if b[s] is None or b[s][0] != 'r':
        raise OracleError('7b action %r: no Red piece on %s' % (a, mj.group(1)))
    if not (1 <= (t & 7) <= 6 and 1 <= (t >> 3) <= 6):
        raise OracleError('7b action %r: target must be in b2-g7' % a)
    if a not in jump_outcomes(st, s, t):
        raise OracleError('7b action %r: wrong outcome marker (possible: %s)'
                          % (a, ', '.join(jump_outcomes(st, s, t))))
    marker = mj.group(3)
    p = b[s]
    reset = False
    if marker == '-':
        pass
    elif marker == 'x':
        b[s] = None
        st.nums[s] = 0
        st.castle &= ~CMASK[s]
        reset = True
    else:
        reset = b[t] is not None or p[1] == 'P'
        b[t] = p
        st.nums[t] = st.nums[s]
        b[s] = None
        st.nums[s] = 0
        st.castle &= ~(CMASK[s] | CMASK[t])
        if p[1] == 'K':
            st.kings[2] = t
    st.ep = None
    st.halfmove = 0 if reset else st.halfmove + 1
    st.slot = (st.slot + 1) & 3
    finish_action(st)


# ---------------------------------------------------------------- I/O

def pieces_json(st):
    out = []
    for s in range(64):
        p = st.board[s]
        if p is None:
            continue
        d = {'side': SIDE_NAMES[p[0]], 'type': p[1], 'square': sqname(s)}
        if p[0] == 'r':
            d['number'] = st.nums[s]
        out.append(d)
    return out


def castling_json(st):
    return [nm for bit, nm in C_NAMES if st.castle & bit]


def show_json(st):
    wc, bc, rc = in_check(st)
    return {'slot': st.slot, 'side_to_move': SIDE_NAMES[st.mover], 'pieces': pieces_json(st),
            'castling': castling_json(st), 'en_passant': None if st.ep is None else sqname(st.ep),
            'halfmove': st.halfmove, 'in_check': {'white': wc, 'black': bc, 'red': rc},
            'result': st.result}


def _parse_position_core(obj, st):
    if not isinstance(obj, dict) or not isinstance(obj.get('pieces'), list):
        raise OracleError('position: "pieces" list required')
    b = [None] * 64
    n = [0] * 64
    kings = [None, None, None]
    seen_nums = set()
    for pc in obj['pieces']:
        if not isinstance(pc, dict):
            raise OracleError('position: bad piece %r' % (pc,))
        side = NAME_SIDES.get(pc.get('side'))
        typ = pc.get('type')
        if side is None or typ not in ('K', 'Q', 'R', 'B', 'N', 'P'):
            raise OracleError('position: bad piece %r' % (pc,))
        s = sqparse(pc.get('square'))
        if b[s] is not None:
            raise OracleError('position: two pieces on %s' % sqname(s))
        if typ == 'P' and (s >> 3) in (0, 7):
            raise OracleError('position: pawn on rank 1/8 (%s)' % sqname(s))
        if side == 'r':
            num = pc.get('number')
            if not isinstance(num, int) or isinstance(num, bool) or not 1 <= num <= 16 or num in seen_nums:
                raise OracleError('position: bad or duplicate Red number in %r' % (pc,))
            seen_nums.add(num)
            n[s] = num
        elif 'number' in pc and pc['number'] is not None:
            raise OracleError('position: team pieces carry no number (%r)' % (pc,))
        if typ == 'K':
            if kings[KI[side]] is not None:
                raise OracleError('position: two %s Kings' % SIDE_NAMES[side])
            kings[KI[side]] = s
        b[s] = side + typ
    if None in kings:
        raise OracleError('position: each side needs exactly one King')
    slot = obj.get('slot')
    if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot <= 3:
        raise OracleError('position: slot must be 0..3')
    cas = obj.get('castling', []) or []
    mask = 0
    names = {nm: bit for bit, nm in C_NAMES}
    for c in cas:
        if c not in names:
            raise OracleError('position: bad castling right %r' % (c,))
        mask |= names[c]
    need = {C_WHITE: ((3, 'wK'), (0, 'wR')), C_BLACK: ((4, 'bK'), (7, 'bR')),
            C_RK: ((60, 'rK'), (63, 'rR')), C_RQ: ((60, 'rK'), (56, 'rR'))}
    for bit, reqs in need.items():
        if mask & bit and any(b[s] != p for s, p in reqs):
            raise OracleError('position: castling right without King and rook at home')
    ep = obj.get('en_passant')
    if ep is not None:
        e = sqparse(ep)
        mover = SLOT_SIDE[slot]
        if mover == 'r':
            prev = SLOT_SIDE[(slot - 1) & 3]
            ok = (e >> 3) == 2 and b[e] is None and b[e + 8] == prev + 'P' and b[e - 8] is None
        else:
            ok = (e >> 3) == 5 and b[e] is None and b[e - 8] == 'rP' and b[e + 8] is None
        if not ok:
            raise OracleError('position: impossible en-passant square %s' % ep)
        ep = e
    st.board, st.nums, st.kings, st.slot, st.castle, st.ep = b, n, kings, slot, mask, ep


def load_position(path):
    try:
        with open(path) as fh:
            obj = json.load(fh)
    except (OSError, ValueError) as e:
        raise OracleError('cannot read position file: %s' % e)
    st = State()
    _parse_position_core(obj, st)
    hm = obj.get('halfmove', 0)
    if not isinstance(hm, int) or isinstance(hm, bool) or hm < 0:
        raise OracleError('position: bad halfmove')
    st.halfmove = hm
    st.rep = {}
    st.result = None
    hist = obj.get('history', []) or []
    if not isinstance(hist, list):
        raise OracleError('position: history must be a list of positions')
    for h in hist:
        hs = State()
        _parse_position_core(h, hs)
        hs.halfmove = 0
        hs.rep = {}
        k = rep_key(hs)
        st.rep[k] = st.rep.get(k, 0) + 1
    add_rep(st)
    st.result = game_result(st)
    return st


def build_state(args):
    st = load_position(args.position) if args.position else start_state()
    if args.play:
        for a in args.play.split():
            apply_action(st, a)
    return st


def random_game(seed, max_plies, summary=False):
    rng = random.Random(seed)
    st = start_state()
    plies = []
    count = 0
    while st.result is None and count < max_plies:
        side = SIDE_NAMES[st.mover]
        legal = sorted(uci(m) for m in legal_moves(st))
        if st.mover == 'r':
            pol = run_policy(st, rng=rng)
            played = pol['chosen']
        else:
            pol = None
            played = rng.choice(legal)
        apply_action(st, played)
        count += 1
        if not summary:
            plies.append({'side': side, 'legal': legal, 'policy': pol, 'played': played,
                          'state': show_json(st)})
    if summary:
        return {'seed': seed, 'plies': count, 'result': st.result}
    return {'seed': seed, 'plies': plies, 'result': st.result}


def main(argv=None):
    ap = argparse.ArgumentParser(description='Cooperative Chess reference oracle')
    sub = ap.add_subparsers(dest='cmd', required=True)

    def common(p):
        p.add_argument('--position')
        p.add_argument('--play', default='')

    p = sub.add_parser('moves')
    common(p)
    p = sub.add_parser('perft')
    common(p)
    p.add_argument('--depth', type=int, required=True)
    p.add_argument('--divide', action='store_true')
    p = sub.add_parser('policy')
    common(p)
    p.add_argument('--dice')
    p.add_argument('--seed', type=int)
    p = sub.add_parser('show')
    common(p)
    p = sub.add_parser('random-games')
    p.add_argument('--games', type=int, required=True)
    p.add_argument('--seed', type=int, required=True)
    p.add_argument('--max-plies', type=int, default=20000)
    p.add_argument('--summary', action='store_true')
    args = ap.parse_args(argv)
    try:
        if args.cmd == 'random-games':
            for g in range(args.games):
                print(json.dumps(random_game(args.seed + g, args.max_plies, args.summary)), flush=True)
            return 0
        st = build_state(args)
        if args.cmd == 'moves':
            if st.result is None:
                for u in sorted(uci(m) for m in legal_moves(st)):
                    print(u)
        elif args.cmd == 'perft':
            if args.depth < 0:
                raise OracleError('depth must be >= 0')
            if args.divide:
                res = perft_divide(st, args.depth)
                for k in sorted(res):
                    print('%s: %d' % (k, res[k]))
                total = sum(res.values()) if args.depth > 0 else 1
            else:
                total = 1 if args.depth == 0 else (0 if st.result is not None else perft(st, args.depth))
            print('Nodes searched: %d' % total)
        elif args.cmd == 'policy':
            dice = None
            if args.dice is not None:
                try:
                    dice = [int(x) for x in args.dice.replace(' ', '').split(',') if x != '']
                except ValueError:
                    raise OracleError('bad --dice %r' % args.dice)
                if any(not 1 <= d <= 6 for d in dice):
                    raise OracleError('dice must be 1..6')
            elif args.seed is None:
                dice = []
            print(json.dumps(run_policy(st, dice_values=dice, seed=args.seed)))
        elif args.cmd == 'show':
            print(json.dumps(show_json(st)))
    except OracleError as e:
        print('error: %s' % e, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
