#!/usr/bin/env python3
"""Write deterministic test data for a Fairy-Stockfish variant, from pyffish, for Rust tests.

Usage: scripts/fsf_oracle_data.py VARIANT [--config FILE] [--seed S] [--games N] [--plies P]
           [--perft-depth D] [--mid-depth M] [--out FILE]

Plays N seeded random games of VARIANT (a built-in Fairy-Stockfish variant, or a section of the
variants.ini given with --config, loaded with `pyffish.load_variant_config`) of at most P plies,
each move drawn uniformly from pyffish's sorted legal moves with Python's `random.Random(S)`, so
the same arguments and the same pyffish version give the same file. Then counts perft (legal
moves at the last ply, summed over the tree, by recursion over `legal_moves`) from the start to
depth D, and from the middle position of each game (ply P/2, or its last position) to depth M.

The output (standard output, or --out FILE) is plain text, one record per line, fields separated
by one tab, so that a Rust test reads it with `line.split('\\t')`:

    # comment lines start with `#` (the command and the pyffish version)
    variant<TAB>VARIANT
    start<TAB>FEN
    game<TAB>G
    position<TAB>FEN<TAB>MOVES<TAB>RESULT<TAB>PLAYED
    perft<TAB>FEN<TAB>DEPTH<TAB>NODES

- `game G` (G from 0) opens a game; the `position` lines that follow are its positions in order,
  from the start to the last one.
- MOVES is the sorted legal moves in pyffish's UCI notation, separated by single spaces (empty
  when there is none).
- RESULT is `-` while the game goes on, else the result for the side to move: `win`, `loss` or
  `draw`, where pyffish lists no legal move (`game_result`) or ends the game at once
  (`is_immediate_game_end`: an exploded king, a flag reached, ...). Optional ends (repetition,
  the n-move rule) are not applied, as pyffish's move lists do not apply them.
- PLAYED is the move played from this position (one of MOVES), whose FEN is the next `position`
  line's (pyffish's `get_fen` from this FEN, so no history: repetition never applies); `-` at a
  game's last position.
- A game ends at its first position with a result, or after P plies.
"""

import argparse
import random
import sys

import pyffish as sf


def verdict(value):
    """`win`, `loss` or `draw` for a pyffish value (for the side to move)."""
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def result(variant, fen, legal):
    """The RESULT field of a position (see the module)."""
    ended, value = sf.is_immediate_game_end(variant, fen, [])
    if ended:
        return verdict(value)
    if not legal:
        return verdict(sf.game_result(variant, fen, []))
    return "-"


def perft(variant, fen, depth):
    """Legal moves at the last ply, summed over the tree below `fen`."""
    legal = sf.legal_moves(variant, fen, [])
    if depth <= 1:
        return len(legal)
    return sum(perft(variant, sf.get_fen(variant, fen, [move]), depth - 1) for move in legal)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--config", help="a Fairy-Stockfish variants.ini to load first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--plies", type=int, default=80)
    parser.add_argument("--perft-depth", type=int, default=3)
    parser.add_argument("--mid-depth", type=int, default=2)
    parser.add_argument("--out", help="write here instead of standard output")
    args = parser.parse_args()
    if args.config:
        with open(args.config, encoding="utf-8") as config:
            sf.load_variant_config(config.read())
    if args.variant not in sf.variants():
        raise SystemExit(f"Fairy-Stockfish knows no variant `{args.variant}`")
    rng = random.Random(args.seed)
    start = sf.start_fen(args.variant)
    lines = [
        f"# {' '.join(['scripts/fsf_oracle_data.py'] + sys.argv[1:])}",
        f"# pyffish {'.'.join(map(str, sf.version()))}",
        f"variant\t{args.variant}",
        f"start\t{start}",
    ]
    middles = []
    for game in range(args.games):
        lines.append(f"game\t{game}")
        fen, played = start, []
        while True:
            legal = sorted(sf.legal_moves(args.variant, fen, []))
            outcome = result(args.variant, fen, legal)
            if len(played) == args.plies // 2 or (outcome != "-" and len(played) < args.plies // 2):
                middles.append(fen)
            if outcome != "-" or len(played) >= args.plies:
                lines.append(f"position\t{fen}\t{' '.join(legal)}\t{outcome}\t-")
                break
            move = rng.choice(legal)
            lines.append(f"position\t{fen}\t{' '.join(legal)}\t{outcome}\t{move}")
            played.append(move)
            fen = sf.get_fen(args.variant, fen, [move])
    for depth in range(1, args.perft_depth + 1):
        lines.append(f"perft\t{start}\t{depth}\t{perft(args.variant, start, depth)}")
    for fen in middles:
        for depth in range(1, args.mid_depth + 1):
            lines.append(f"perft\t{fen}\t{depth}\t{perft(args.variant, fen, depth)}")
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
