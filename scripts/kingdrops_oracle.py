#!/usr/bin/env python3
"""Independent reference implementation ("oracle") of Kingdrops (Matteo Perlini).

Pure Python 3, standard library only.  Written from the rules text
(shared/rules/kingdrops.txt) and rulings K1-K13 (shared/design/rulings.md)
plus the team's precise readings given in the brief; it shares no code with
the Rust engine and is meant to cross-check it.

Board and pieces
  8x8, files a-h, ranks 1-8.  K King, Q Queen, R Rook, B Bishop, G Guard,
  S Spearman, A Archer; upper case White, lower case Black.  Army per side:
  K, Q, 2 R, 2 B, 2 G, 4 S, 4 A.  White's first two rows are ranks 1-2,
  Black's 7-8.  Forward is towards rank 8 for White, rank 1 for Black.

Interpretations taken (ruling ids in brackets)
  I1  [K6] Rook: up to 3 squares orthogonally; Bishop: up to 3 diagonally;
      Queen: up to 2 in any of the 8 directions; all blocked by any piece on
      an intermediate square.  Guard and King: one step in any of 8
      directions.  Spearman: one step straight forward.  Archer: one step
      diagonally forward.
  I2  [K5] Every piece captures as it moves (replacement), Spearmen and
      Archers included.  No promotion, castling, en passant, double steps.
  I3  No check: a King may move into attack and may be captured.
  I4  [K3] "Attacked" = some enemy piece has a capture move (I1/I2) onto the
      King's square, judged once, at the START of the turn.  If so, the King
      may move only as the turn's first action (it need not move at all);
      otherwise it may move at any point of the turn.
  I5  [K8] A drop puts a reserve piece on an empty square among the 8
      neighbours of the own King; at most one drop per turn; a dropped piece
      may not move in the same turn.  A piece that moved may not move again
      in that turn; a piece keeps its "already acted" mark on its new square.
  I6  [K2, K5] Win, checked after every action, game over at once: the mover
      captures the enemy King (reason "king captured"), or the mover MOVES
      its King, a Spearman or an Archer onto its last row (reason "last
      row").  If one move does both, the reason is "king captured".  A drop
      never wins (only Q/R/B/G can ever be in a reserve during play anyway).
  I7  [K1, K10] Maximal turn.  Sequences of 1..3 actions of this turn, each
      legal under I4/I5, a sequence stopping after a winning action.
      M = greatest length of a NON-winning sequence (0 if none).  Legal
      complete turns: every winning sequence (any length <= 3) and every
      non-winning sequence of length exactly M.  A next action is legal iff
      it begins/continues at least one legal complete turn.
  I8  [K10, K11] Consequence of I7 (the literal reading, default): a turn
      ends when the actions taken admit no legal next action, i.e. after a
      win, or after M non-winning actions when no winning action is then
      available.  In the rare position where, after M non-winning actions,
      some action wins (a winning sequence of length M+1), the winning
      action continues a legal complete turn, so the turn goes on and only
      winning actions are legal.  Likewise with M = 0 and only winning
      actions available, those winning actions are legal (no pass).
      Option --turn-end at-max gives the other reading: the turn ends as
      soon as M actions are taken (winning sequences longer than max(M,1)
      are then unreachable).  Example (test-only --position): Black to move,
      Black Kc6 and s f2, White Kb4: M = 1 (the spearman's only move wins);
      after c6b5 the literal reading lets Black play f2f1 and win, at-max
      ends the turn and White's King takes on b5.
  I9  [K11] A side with no action at all at the start of its turn must play
      `pass` (the only legal action then).  There is no other end-of-turn
      token.
  I10 [K7, K12] Capturing S, A or K removes it from the game; capturing Q,
      R, B or G puts it into the capturer's prison.  After every completed
      turn (passes included), never after a winning action, and before the
      repetition check: for each of Q, R, B, G, n = min(white pieces of the
      type in Black's prison, black pieces of the type in White's prison);
      n of each go back to their owners' reserves.  So a piece captured
      this turn cannot be dropped in the same turn.
  I11 [K9] Setup: the game starts from an empty board, both armies in
      reserve.  White places all 16 pieces, one placement per action, each
      placement a turn of its own, on empty squares of ranks 1-2, in any
      order; then Black places all 16 on ranks 7-8.  Then play, White first.
      (16 pieces fill the two rows exactly.)
  I12 [K4, K13] Repetition: positions compared at turn boundaries (after
      the exchange) on board + both reserves + both prisons + side to move,
      counting from the first position of play (the position right after
      setup, White to move, is occurrence 1).  The player whose completed
      turn (a pass included) produces a third occurrence loses (reason
      "repetition").  No other draws.

Notation: one token per action: placements and drops `R@d4` (upper-case type
letter whatever the side), moves `e2e3`, and `pass`.  A game is the flat
sequence of its actions, setup included.  Lists are sorted with Python's
default string order.

State output conventions (show / random-games):
  * after a winning action the state is the position right after that action:
    side_to_move = the winner (the mover), turn_actions = that turn's actions,
    no exchange, max_turn_length = null;
  * after a repetition loss the state is the position after the completed
    turn and its exchange: side_to_move = the player who would move next
    (= the winner), turn_actions = [], max_turn_length = null;
  * in setup max_turn_length = null and turn_actions = [];
  * reserve/prison letters in the order K Q R B G S A, in the piece owner's
    case; prison "white" holds Black's (lower-case) pieces.

Perft: counts nodes at exactly depth N of the action tree (each action,
setup placements and `pass` included, is one ply); a finished game has no
children, so a game that ends before depth N contributes nothing.

random-games: game i (0-based) uses seed S+i and random.Random(seed).choice
over the sorted list of legal next actions.

Hand-checked examples (S1, S2 are setups; "..." = --play continuation)
  S1 = S@a1 A@b1 G@c1 B@d1 K@e1 A@f1 S@g1 A@h1 R@a2 Q@b2 S@c2 A@d2 S@e2 G@f2
       B@g2 R@h2 S@a8 A@b8 G@c8 B@d8 K@e8 A@f8 S@g8 A@h8 R@a7 Q@b7 S@c7 A@d7
       S@e7 G@f7 B@g7 R@h7
  S2 = S@a1 S@b1 S@c1 S@d1 A@e1 A@f1 A@g1 A@h1 R@a2 G@b2 Q@c2 K@d2 G@e2 R@f2
       B@g2 B@h2 S@a8 S@b8 S@c8 S@d8 A@e8 A@f8 A@g8 A@h8 R@a7 G@b7 Q@c7 K@d7
       G@e7 R@f7 B@g7 B@h7
  * prison + exchange: S1 a2a5 b2b4 d2c3 a7a5 b7b6 c7c6 b4a5 c3b4 -> prisons
    white "r", black "R", reserves empty (mid-turn); ... e2e3 -> exchange:
    reserves "R"/"r", prisons empty.
  * drop beside the King, captured piece not droppable in the same turn, one
    drop per turn: ... b6a5 e7e6 c6c5 b4a5 -> drops only R@d2 R@e2 (the Q
    just taken is still in prison); ... e3e4 h2h3 c5c4 e6e5 f7f6 -> White
    reserve "QR", drops Q@d2 Q@e2 R@d2 R@e2; ... Q@d2 -> no drop legal,
    R@e2 rejected ("only one drop per turn").
  * K3: S1 e2e3 c2c3 f2f3 h7h4 c7c6 e7e6 e3e4 a2a3 b2b3 h4e4 c6c5 e6e5 ->
    Ke1 attacked by re4: e1e2 e1f2 legal first; ... a3a4 -> no King move.
    (S1 e2e3 -> e1e2 legal as a second action: King not attacked.)
  * win by King capture mid-turn: (K3 line) ... a3a4 b3b4 c3c4 c5c4 e4e1
    -> black wins, "king captured", turn_actions [c5c4, e4e1].
  * win on the last row mid-turn: S1 c2c3 a2a3 h2h3 a7a6 h7h6 b7b6 c3c4 a3a2
    h3h2 a6a7 h6h7 b6b7 c4c5 a2a3 h2h3 a7a6 h7h6 b7b6 c5c6 a3a2 h3h2 a6a7
    h6h7 b6b7 c6c7 a2a3 h2h3 a7a6 h7h6 b7b6 a3a2 c7c8 -> white wins "last
    row"; the captured g stays in White's prison (no exchange after a win).
  * repetition: S2 then twice (a2a3 b2b3 c2c3 a7a6 b7b6 c7c6 a3a2 b3b2 c3c2
    a6a7 b6b7 c6c7) -> the start position occurs a 3rd time after Black's
    turn: white wins "repetition".

CLI
  kingdrops_oracle.py moves [--play "A1 A2 ..."]
  kingdrops_oracle.py show [--play ...]
  kingdrops_oracle.py perft --depth N [--divide] [--play ...]
  kingdrops_oracle.py random-games --games N --seed S [--max-actions A]
                      [--summary] [--policy uniform|long]
  Global option (before or after the sub-command): --turn-end literal|at-max
  Test-only option: --position JSON (a play position in the show format,
  instead of the empty start; not part of the cross-check contract)
"""

