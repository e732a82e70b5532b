#!/bin/sh
# Regenerates the Fairy-Stockfish data of the game library (issue 28): one file
# tests/fsf/NAME.txt per game games/NAME.variant that Fairy-Stockfish knows by that name, written
# by scripts/fsf_oracle_data.py from pyffish, for tests/library.rs (which needs no pyffish).
#
# Usage: scripts/fsf_library_data.sh [NAME...]   (default: every game of the library in games/)
#
# Every file: 4 seeded random games (seed 1) of at most 80 plies, each position with its sorted
# legal moves, result and the move played; perft 3 from the start and 2 from each game's middle
# position (ply 40, or its last). A game whose data would grow past ~300 KB (many legal moves:
# drops, a big board), or whose random games seldom reach its own end, gets its own options in
# `options` below (the later ones win). Deterministic: the same pyffish version
# writes the same files (the version is in each file's second line).
set -eu
cd "$(dirname "$0")/.."

# The games, with the options that differ from the defaults.
options() {
    case "$1" in
        # Random kings seldom walk to the hill: 8 games of 120 plies, two of which end there.
        kingofthehill) echo "--games 8 --plies 120" ;;
        # Random placements seldom put a King and a Rook on their castling squares: seed 10's
        # games gain castling rights (for several sides and rooks) and keep them for a while.
        placement) echo "--seed 10" ;;
        # Random kings seldom race to the eighth rank: 6 games of 200 plies, three of which end
        # there (Black first, so White loses at once).
        racingkings) echo "--games 6 --plies 200" ;;
        # Random games seldom reach Spartan's rules: 6 games of 200 plies hold 103 positions
        # where Black has one King left, hoplite promotions with and without the King among
        # the choices (Black has two, or fewer), and a checkmate.
        spartan) echo "--games 6 --plies 200" ;;
        # Random games fill the board after some 70 to 120 plies: 4 games of up to 400 plies,
        # each ending on a full board, one with a pass (a side with stones and no move).
        ataxx) echo "--plies 400" ;;
        # Random games of dobutsu end within a few plies (a lion taken): 16 games, so that
        # chicks promote and lions try.
        dobutsu) echo "--games 16" ;;
        # Sittuyin's setup takes 32 plies, and a pawn promotes only where its side has lost its
        # general: 6 games of 160 plies, in which pawns promote.
        sittuyin) echo "--games 6 --plies 160" ;;
        # Duck chess lists some 600 moves a position (each move once per square for the
        # duck), and pyffish counts perft slowly: perft 2 from the start (379,440) and from the
        # middles; seed 59's 2 games of up to 40 plies both end by a King captured (at plies 27
        # and 19), in some 450 KB.
        duck) echo "--seed 59 --games 2 --plies 40 --perft-depth 2" ;;
        *) echo "" ;;
    esac
}

# Issue 28's library, as Fairy-Stockfish names the games (tests/library.rs lists the same names);
# a game not yet in games/ is skipped.
GAMES="crazyhouse atomic kingofthehill 3check antichess losers horde racingkings gothic seirawan
knightmate extinction placement chaturanga amazon berolina courier breakthrough ataxx spartan
newzealand hoppelpoppel duck torpedo grasshopper shogi minishogi xiangqi minixiangqi dobutsu
sittuyin janggi shako"

if [ "$#" -gt 0 ]; then
    GAMES="$*"
fi
for name in $GAMES; do
    if [ ! -f "games/$name.variant" ]; then
        echo "skipped $name: no games/$name.variant yet" >&2
        continue
    fi
    # shellcheck disable=SC2046 # the options are words
    python3 scripts/fsf_oracle_data.py "$name" --seed 1 --games 4 --plies 80 \
        --perft-depth 3 --mid-depth 2 $(options "$name") --out "tests/fsf/$name.txt"
    echo "tests/fsf/$name.txt: $(wc -c < "tests/fsf/$name.txt") bytes"
done
