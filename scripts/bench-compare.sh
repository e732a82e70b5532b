#!/usr/bin/env bash
# Compares the speed of two commits on every game with the benchmark suite (benches/suite.rs).
#
# usage: scripts/bench-compare.sh [--rounds N] [--runs N] [--game NAME]... [--instructions]
#                                 [--jobs N] BASE [HEAD]
#
# BASE and HEAD are commits; HEAD defaults to the working tree. Each commit other than the
# working tree is checked out in a temporary git worktree, and the working tree's
# benches/suite.rs, benches/suite-games.txt and benches/reference/cheversi.rs are copied into it
# (with the suite's [[bench]] entry added to its Cargo.toml if missing), so that the same
# instrument measures both commits (rustix, the suite's clock, is added to its dev-dependencies
# if missing). Both suites are built (`cargo bench --no-run`), then run alternately game by
# game, N rounds (default 3): each game at BASE and at HEAD back to back, BASE first in every
# other pair, each run the best of --runs runs per measurement (default 3). scripts/bench_compare.py then prints, per
# game and measure, the speed ratio HEAD/BASE with its spread over the rounds, flags anything
# more than 5% slower (Cheversi perft: at least 15% of the hand-written speed instead), and
# sets the exit status: 0 all within limits, 1 a measure over its limit (or a run failed), 2 bad
# usage or a build that failed.
#
# BASE's build goes to target/bench-compare/ (kept, so the dependencies are compiled once),
# HEAD's to the usual target/ when HEAD is the working tree. The runs' JSON lines are kept in
# target/bench-compare/last/.
#
# --instructions: instead of timing, each game is run once per commit under callgrind, and the
# instructions executed in the engine's perft and playouts are compared
# (scripts/bench_instructions.py, --jobs runs at once, default 2): the same on every run and
# under any load, where the timed runs of a shared machine vary by more than the 5% judged.
# The profiles are kept in target/bench-compare/last/instructions/.
set -euo pipefail

usage() {
    echo "usage: scripts/bench-compare.sh [--rounds N] [--runs N] [--game NAME]... [--instructions] [--jobs N] BASE [HEAD]" >&2
    exit 2
}

fail() {
    echo "error: $*" >&2
    exit 2
}

rounds=3
runs=3
jobs=2
instructions=""
suite_args=()
commits=()
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds | --runs | --jobs)
            [ $# -ge 2 ] || usage
            case "$2" in '' | *[!0-9]* | 0) fail "$1 needs a positive number, not '$2'" ;; esac
            case "$1" in --rounds) rounds=$2 ;; --runs) runs=$2 ;; *) jobs=$2 ;; esac
            shift 2
            ;;
        --instructions)
            instructions=1
            shift
            ;;
        --game)
            [ $# -ge 2 ] || usage
            suite_args+=(--game "$2")
            shift 2
            ;;
        -h | --help) usage ;;
        -*) fail "unknown option '$1'" ;;
        *)
            commits+=("$1")
            shift
            ;;
    esac
