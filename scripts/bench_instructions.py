#!/usr/bin/env python3
"""Compares two builds of the benchmark suite by the instructions they execute, game by game.

`scripts/bench-compare.sh --instructions BASE [HEAD]` builds the suite (`benches/suite.rs`) at
both commits and calls this script with the two executables. Each game is run once per build
under callgrind (`valgrind --tool=callgrind`), and the instructions executed inside the engine's
perft (`suite::engine_perft`) and its random playouts (`suite::playouts`) are read from the
profile's inclusive counts. Both builds do the same work: the suite checks every perft count
and every playout's plies against its table.

Why a second instrument beside the timed one: on a shared virtual machine the CPU time of one
run varies by tens of percent from run to run (a measure of the timed comparison swung between
0.54 and 0.99 over three rounds with no other builds running, 2026-11-27), far more than the 5% the rule
judges, while the instruction count is the same on every run and under any load. It is not
time: it does not see the cost of cache misses or mispredicted branches, so a change that moves
memory traffic must still be timed. The speed ratio printed is BASE's count over HEAD's (above
1: HEAD executes fewer instructions), flagged when below 0.95 (issue 26's 5%); Cheversi's perft
is judged by the timed comparison's 15% rule instead, as scripts/bench_compare.py does.

Usage: bench_instructions.py --base SUITE --head SUITE [--game NAME]... [--jobs N]
       [--base-label TEXT] [--head-label TEXT] [--keep DIR]
Exit status: 0 when every measure is within its limit, 1 when one is not (or a run failed), 2 on
bad usage.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

from bench_compare import LIMIT  # the same 5% as the timed comparison
EXEMPT = {("cheversi", "perft"): "judged by the 15% rule of the timed comparison"}
# callgrind_annotate --inclusive=yes lines: "1,234,567 (12.34%)  file.rs:function [object]",
# one per source file of a function (code inlined from elsewhere has lines of its own): the
# largest, the function's own file, holds its whole inclusive count.
LINE = re.compile(r"^\s*([\d,]+)\s+\([^)]*\)\s+\S*?\.rs:(\S+)")
MEASURES = {"suite::engine_perft": "perft", "suite::playouts": "playouts"}


def games_of(suite, chosen):
    """The games the suite lists (all, or those `chosen`), by name."""
    args = [suite, "--list"]
    for name in chosen:
        args += ["--game", name]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    names = []
    for line in out.splitlines()[2:]:
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) > 2 and cells[1]:
            names.append(os.path.basename(cells[1]).removesuffix(".variant"))
    return names


def inclusive_counts(annotated):
    """The perft's and the playouts' inclusive counts in `callgrind_annotate --inclusive=yes`
    output, by measure (those it has)."""
    counts = {}
    for line in annotated.splitlines():
        match = LINE.match(line)
        if match and match.group(2) in MEASURES:
            measure = MEASURES[match.group(2)]
            counts[measure] = max(counts.get(measure, 0), int(match.group(1).replace(",", "")))
    return counts


def verdict(game, measure, base, head):
    """The speed ratio BASE/HEAD of one measure's counts, and whether it is over the limit,
    with the verdict's text."""
    ratio = base / head
    if (game, measure) in EXEMPT:
        return ratio, False, f"not limited: {EXEMPT[(game, measure)]}"
    if ratio < 1 - LIMIT:
        return ratio, True, f"SLOWER by {(1 - ratio) * 100:.1f}% (limit {LIMIT * 100:.0f}%)"
    return ratio, False, "ok"


def profile(suite, game, out_dir, label):
    """The inclusive instruction counts of the perft and the playouts of `game`, or an error."""
    out = os.path.join(out_dir, f"{label}-{game}.callgrind")
    run = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            suite,
            "--game",
            game,
            "--runs",
            "1",
            "--skip-missing",
            "--json",
        ],
        capture_output=True,
        text=True,
    )
    if run.returncode != 0 or '"error"' in run.stdout:
        return None, f"{label} {game}: the suite failed ({run.stdout[-300:]}{run.stderr[-300:]})"
    if '"skipped"' in run.stdout:
        # The game's file does not exist at this commit (--skip-missing).
        return {}, None
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
        capture_output=True,
        text=True,
    )
    counts = inclusive_counts(annotated.stdout)
    if len(counts) != len(MEASURES):
        return None, f"{label} {game}: no inclusive count for {sorted(set(MEASURES.values()) - set(counts))}"
    return counts, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True)
    parser.add_argument("--head", required=True)
    parser.add_argument("--game", action="append", default=[])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--base-label", default="BASE")
    parser.add_argument("--head-label", default="HEAD")
    parser.add_argument("--keep", help="keep the callgrind profiles in this folder")
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    games = games_of(args.head, args.game)
    if not games:
        print("error: no games to measure", file=sys.stderr)
        return 2
    out_dir = args.keep or tempfile.mkdtemp(prefix="bench-instructions.")
    os.makedirs(out_dir, exist_ok=True)
    tasks = [(label, suite, game) for game in games
             for label, suite in (("base", args.base), ("head", args.head))]
    results, errors = {}, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(profile, suite, game, out_dir, label): (label, game)
                   for label, suite, game in tasks}
        for future in concurrent.futures.as_completed(futures):
            counts, error = future.result()
            if error:
                errors.append(error)
            else:
                results[futures[future]] = counts
    print(f"Instructions executed (callgrind), BASE {args.base_label}, HEAD {args.head_label}; "
          "speed ratio = BASE's count / HEAD's.\n")
    print("| game | measure | BASE Ir | HEAD Ir | speed HEAD/BASE | verdict |")
    print("|---|---|---|---|---|---|")
    over = False
    for game in games:
        base, head = results.get(("base", game)), results.get(("head", game))
        if base is None or head is None:
            print(f"| {game} | | | | | not measured (see errors) |")
            continue
        if not base or not head:
            print(f"| {game} | | | | | measured at {'HEAD' if head else 'BASE'} only |")
            continue
        for measure in ("perft", "playouts"):
            ratio, slower, text = verdict(game, measure, base[measure], head[measure])
            over |= slower
            print(f"| {game} | {measure} | {base[measure]:,} | {head[measure]:,} | "
                  f"{ratio:.3f} | {text} |")
    for error in sorted(errors):
        print(f"error: {error}", file=sys.stderr)
    if errors or over:
        print("\nFAILED: a measure is over its limit or could not be measured")
        return 1
    print("\nevery measure within its limit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
