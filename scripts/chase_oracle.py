#!/usr/bin/env python3
"""Expectations of tests/chasing.rs: xiangqi repetitions with and without perpetual chasing, and
the verdict pyffish (Fairy-Stockfish 0.0.90, `chasingRule = axf`) gives them.

It plays seeded random games from the start position (captures taken half of the time, so
that pieces come loose), and at each position looks for a cycle of four moves: a move of the
side to move and its way back, a move of the other side and its way back, repeated until the
third occurrence. Moves that put an enemy piece under attack are tried first, so that many
cycles chase. For each cycle it prints the first ply at which pyffish's `is_optional_game_end`
says the game may end and the result then for the side to move (`win`, `loss`, `draw`), as a
Rust tuple (FEN, moves, verdict). It keeps a balance of verdicts: chases (a loss or a win for the
side to move), and draws where some move of the cycle attacked a piece (not a chase: protected,
a check mixed in, both sides chasing).

Run: python3 scripts/chase_oracle.py [SEED] [CASES]

With `--data SEED GAMES` it writes the data of tests/data/xiangqi-chase.txt instead: GAMES longer
random games (30 to 110 plies, captures taken 70% of the time, so that boards thin out and pins,
facing generals and discovered attacks come up), up to 5 first moves and 4 replies per
position, every cycle pyffish ends; each line `FEN<TAB>MOVES<TAB>VERDICT`, every chase (loss or
win) and every 20th draw kept.

With `--constructed` it judges the positions of CONSTRUCTED below and writes them in the same
format: cycles built by hand around one refinement each of Fairy-Stockfish's chase judgement
(`Position::chased`), where the refinement decides the verdict, each with a control that
differs from it by one piece or the king's file and that pyffish judges the other way:
a piece protected by its general alone whose recapture the flying general forbids; "fake
roots" (a protector the action pinned does not protect); the captures a discovered check
makes possible; a pinned horse in a mutual horse attack with an impaired horse. Each case's
comment says what a judgement without the refinement would say.
"""

import random
import sys

import pyffish as sf

VARIANT = "xiangqi"


def verdict(value):
    return "draw" if value == 0 else "win" if value > 0 else "loss"


def squares(move):
    # xiangqi squares: a file letter and a rank of 1 or 2 digits
    i = 1
    while move[i].isdigit():
        i += 1
    return move[:i], move[i:]


def back(move):
    a, b = squares(move)
    return b + a


def attacks_something(fen, moves, move):
    """Whether after `move` the mover could capture something (a rough "attacks a piece")."""
    after = moves + [move]
    # the captures the mover would have if it moved again: the FEN with the side to move flipped
    f = sf.get_fen(VARIANT, fen, after).split()
    f[1] = "w" if f[1] == "b" else "b"
    flipped = " ".join(f)
    try:
        legal = sf.legal_moves(VARIANT, flipped, [])
    except Exception:
        return False
    board = flipped.split()[0]
    return any(capture(board, m) for m in legal)


def cycle(first, second):
    return [first, second, back(first), back(second)] * 2


def judge(fen, moves):
    """The first ply at which pyffish ends the game, and its verdict; None if never."""
    for ply in range(1, len(moves) + 1):
        played = moves[:ply]
        optional, value = sf.is_optional_game_end(VARIANT, fen, played)
        if optional:
            return ply, verdict(value)
        immediate, _ = sf.is_immediate_game_end(VARIANT, fen, played)
        if immediate:
            return None
    return None