done
[ ${#commits[@]} -ge 1 ] && [ ${#commits[@]} -le 2 ] || usage

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

resolve() {
    git rev-parse --verify --quiet "$1^{commit}" || fail "'$1' is not a commit of this repository"
}
base=$(resolve "${commits[0]}")
head=""
if [ ${#commits[@]} -eq 2 ]; then head=$(resolve "${commits[1]}"); fi

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-compare.XXXXXX")
worktrees=()
cleanup() {
    for dir in "${worktrees[@]}"; do
        git -C "$root" worktree remove --force "$dir" >/dev/null 2>&1 || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

cache="$root/target/bench-compare"
# The first time, BASE's target starts as a copy of the working tree's release build, which
# saves compiling the dependencies again.
if [ ! -d "$cache/release" ] && [ -d "$root/target/release" ]; then
    mkdir -p "$cache"
    cp -a "$root/target/release" "$cache/release"
fi
mkdir -p "$cache/last"
rm -f "$cache"/last/*.jsonl "$cache"/last/*.stderr

# Checks COMMIT out in DIR with the working tree's suite copied in.
prepare() {
    local commit=$1 dir=$2
    git worktree add --detach --quiet "$dir" "$commit" || fail "cannot check out $commit"
    worktrees+=("$dir")
    mkdir -p "$dir/benches/reference"
    cp benches/suite.rs benches/suite-games.txt "$dir/benches/"
    cp benches/reference/cheversi.rs "$dir/benches/reference/"
    if ! grep -q '^name = "suite"' "$dir/Cargo.toml"; then
        printf '\n[[bench]]\nname = "suite"\nharness = false\n' >>"$dir/Cargo.toml"
    fi
    # The suite's clock (the thread's CPU time) comes from rustix, a dev-dependency since the
    # suite: added as a table of its own, valid after the [dev-dependencies] table.
    if ! grep -q '^rustix' "$dir/Cargo.toml"; then
        printf '\n[dev-dependencies.rustix]\nversion = "1.1.6"\nfeatures = ["time", "use-libc"]\n' >>"$dir/Cargo.toml"
    fi
}

# Builds the suite in DIR into TARGET (empty: the default) and prints the executable's path.
build() {
    local dir=$1 target=$2 log="$work/build.log" executable
    echo "building the suite in $dir ..." >&2
    if ! (cd "$dir" && CARGO_TARGET_DIR="${target:-${CARGO_TARGET_DIR:-$dir/target}}" \
        cargo bench --no-run --bench suite --message-format=json-render-diagnostics \
        >"$log.json" 2>"$log"); then
        cat "$log" >&2
        fail "the suite does not build in $dir"
    fi
    executable=$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    try:
        message = json.loads(line)
    except ValueError:
        continue
    if message.get("reason") == "compiler-artifact" and message["target"]["name"] == "suite" \
            and message.get("executable"):
        print(message["executable"])
' "$log.json" | tail -n 1)
    [ -n "$executable" ] || fail "no suite executable in the build of $dir"
    echo "$executable"
}

base_dir="$work/base"
prepare "$base" "$base_dir"
base_bin=$(build "$base_dir" "$cache")
if [ -z "$head" ]; then
    head_label="working tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo ', modified'))"
    head_bin=$(build "$root" "")
else
    head_label=$(git rev-parse --short "$head")
    head_dir="$work/head"
    prepare "$head" "$head_dir"
    head_bin=$(build "$head_dir" "$cache")
fi
base_label=$(git rev-parse --short "$base")

if [ -n "$instructions" ]; then
    command -v valgrind >/dev/null || fail "--instructions needs valgrind (apt install valgrind)"
    rm -rf "$cache/last/instructions"
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    status=0
    python3 scripts/bench_instructions.py --base "$base_bin" --head "$head_bin" \
        --base-label "$base_label" --head-label "$head_label" --jobs "$jobs" \
        --keep "$cache/last/instructions" "${suite_args[@]}" || status=$?
    exit "$status"
fi

# Runs one suite; a failing run (a wrong count) is kept: its errors are in its JSON lines.
run_suite() {
    local bin=$1 out=$2 game=$3
    "$bin" --json --skip-missing --runs "$runs" --game "$game" >"$out" 2>"$out.stderr" ||
        echo "warning: $(basename "$out") exited with an error (see $out.stderr)" >&2
}

# The games, from HEAD's table (--game as given); each is run at BASE and at HEAD back to
# back, so that the two runs of a pair see the machine in the same state.
games=$("$head_bin" --list "${suite_args[@]}" | awk -F'|' 'NR > 2 { gsub(/ /, "", $2); print $2 }' |
    sed 's|.*/||; s|\.variant$||')
[ -n "$games" ] || fail "no games to measure"
for round in $(seq 1 "$rounds"); do
    echo "round $round of $rounds ..." >&2
    pair=0
    for game in $games; do
        pair=$((pair + 1))
        base_out="$cache/last/base-$round-$game.jsonl"
        head_out="$cache/last/head-$round-$game.jsonl"
        # BASE first in every other pair, HEAD first in the others.
        if [ $(((round + pair) % 2)) -eq 0 ]; then
            run_suite "$base_bin" "$base_out" "$game"
            run_suite "$head_bin" "$head_out" "$game"
        else
            run_suite "$head_bin" "$head_out" "$game"
            run_suite "$base_bin" "$base_out" "$game"
        fi
        cat "$base_out" >>"$cache/last/base-$round.jsonl"
        cat "$head_out" >>"$cache/last/head-$round.jsonl"
    done
done

base_files=()
head_files=()
for round in $(seq 1 "$rounds"); do
    base_files+=("$cache/last/base-$round.jsonl")
    head_files+=("$cache/last/head-$round.jsonl")
done
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 scripts/bench_compare.py --base "${base_files[@]}" --head "${head_files[@]}" \
    --base-label "$base_label" --head-label "$head_label"
