#!/usr/bin/env python3
"""Judges two commits' speed from runs of the benchmark suite (`benches/suite.rs`).

`scripts/bench-compare.sh` runs the suite built at BASE and at HEAD alternately, several rounds,
each run writing JSON lines (`cargo bench --bench suite -- --json`); this script reads those
files and prints, per game and measure, the speed ratio HEAD/BASE and its spread, flagging any
measure over its limit. Issue 26's rule:

- no measure more than 5% slower than at BASE (HEAD/BASE speed below 0.95);
- except Cheversi's perft, which may fall as far as 15% of the hand-written Cheversi's speed:
  its perft is judged by the ratio to the reference (`perft-vs-hand-written`) measured in
  HEAD's runs, which must stay at or above 15%.

The ratio decided on is that of the best figures over all rounds (each already the best of the
suite's runs): the best is the run least disturbed by other work on the machine. The spread is
the lowest and highest ratio of the rounds taken one by one (HEAD's run against the BASE run
next to it), and shows the noise. For a measure against a reference (`...-vs-...`) the figure
is the engine's speed as a fraction of the reference's, measured in the same run.

Usage: bench_compare.py --base B1.jsonl [B2.jsonl ...] --head H1.jsonl [H2.jsonl ...]
       [--base-label TEXT] [--head-label TEXT]
Exit status: 0 when every measure is within its limit, 1 when one is not (or a run reported an
error, or the two commits did different work), 2 on bad input.
"""

import argparse
import json
import sys

# The largest slow-down allowed (HEAD/BASE speed at least 1 - LIMIT).
LIMIT = 0.05
# Measures not judged by LIMIT: (game, measure) -> why.
EXEMPT = {
    ("cheversi", "perft"): "judged by the 15% rule of perft-vs-hand-written",
}
# Measures judged by HEAD's own ratio to a reference: (game, measure) -> the lowest allowed.
FLOORS = {
    ("cheversi", "perft-vs-hand-written"): 0.15,
}
# The fields that say what work a run did; both commits must do the same.
WORK_FIELDS = ("work", "unit", "depth", "plies", "reference_work")


class InputError(Exception):
    """A file that is not the suite's JSON lines."""


def read_run(path):
    """One run's measurements by (game, measure), its errors and its skipped games."""
    measures, errors, skipped = {}, [], []
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as error:
        raise InputError(f"{path}: {error}") from error
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise InputError(f"{path}:{number}: not JSON ({error})") from error
        if not isinstance(record, dict) or "game" not in record:
            raise InputError(f"{path}:{number}: not a measurement of the suite")
        if "error" in record:
            errors.append(f"{record['game']} {record.get('measure', '')}: {record['error']}")
        elif "skipped" in record:
            skipped.append(record["game"])
        elif "measure" in record and "rate" in record:
            measures[(record["game"], record["measure"])] = record
        else:
            raise InputError(f"{path}:{number}: a measurement without measure or rate")
    return measures, errors, skipped


def figure(record):
    """The figure a measure is judged by: a rate, or the ratio to its reference."""
    return record["ratio"] if "ratio" in record else record["rate"]


def best(records):
    """The best figure of several runs of one measure."""
    if "ratio" in records[0]:
        # The engine's best against the reference's best, over all the runs.
        return max(r["rate"] for r in records) / max(r["reference_rate"] for r in records)
    return max(r["rate"] for r in records)


def work(record):
    return {field: record.get(field) for field in WORK_FIELDS}


def describe(value, record):
    if "ratio" in record:
        return f"{100 * value:.2f}% of ref."
    unit = record.get("unit", "")
    if value >= 1e6:
        return f"{value / 1e6:.2f} M{unit}/s"
    if value >= 1e3:
        return f"{value / 1e3:.2f} k{unit}/s"
    return f"{value:.1f} {unit}/s"


def judge(key, base_records, head_records):
    """One table row for a measure present at both commits, and whether it fails."""
    game, measure = key
    if any(work(r) != work(base_records[0]) for r in base_records + head_records):
        return [game, measure, "", "", "", "", "DIFFERENT WORK: not comparable"], True
    base_best, head_best = best(base_records), best(head_records)
    speed = head_best / base_best
    rounds = [figure(h) / figure(b) for b, h in zip(base_records, head_records)]
    spread = f"{min(rounds):.3f}-{max(rounds):.3f}"
    if key in FLOORS:
        floor = FLOORS[key]
        ok = head_best >= floor
        verdict = f"{'ok' if ok else 'BELOW'} (at least {100 * floor:.0f}% of the reference)"
    elif key in EXEMPT:
        ok, verdict = True, f"not limited: {EXEMPT[key]}"
    else:
        ok = speed >= 1 - LIMIT
        verdict = "ok" if ok else f"SLOWER by {100 * (1 - speed):.1f}% (limit {100 * LIMIT:.0f}%)"
    row = [
        game,
        measure,
        describe(base_best, base_records[0]),
        describe(head_best, head_records[0]),
        f"{speed:.3f}",
        spread,
        verdict,
    ]
    return row, not ok


def compare(base_runs, head_runs):
    """The rows of the comparison, the problems found, and whether any measure failed."""
    failed = False
    problems = []
    for label, runs in (("BASE", base_runs), ("HEAD", head_runs)):
        for number, (_, errors, _) in enumerate(runs, 1):
            for error in errors:
                problems.append(f"{label} run {number}: {error}")
    failed = bool(problems)
    keys = []
    for measures, _, _ in head_runs + base_runs:
        keys.extend(k for k in measures if k not in keys)
    rows = []
    for key in keys:
        base_records = [m[key] for m, _, _ in base_runs if key in m]
        head_records = [m[key] for m, _, _ in head_runs if key in m]
        if not base_records or not head_records:
            side = "HEAD" if head_records else "BASE"
            rows.append([key[0], key[1], "", "", "", "", f"measured at {side} only"])
            continue
        row, bad = judge(key, base_records, head_records)
        rows.append(row)
        failed = failed or bad
    return rows, problems, failed


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", nargs="+", required=True, help="BASE's runs, in order")
    parser.add_argument("--head", nargs="+", required=True, help="HEAD's runs, in order")
    parser.add_argument("--base-label", default="BASE")
    parser.add_argument("--head-label", default="HEAD")
    args = parser.parse_args(argv)
    try:
        base_runs = [read_run(path) for path in args.base]
        head_runs = [read_run(path) for path in args.head]
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    rows, problems, failed = compare(base_runs, head_runs)
    print(f"BASE = {args.base_label}, HEAD = {args.head_label}: "
          f"{len(base_runs)} and {len(head_runs)} runs, alternated")
    print()
    print("| game | measure | BASE best | HEAD best | HEAD/BASE | rounds | verdict |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    for problem in problems:
        print(f"error: {problem}")
    print()
    if failed:
        print(f"FAILED: a measure is over its limit or could not be compared")
    else:
        print(f"ok: no measure more than {100 * LIMIT:.0f}% slower, Cheversi perft at least 15% "
              "of the hand-written speed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
