#!/usr/bin/env python3
"""Steady tails: a set of whole `warren batch` runs of `townmaze.lua` at 399×399, each
run's p95 map time against its median, and whether every run of the set meets the goal.

    python3 benches/tails/run.py RUNS BUILD [BUILD ...]

Run from the repository root. Each round starts every BUILD once, in turn, with
`batch scripts/townmaze.lua --set width=399 --set height=399 --count 200 --jobs 1 --timing`,
reads the median and p95 of its `total` row (`time µs`), and takes the process's own page
faults and peak resident memory from `wait4`; a table per build and the verdict follow
(BENCHMARKS.md, "`townmaze.lua` 399×399, p95 against the median"; the goal: p95 ≤ 1.3× the
median in every run of a set of ten). Give each build as a copy of its binary
(`target/x86_64-unknown-linux-gnu/release/warren`, where .cargo/config.toml puts it).
"""
import os
import re
import subprocess
import sys
import tempfile

ARGS = [
    "batch", "scripts/townmaze.lua", "--set", "width=399", "--set", "height=399",
    "--count", "200", "--jobs", "1", "--timing",
]
# p95 ÷ median, at most, in every run.
GOAL = 1.3
# The `total` row of `--timing`: maps, min, median, p95, max, mean (µs; "~" marks a quantile
# read from the histogram's buckets).
TOTAL = re.compile(r"^total\s+\d+\s+~?([\d.]+)\s+~?([\d.]+)\s+~?([\d.]+)", re.MULTILINE)


def one_run(build: str) -> dict:
    """One batch of `build`: its median and p95 (ms), page faults and peak memory (MB)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen([build] + ARGS, stdout=out, stderr=err)
        # Reaped here, not by Popen: wait4 gives this process's own figures.
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if child.returncode != 0:
            sys.exit(f"{build} failed ({child.returncode}):\n{err.read()}")
        timing = out.read()
    found = TOTAL.search(timing)
    if found is None:
        sys.exit(f"{build}: no `total` row in its --timing output:\n{timing}")
    _, median, p95 = (float(v) / 1000 for v in found.groups())
    return {
        "median": median,
        "p95": p95,
        "ratio": p95 / median,
        "faults": usage.ru_minflt + usage.ru_majflt,
        "peak": usage.ru_maxrss / 1024,
    }


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    runs, builds = int(sys.argv[1]), sys.argv[2:]
    results = {build: [] for build in builds}
    for _ in range(runs):
        for build in builds:
            results[build].append(one_run(build))
    for build in builds:
        print(f"{build}:")
        print("  run  median ms  p95 ms  p95/median  page faults  peak MB")
        for n, r in enumerate(results[build], 1):
            print(
                f"  {n:3}  {r['median']:9.2f}  {r['p95']:6.2f}  {r['ratio']:10.2f}"
                f"  {r['faults']:11}  {r['peak']:7.1f}"
            )
        met = sum(r["ratio"] <= GOAL for r in results[build])
        verdict = "met" if met == runs else "not met"
        print(f"  p95 ≤ {GOAL}× the median in every run: {verdict} ({met} of {runs} runs)")


if __name__ == "__main__":
    main()