def legal_cycle(fen, moves):
    for ply, move in enumerate(moves):
        if move not in sf.legal_moves(VARIANT, fen, moves[:ply]):
            return False
    return True


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 27
    wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    rng = random.Random(seed)
    start = sf.start_fen(VARIANT)
    found = {"win": [], "loss": [], "draw": []}
    seen = set()
    games = 0
    while sum(min(len(v), wanted // 3 + 1) for v in found.values()) < wanted and games < 400:
        games += 1
        moves = []
        for _ in range(rng.randrange(10, 60)):
            legal = sf.legal_moves(VARIANT, start, moves)
            if not legal:
                break
            board = sf.get_fen(VARIANT, start, moves).split()[0]
            captures = [m for m in legal if capture(board, m)]
            move = rng.choice(captures if captures and rng.random() < 0.5 else legal)
            moves.append(move)
        if sf.is_optional_game_end(VARIANT, start, moves)[0] or not sf.legal_moves(VARIANT, start, moves):
            continue
        fen = sf.get_fen(VARIANT, start, moves)
        # a position of its own: no history behind it
        legal = [m for m in sf.legal_moves(VARIANT, fen, []) if not capture(fen.split()[0], m)]
        rng.shuffle(legal)
        legal.sort(key=lambda m: not attacks_something(fen, [], m))
        for first in legal[:4]:
            replies = [m for m in sf.legal_moves(VARIANT, fen, [first]) if not capture(sf.get_fen(VARIANT, fen, [first]).split()[0], m)]
            rng.shuffle(replies)
            replies.sort(key=lambda m: not attacks_something(fen, [first], m))
            for second in replies[:3]:
                seq = cycle(first, second)
                if not legal_cycle(fen, seq):
                    continue
                judged = judge(fen, seq)
                if judged is None:
                    continue
                ply, result = judged
                key = (fen, " ".join(seq[:ply]))
                if key in seen:
                    continue
                seen.add(key)
                found[result].append((fen, " ".join(seq[:ply]), result))
    for result in ("loss", "win", "draw"):
        for fen, moves, value in found[result][: wanted // 3 + 1]:
            print(f'    ("{fen}", "{moves}", "{value}"),')


def capture(board, move):
    occupied = set()
    rank = 10
    for row in board.split("/"):
        file = 0
        num = ""
        for ch in row:
            if ch.isdigit():
                num += ch
                continue
            if num:
                file += int(num)
                num = ""
            occupied.add(chr(ord("a") + file) + str(rank))
            file += 1
        rank -= 1
    return squares(move)[1] in occupied


def data(seed, games, plies=(30, 110), capture_rate=0.7):
    """The cycles of `--data`, in the order found: (FEN, moves, verdict)."""
    rng = random.Random(seed)
    start = sf.start_fen(VARIANT)
    out = []
    seen = set()
    for _ in range(games):
        moves = []
        for _ in range(rng.randrange(*plies)):
            legal = sf.legal_moves(VARIANT, start, moves)
            if not legal:
                break
            board = sf.get_fen(VARIANT, start, moves).split()[0]
            caps = [m for m in legal if capture(board, m)]
            moves.append(rng.choice(caps if caps and rng.random() < capture_rate else legal))
        if sf.is_optional_game_end(VARIANT, start, moves)[0] or not sf.legal_moves(VARIANT, start, moves):
            continue
        fen = sf.get_fen(VARIANT, start, moves)
        legal = [m for m in sf.legal_moves(VARIANT, fen, []) if not capture(fen.split()[0], m)]
        rng.shuffle(legal)
        legal.sort(key=lambda m: not attacks_something(fen, [], m))
        for first in legal[:5]:
            after_first = sf.get_fen(VARIANT, fen, [first]).split()[0]
            replies = [m for m in sf.legal_moves(VARIANT, fen, [first]) if not capture(after_first, m)]
            rng.shuffle(replies)
            replies.sort(key=lambda m: not attacks_something(fen, [first], m))
            for second in replies[:4]:
                seq = cycle(first, second)
                if not legal_cycle(fen, seq):
                    continue
                judged = judge(fen, seq)
                if judged is None:
                    continue
                ply, result = judged
                key = (fen, " ".join(seq[:ply]))
                if key in seen:
                    continue
                seen.add(key)
                out.append((fen, " ".join(seq[:ply]), result))
    return out


# (FEN, first move, reply): the cycle is `cycle(first, reply)`, judged by pyffish. In every
# case but the first two, Black's reply (a soldier across the river stepping sideways on rank 2)
# touches nothing, and White's two moves are the cycle's chases or not: White to move after the
# cycle has `loss` when both of its moves chased the same piece, `draw` otherwise.
CONSTRUCTED = [
    # a cannon protected by its general alone, whose recapture on e8 would face the other general
    ("9/4k4/R3c4/9/9/9/9/9/9/4K4 b - - 0 1", "e8e7", "a8a7"),
    ("9/4k4/4c3R/9/9/9/9/9/9/4K4 b - - 0 1", "e8e7", "i8i7"),
    # Fake roots 1: the cannon on c3 chases the rook on c7 (over the soldier on c5: a weaker
    # attacker, protected or not); back on e3 it pins the horse on e6 (with the soldier on e8 as
    # the other screen), the horse that protects c7, which the rook on a7 attacks. Only the fake
    # root makes e3 a chase (the cannon attacks nothing new there, and a7 x c7 is a mutual rook
    # attack): pyffish says loss; without fake roots, draw.
    ("4k4/9/4P4/R1r6/4n4/2P6/9/4C4/8p/3K5 w - - 0 1", "e3c3", "i2h2"),
    #   control: the general on d10, so e3 pins nothing: draw
    ("3k5/9/4P4/R1r6/4n4/2P6/9/4C4/8p/5K3 w - - 0 1", "e3c3", "i2h2"),
    # Fake roots 2: the horse on c6 chases the rook on b8 (weaker attacker); back on d8 it pins
    # the horse on d9 (on its leg to e10), which protects b8, which the rook on b3 attacks: the
    # fake root is the only chase of d8 (no new attack there): loss; without fake roots, draw.
    ("4k4/3n5/1r1N5/9/9/9/9/1R7/8p/3K5 w - - 0 1", "d8c6", "i2h2"),
    #   control: no rook on b3, so nothing of White attacks b8 when d8 pins its protector: draw
    ("4k4/3n5/1r1N5/9/9/9/9/9/8p/3K5 w - - 0 1", "d8c6", "i2h2"),
    # Discovered check 1: the rook on c3 attacks the unprotected cannon on c7; back on e3 it
    # makes the horse on e6 able to give discovered check, and the horse attacks c7 (not beside
    # the general, which could take back): a chase only by that rule (the horse's attack is not
    # new, the rook attacks nothing new): loss; without it, draw.
    ("4k4/9/9/2c6/4N4/9/9/4R4/p8/3K5 w - - 0 1", "e3c3", "a2b2"),
    #   control: the general on d10, off the e-file: draw
    ("3k5/9/9/2c6/4N4/9/9/4R4/p8/4K4 w - - 0 1", "e3c3", "a2b2"),
    # Discovered check 2: the cannon on c3 chases the rook on c7 over c5 (weaker attacker); back
    # on e3, with e6 and e8 its screens, it makes the horse on e6 a discoverer, and the horse
    # attacks c7: chased again, though the horse's attack is not new: loss; without it, draw.
    ("4k4/9/4P4/2r6/4N4/2P6/9/4C4/8p/3K5 w - - 0 1", "e3c3", "i2h2"),
    #   control: the general on d10: draw
    ("3k5/9/4P4/2r6/4N4/2P6/9/4C4/8p/5K3 w - - 0 1", "e3c3", "i2h2"),
    # Pinned horse, impaired attacker 1: the horse on e7 is pinned (rook on e3). White's horse
    # on c7 screens the cannon on a7, which then chases e7 (unprotected); on d5 the horse attacks
    # e7, which attacks it back, and the soldier on c4 stands on one of d5's diagonal squares:
    # Fairy-Stockfish counts that mutual attack as no chase even on a pinned horse: draw. Without
    # the refinement (a pinned piece is chased in a mutual attack), loss.
    ("4k4/9/9/C1N1n4/9/9/2P6/4R4/8p/3K5 w - - 0 1", "c7d5", "i2h2"),
    #   control: no soldier on c4, so d5 chases the pinned horse: loss
    ("4k4/9/9/C1N1n4/9/9/9/4R4/8p/3K5 w - - 0 1", "c7d5", "i2h2"),
    # Pinned horse, impaired attacker 2: as above, the horse on e7 pinned by the flying general
    # instead (alone between the generals): draw; without the refinement, loss.
    ("4k4/9/9/C1N1n4/9/9/2P6/9/8p/4K4 w - - 0 1", "c7d5", "i2h2"),
    #   control: no soldier on c4: loss
    ("4k4/9/9/C1N1n4/9/9/9/9/8p/4K4 w - - 0 1", "c7d5", "i2h2"),
]


def write_constructed():
    print(f"# python3 scripts/chase_oracle.py --constructed  (pyffish {'.'.join(map(str, sf.version()))})")
    for fen, first, second in CONSTRUCTED:
        seq = cycle(first, second)
        assert legal_cycle(fen, seq), fen
        judged = judge(fen, seq)
        assert judged is not None, fen
        ply, result = judged
        print(f"{fen}\t{' '.join(seq[:ply])}\t{result}")


def write_data(seed, games):
    draws = 0
    print(f"# python3 scripts/chase_oracle.py --data {seed} {games}  (pyffish {'.'.join(map(str, sf.version()))})")
    for fen, moves, result in data(seed, games):
        if result == "draw":
            draws += 1
            if draws % 20 != 1:
                continue
        print(f"{fen}\t{moves}\t{result}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--constructed":
        write_constructed()
    elif len(sys.argv) > 1 and sys.argv[1] == "--data":
        write_data(int(sys.argv[2]), int(sys.argv[3]))
    else:
        main()
