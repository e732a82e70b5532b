#!/usr/bin/env bash
# A longer fuzz run than `cargo test`: the fuzz suite (tests/fuzz.rs: mutated FENs, moves, game
# files and command lines, through the library and the binary) and the parser's never-panics
# suite (dsl/tests/never_panics.rs), with many more cases and a fresh random seed.
#
# Usage: scripts/fuzz.sh [CASES] [SEED]   (the default takes about 15 minutes on 2 cores)
#   CASES  proptest cases per property (default 20000; the binary runs get CASES/8 and the game
#          file properties CASES/2)
#   SEED   proptest seed (default: random); the seed is printed, and a failure is replayed with
#          `scripts/fuzz.sh CASES SEED`
#
# Tests marked #[ignore] are known failures and are not run; `cargo test --test fuzz -- --ignored`
# runs them. Every failing case is printed with its minimal input. Each suite is stopped after
# FUZZ_TIMEOUT seconds (default 3600): a hang of the fuzz suite fails the run; the never_panics
# rounds stop when the time is up.
set -euo pipefail
cd "$(dirname "$0")/.."

cases="${1:-20000}"
seed="${2:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
limit="${FUZZ_TIMEOUT:-3600}"

echo "fuzz: PROPTEST_CASES=$cases PROPTEST_RNG_SEED=$seed (replay: scripts/fuzz.sh $cases $seed)"
export PROPTEST_CASES="$cases" PROPTEST_RNG_SEED="$seed" RUST_BACKTRACE=0

# Build first, so that the time limit is spent fuzzing.
cargo test --test fuzz --no-run
cargo test -p variant-dsl --test never_panics --no-run

timeout "$limit" cargo test --test fuzz

# never_panics fixes its own number of cases (512 per property), so PROPTEST_CASES does not
# reach it: it runs once per 512 cases instead, each round with the next seed.
rounds=$(( cases / 512 > 0 ? cases / 512 : 1 ))
echo "fuzz: dsl never_panics, $rounds rounds of 512 cases, seeds $seed..$(( seed + rounds - 1 ))"
deadline=$(( SECONDS + limit ))
for (( round = 0; round < rounds; round++ )); do
    left=$(( deadline - SECONDS ))
    if (( left <= 0 )); then
        echo "fuzz: never_panics stopped after $round rounds (FUZZ_TIMEOUT)"
        break
    fi
    PROPTEST_RNG_SEED=$(( seed + round )) timeout "$left" \
        cargo test --quiet -p variant-dsl --test never_panics
done
echo "fuzz: passed (PROPTEST_CASES=$cases PROPTEST_RNG_SEED=$seed)"