import argparse
import json
import random
import sys

FILES = 'abcdefgh'
TYPES = 'KQRBGSA'
TIDX = {t: i for i, t in enumerate(TYPES)}
ARMY = (1, 1, 2, 2, 2, 4, 4)
PRISONABLE = 'QRBG'
WHITE, BLACK = 0, 1
COLOR_NAME = ('white', 'black')
EMPTY = '.'

RULE_LITERAL = 'literal'
RULE_AT_MAX = 'at-max'


def sqname(i):
    return FILES[i % 8] + str(i // 8 + 1)


def parse_sq(s):
    if len(s) != 2 or s[0] not in FILES or s[1] not in '12345678':
        return None
    return (int(s[1]) - 1) * 8 + FILES.index(s[0])


def color_of(p):
    return WHITE if p.isupper() else BLACK


def last_rank(c):
    return 7 if c == WHITE else 0


# ---------------------------------------------------------------- geometry
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ALL8 = ORTH + DIAG


def _rays(s, dirs, rng):
    f0, r0 = s % 8, s // 8
    out = []
    for df, dr in dirs:
        ray = []
        f, r = f0, r0
        for _ in range(rng):
            f += df
            r += dr
            if not (0 <= f < 8 and 0 <= r < 8):
                break
            ray.append(r * 8 + f)
        if ray:
            out.append(tuple(ray))
    return tuple(out)


RAYS = {}
for _p in 'KQRBGSAkqrbgsa':
    _t = _p.upper()
    _fwd = 1 if _p.isupper() else -1
    if _t == 'R':
        _d, _n = ORTH, 3
    elif _t == 'B':
        _d, _n = DIAG, 3
    elif _t == 'Q':
        _d, _n = ALL8, 2
    elif _t in 'KG':
        _d, _n = ALL8, 1
    elif _t == 'S':
        _d, _n = ((0, _fwd),), 1
    else:  # Archer
        _d, _n = ((1, _fwd), (-1, _fwd)), 1
    RAYS[_p] = tuple(_rays(s, _d, _n) for s in range(64))
NEIGH = tuple(tuple(r[0] for r in _rays(s, ALL8, 1)) for s in range(64))


def targets(board, s, p):
    """Destination squares of the piece p on s (empty or enemy)."""
    white = p.isupper()
    for ray in RAYS[p][s]:
        for t in ray:
            q = board[t]
            if q == EMPTY:
                yield t
            else:
                if q.isupper() != white:
                    yield t
                break


def attacked(board, sq, by):
    """Is square sq attacked (capture move onto it) by a piece of colour by?"""
    for s in range(64):
        p = board[s]
        if p == EMPTY or color_of(p) != by:
            continue
        for t in targets(board, s, p):
            if t == sq:
                return True
    return False


# ------------------------------------------------------------- turn context
class TurnCtx:
    """Data shared by every state of one turn (same turn start)."""
    __slots__ = ('side', 'attacked_start', 'M', 'win_limit', 'memo_nw',
                 'memo_win', 'rule')

    def __init__(self, side, attacked_start, rule):
        self.side = side
        self.attacked_start = attacked_start
        self.rule = rule
        self.M = None
        self.win_limit = 3
        self.memo_nw = {}
        self.memo_win = {}


def gen_actions(ctx, board, acted, drop_used, res):
    """Basic-legal actions of a node of the turn.

    Yields (token, win_reason_or_None, new_board, new_acted, new_drop_used,
    new_res, captured_piece_or_EMPTY)."""
    side = ctx.side
    depth = len(acted)
    white = side == WHITE
    ek = 'k' if white else 'K'
    lr = last_rank(side)
    king_sq = -1
    for s in range(64):
        p = board[s]
        if p == EMPTY or p.isupper() != white:
            continue
        t_up = p.upper()
        if t_up == 'K':
            king_sq = s
        if s in acted:
            continue
        if t_up == 'K' and ctx.attacked_start and depth > 0:
            continue  # I4 / K3
        for t in targets(board, s, p):
            q = board[t]
            if q == ek:
                win = 'king captured'
            elif t_up in 'KSA' and t // 8 == lr:
                win = 'last row'
            else:
                win = None
            lb = list(board)
            lb[s] = EMPTY
            lb[t] = p
            na = (acted - {s}) | {t}
            yield (sqname(s) + sqname(t), win, ''.join(lb), na, drop_used,
                   res, q)
    if not drop_used and king_sq >= 0 and any(res):
        empties = [n for n in NEIGH[king_sq] if board[n] == EMPTY]
        if empties:
            for i, cnt in enumerate(res):
                if cnt <= 0:
                    continue
                letter = TYPES[i] if white else TYPES[i].lower()
                nr = res[:i] + (cnt - 1,) + res[i + 1:]
                for n in empties:
                    lb = list(board)
                    lb[n] = letter
                    yield (TYPES[i] + '@' + sqname(n), None, ''.join(lb),
                           acted | {n}, True, nr, EMPTY)


def max_nonwin(ctx, board, acted, drop_used, res):
    """Greatest absolute depth reachable from this node by non-winning
    actions (the node's own depth if none), capped at 3."""
    key = (board, acted, drop_used, res)
    v = ctx.memo_nw.get(key)
    if v is not None:
        return v
    best = len(acted)
    if best < 3:
        for a in gen_actions(ctx, board, acted, drop_used, res):
            if a[1] is not None:
                continue
            d = max_nonwin(ctx, a[2], a[3], a[4], a[5])
            if d > best:
                best = d
                if best >= 3:
                    break
    ctx.memo_nw[key] = best
    return best


def can_win(ctx, board, acted, drop_used, res):
    """Can some winning action be reached from this node at an absolute depth
    <= ctx.win_limit (through non-winning actions)?"""
    depth = len(acted)
    if depth >= ctx.win_limit:
        return False
    key = (board, acted, drop_used, res)
    v = ctx.memo_win.get(key)
    if v is not None:
        return v
    acts = list(gen_actions(ctx, board, acted, drop_used, res))
    ok = any(a[1] is not None for a in acts)
    if not ok and depth + 1 < ctx.win_limit:
        for a in acts:
            if can_win(ctx, a[2], a[3], a[4], a[5]):
                ok = True
                break
    ctx.memo_win[key] = ok
    return ok


# -------------------------------------------------------------------- state
class IllegalAction(Exception):
    pass


class State:
    def __init__(self, rule=RULE_LITERAL):
        self.rule = rule
        self.phase = 'setup'
        self.side = WHITE
        self.board = EMPTY * 64
        self.reserve = [ARMY, ARMY]             # tuples of counts, TYPES order
        self.prison = [(0,) * 7, (0,) * 7]      # prison[c]: opponent pieces held by c
        self.acted = frozenset()
        self.drop_used = False
        self.turn_actions = ()
        self.result = None                      # (winner colour, reason)
        self.history = {}
        self.ctx = None
        self._legal = None

    def copy(self):
        s = State.__new__(State)
        s.rule = self.rule
        s.phase = self.phase
        s.side = self.side
        s.board = self.board
        s.reserve = list(self.reserve)
        s.prison = list(self.prison)
        s.acted = self.acted
        s.drop_used = self.drop_used
        s.turn_actions = self.turn_actions
        s.result = self.result
        s.history = self.history                # copy-on-write at turn end
        s.ctx = self.ctx                        # shared within a turn
        s._legal = None
        return s

    # ---------------------------------------------------------- turn logic
    def node(self):
        return (self.board, self.acted, self.drop_used,
                self.reserve[self.side])

    def start_turn(self):
        side = self.side
        ksq = self.board.find('K' if side == WHITE else 'k')
        att = ksq >= 0 and attacked(self.board, ksq, 1 - side)
        ctx = TurnCtx(side, att, self.rule)
        ctx.M = max_nonwin(ctx, *self.node())
        if self.rule == RULE_AT_MAX:
            ctx.win_limit = max(ctx.M, 1)
        else:
            ctx.win_limit = 3
        self.ctx = ctx

    def position_key(self):
        return (self.board, self.reserve[0], self.reserve[1],
                self.prison[0], self.prison[1], self.side)

    def end_turn(self):
        # exchange (I10)
        rw, rb = list(self.reserve[WHITE]), list(self.reserve[BLACK])
        pw, pb = list(self.prison[WHITE]), list(self.prison[BLACK])
        for t in PRISONABLE:
            i = TIDX[t]
            n = min(pb[i], pw[i])  # white pieces held by Black, black held by White
            if n:
                pb[i] -= n
                rw[i] += n
                pw[i] -= n
                rb[i] += n
        self.reserve = [tuple(rw), tuple(rb)]
        self.prison = [tuple(pw), tuple(pb)]
        mover = self.side
        self.side = 1 - mover
        self.acted = frozenset()
        self.drop_used = False
        self.turn_actions = ()
        key = self.position_key()
        h = dict(self.history)
        h[key] = h.get(key, 0) + 1
        self.history = h
        if h[key] >= 3:
            self.result = (1 - mover, 'repetition')
            self.ctx = None
            return
        self.start_turn()

    def transitions(self):
        """List of (token, transition data) of legal next actions."""
        if self._legal is not None:
            return self._legal
        out = []
        if self.result is not None:
            pass
        elif self.phase == 'setup':
            side = self.side
            rows = (0, 1) if side == WHITE else (6, 7)
            res = self.reserve[side]
            empt = [s for s in range(64) if s // 8 in rows and self.board[s] == EMPTY]
            for i, cnt in enumerate(res):
                if cnt:
                    for s in empt:
                        out.append((TYPES[i] + '@' + sqname(s), ('place', i, s)))
        else:
            ctx = self.ctx
            node = self.node()
            depth = len(self.acted)
            acts = list(gen_actions(ctx, *node))
            if depth == 0 and not acts:
                out.append(('pass', ('pass',)))
            else:
                for a in acts:
                    if a[1] is not None:
                        ok = depth + 1 <= ctx.win_limit
                    else:
                        ok = (max_nonwin(ctx, a[2], a[3], a[4], a[5]) == ctx.M
                              or can_win(ctx, a[2], a[3], a[4], a[5]))
                    if ok:
                        out.append((a[0], ('act', a)))
        out.sort(key=lambda x: x[0])
        self._legal = out
        return out

    def legal_actions(self):
        return [t for t, _ in self.transitions()]

    def apply_transition(self, tok, data):
        self._legal = None
        kind = data[0]
        if kind == 'place':
            _, i, s = data
            side = self.side
            letter = TYPES[i] if side == WHITE else TYPES[i].lower()
            self.board = self.board[:s] + letter + self.board[s + 1:]
            r = self.reserve[side]
            self.reserve[side] = r[:i] + (r[i] - 1,) + r[i + 1:]
            if not any(self.reserve[side]):
                if side == WHITE:
                    self.side = BLACK
                else:
                    self.phase = 'play'
                    self.side = WHITE
                    self.history = {self.position_key(): 1}
                    self.start_turn()
            return
        if kind == 'pass':
            self.turn_actions = self.turn_actions + ('pass',)
            self.end_turn()
            return
        a = data[1]
        _, win, nb, na, nd, nr, cap = a
        side = self.side
        self.board = nb
        self.acted = na
        self.drop_used = nd
        self.reserve[side] = nr
        if cap != EMPTY and cap.upper() in PRISONABLE:
            i = TIDX[cap.upper()]
            p = self.prison[side]
            self.prison[side] = p[:i] + (p[i] + 1,) + p[i + 1:]
        self.turn_actions = self.turn_actions + (tok,)
        if win is not None:
            self.result = (side, win)
            return
        ctx = self.ctx
        depth = len(self.acted)
        if depth >= ctx.M:
            if (self.rule == RULE_AT_MAX or depth >= 3
                    or not any(True for _ in gen_actions(ctx, *self.node()))):
                self.end_turn()

    def play(self, tok):
        for t, d in self.transitions():
            if t == tok:
                self.apply_transition(t, d)
                return
        raise IllegalAction(self.explain(tok))

    # ------------------------------------------------------- diagnostics
    def explain(self, tok):
        if self.result is not None:
            return 'the game is over'
        side = self.side
        if tok == 'pass':
            return 'pass is legal only when the side has no action at all at the start of its turn'
        if '@' in tok:
            if len(tok) != 4 or tok[0] not in TYPES or tok[1] != '@' or parse_sq(tok[2:]) is None:
                return 'malformed placement/drop (expected e.g. R@d4)'
            i = TIDX[tok[0]]
            s = parse_sq(tok[2:])
            if self.reserve[side][i] == 0:
                return 'no %s in %s\'s reserve' % (tok[0], COLOR_NAME[side])
            if self.board[s] != EMPTY:
                return 'square %s is occupied' % tok[2:]
            if self.phase == 'setup':
                return 'placement must be on %s\'s first two rows' % COLOR_NAME[side]
            if self.drop_used:
                return 'only one drop per turn'
            return ('drop square must be adjacent to the own King' if not any(
                a[0] == tok for a in gen_actions(self.ctx, *self.node()))
                else 'drop does not begin/continue any maximal or winning turn (M=%d)' % self.ctx.M)
        if len(tok) != 4 or parse_sq(tok[:2]) is None or parse_sq(tok[2:]) is None:
            return 'malformed action (expected e.g. e2e3, R@d4 or pass)'
        if self.phase == 'setup':
            return 'only placements are allowed during setup'
        s, t = parse_sq(tok[:2]), parse_sq(tok[2:])
        p = self.board[s]
        if p == EMPTY:
            return 'no piece on %s' % tok[:2]
        if color_of(p) != side:
            return 'the piece on %s belongs to the opponent' % tok[:2]
        if s in self.acted:
            return 'the piece on %s has already moved or been dropped this turn' % tok[:2]
        if p.upper() == 'K' and self.ctx.attacked_start and self.acted:
            return 'the King was attacked at the start of the turn: it may move only as the first action (K3)'
        if t not in set(targets(self.board, s, p)):
            return '%s cannot move from %s to %s' % (p, tok[:2], tok[2:])
        return ('move does not begin/continue any maximal or winning turn (M=%d)'
                % self.ctx.M)

    # ------------------------------------------------------------ output
    def to_json(self):
        board = {}
        for s in range(64):
            if self.board[s] != EMPTY:
                board[sqname(s)] = self.board[s]

        def letters(counts, white):
            out = ''
            for i, n in enumerate(counts):
                ch = TYPES[i] if white else TYPES[i].lower()
                out += ch * n
            return out
        res = None
        if self.result is not None:
            res = {'winner': COLOR_NAME[self.result[0]], 'reason': self.result[1]}
        mtl = None
        if self.phase == 'play' and self.result is None and self.ctx is not None:
            mtl = self.ctx.M
        return {
            'phase': self.phase,
            'side_to_move': COLOR_NAME[self.side],
            'board': board,
            'reserve': {'white': letters(self.reserve[WHITE], True),
                        'black': letters(self.reserve[BLACK], False)},
            'prison': {'white': letters(self.prison[WHITE], False),
                       'black': letters(self.prison[BLACK], True)},
            'turn_actions': list(self.turn_actions),
            'max_turn_length': mtl,
            'result': res,
        }


# ---------------------------------------------------------------------- CLI
def state_from_json(text, rule):
    """Extra (test-only) entry point: a play position in the `show` format
    (phase "play", side_to_move, board, reserve, prison; the rest ignored).
    It becomes the first position of play (repetition occurrence 1)."""
    d = json.loads(text)
    st = State(rule)
    st.phase = 'play'
    st.side = COLOR_NAME.index(d.get('side_to_move', 'white'))
    b = [EMPTY] * 64
    for sq, p in d.get('board', {}).items():
        s = parse_sq(sq)
        if s is None or len(p) != 1 or p.upper() not in TYPES:
            raise ValueError('bad board entry %r: %r' % (sq, p))
        b[s] = p
    st.board = ''.join(b)

    def counts(letters):
        c = [0] * 7
        for ch in letters:
            c[TIDX[ch.upper()]] += 1
        return tuple(c)
    r = d.get('reserve', {})
    p = d.get('prison', {})
    st.reserve = [counts(r.get('white', '')), counts(r.get('black', ''))]
    st.prison = [counts(p.get('white', '')), counts(p.get('black', ''))]
    for c, k in ((WHITE, 'K'), (BLACK, 'k')):
        if st.board.count(k) != 1:
            raise ValueError('each side needs exactly one King on the board')
    st.history = {st.position_key(): 1}
    st.start_turn()
    return st


def build(play, rule, position=None):
    st = State(rule) if position is None else state_from_json(position, rule)
    for n, tok in enumerate(play.split(), 1):
        try:
            st.play(tok)
        except IllegalAction as e:
            sys.stderr.write('illegal action %r (action %d of --play): %s\n'
                             % (tok, n, e))
            sys.exit(1)
    return st


def perft(st, depth):
    if depth == 0:
        return 1
    tr = st.transitions()
    if depth == 1:
        return len(tr)
    n = 0
    for tok, d in tr:
        c = st.copy()
        c.apply_transition(tok, d)
        n += perft(c, depth - 1)
    return n


def long_policy(st, rng):
    """Non-uniform test policy (--policy long): avoid winning actions when a
    non-winning one is legal, and with probability 0.7 pick among the
    capturing ones.  Gives long games with many captures, drops and
    exchanges.  Not part of the cross-check contract."""
    tr = st.transitions()
    nonwin = [t for t, d in tr if d[0] != 'act' or d[1][1] is None]
    caps = [t for t, d in tr
            if d[0] == 'act' and d[1][1] is None and d[1][6] != EMPTY]
    if caps and rng.random() < 0.7:
        return rng.choice(caps)
    return rng.choice(nonwin or [t for t, _ in tr])


def main(argv=None):
    ap = argparse.ArgumentParser(description='Kingdrops reference oracle')
    ap.add_argument('--turn-end', choices=[RULE_LITERAL, RULE_AT_MAX],
                    default=RULE_LITERAL)
    sub = ap.add_subparsers(dest='cmd', required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument('--play', default='')
    common.add_argument('--position', default=None,
                        help='(testing) start from this play position, JSON in the show format')
    common.add_argument('--turn-end', choices=[RULE_LITERAL, RULE_AT_MAX],
                        default=argparse.SUPPRESS)
    sub.add_parser('moves', parents=[common])
    sub.add_parser('show', parents=[common])
    p = sub.add_parser('perft', parents=[common])
    p.add_argument('--depth', type=int, required=True)
    p.add_argument('--divide', action='store_true')
    p = sub.add_parser('random-games', parents=[common])
    p.add_argument('--games', type=int, required=True)
    p.add_argument('--seed', type=int, required=True)
    p.add_argument('--max-actions', type=int, default=2000)
    p.add_argument('--policy', choices=['uniform', 'long'], default='uniform',
                   help='uniform (the contract) or long (test policy, see long_policy)')
    p.add_argument('--summary', action='store_true',
                   help='print one summary line per game instead of full JSON')
    args = ap.parse_args(argv)
    rule = args.turn_end

    if args.cmd in ('moves', 'show', 'perft'):
        st = build(args.play, rule, args.position)
        if args.cmd == 'moves':
            for t in st.legal_actions():
                print(t)
        elif args.cmd == 'show':
            print(json.dumps(st.to_json()))
        else:
            total = 0
            if args.divide and args.depth >= 1:
                for tok, d in st.transitions():
                    c = st.copy()
                    c.apply_transition(tok, d)
                    n = perft(c, args.depth - 1)
                    total += n
                    print('%s: %d' % (tok, n))
                print()
            else:
                total = perft(st, args.depth)
            print('Nodes searched: %d' % total)
        return 0

    # random-games
    base = build(args.play, rule, args.position) if (args.play or args.position) else None
    for g in range(args.games):
        seed = args.seed + g
        rng = random.Random(seed)
        st = base.copy() if base is not None else State(rule)
        actions = []
        while st.result is None and len(actions) < args.max_actions:
            legal = st.legal_actions()
            if args.policy == 'uniform' or st.phase != 'play':
                tok = rng.choice(legal)
            else:
                tok = long_policy(st, rng)
            st.play(tok)
            if args.summary:
                actions.append(tok)
            else:
                actions.append({'legal': legal, 'played': tok,
                                'state': st.to_json()})
        res = st.to_json()['result']
        if args.summary:
            print(json.dumps({'seed': seed, 'n_actions': len(actions),
                              'result': res}))
        else:
            print(json.dumps({'seed': seed, 'actions': actions, 'result': res}))
        sys.stdout.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main())
