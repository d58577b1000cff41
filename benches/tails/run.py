#!/usr/bin/env python3
"""Steady tails: a set of whole `warren batch` runs of `townmaze.lua` at 399×399, each
run's p95 map time against its median, and whether every run of the set meets the goal.

    python3 benches/tails/run.py RUNS BUILD [BUILD ...]

Run from the repository root. Each round starts every BUILD once, in turn, with
`batch scripts/townmaze.lua --set width=399 --set height=399 --count 200 --jobs 1 --timing`,
reads the median and p95 of the `total` row of its `time µs` table, and takes the process's
own page faults (minor and major) and peak resident memory from `wait4`; a table per build
and the verdict follow (BENCHMARKS.md, "`townmaze.lua` 399×399, p95 against the median"; the
goal: p95 ≤ 1.3× the median in every run of a set of ten). Give each build as a copy of its
binary (`target/x86_64-unknown-linux-gnu/release/warren`, where .cargo/config.toml puts it).
The environment is every build's: to compare settings read from it (`MIMALLOC_PURGE_DELAY`,
say), run the script once for each.
"""
import os
import re
import sys
import tempfile

# What each run does, after the binary's path.
ARGS = [
    "batch", "scripts/townmaze.lua", "--set", "width=399", "--set", "height=399",
    "--count", "200", "--jobs", "1", "--timing",
]
# p95 ÷ median, at most, in every run.
GOAL = 1.3
# The `total` row of the `time µs` table: maps, min, median, p95 (µs; "~" marks a quantile
# read from the histogram's buckets).
TOTAL = re.compile(r"^total\s+\d+\s+~?([\d.]+)\s+~?([\d.]+)\s+~?([\d.]+)", re.MULTILINE)


def one_run(build: str) -> dict:
    """One batch of `build`: its median and p95 (ms), page faults and peak memory (MiB)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        actions = [(os.POSIX_SPAWN_DUP2, out.fileno(), 1), (os.POSIX_SPAWN_DUP2, err.fileno(), 2)]
        pid = os.posix_spawn(build, [build] + ARGS, os.environ, file_actions=actions)
        try:
            _, status, usage = os.wait4(pid, 0)
        except BaseException:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            raise
        out.seek(0)
        err.seek(0)
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            sys.exit(f"{build} failed ({code}):\n{err.read().decode('utf-8', 'replace')}")
        timing = out.read().decode("utf-8", "replace")
    # The table of times comes after the recipe's metrics, one of which may be named `total`.
    table = timing.find("\ntime µs")
    found = TOTAL.search(timing, table) if table >= 0 else None
    if found is None:
        sys.exit(f"{build}: no `total` row in its `time µs` table:\n{timing}")
    _, median, p95 = (float(v) / 1000 for v in found.groups())
    return {
        "median": median,
        "p95": p95,
        "ratio": p95 / median,
        "faults": usage.ru_minflt + usage.ru_majflt,
        "peak": usage.ru_maxrss / 1024,
    }


def main() -> None:
    """Runs the set and prints each build's runs and verdict."""
    if len(sys.argv) < 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit(__doc__)
    runs, builds = int(sys.argv[1]), sys.argv[2:]
    # By position: the same binary may be given twice.
    results = [[] for _ in builds]
    for _ in range(runs):
        for n, build in enumerate(builds):
            results[n].append(one_run(build))
    for build, rows in zip(builds, results):
        print(f"{build}:")
        print("  run  median ms  p95 ms  p95/median  page faults  peak MiB")
        for n, r in enumerate(rows, 1):
            print(
                f"  {n:3}  {r['median']:9.2f}  {r['p95']:6.2f}  {r['ratio']:10.2f}"
                f"  {r['faults']:11}  {r['peak']:8.1f}"
            )
        met = sum(r["ratio"] <= GOAL for r in rows)
        verdict = "met" if met == runs else "not met"
        print(f"  p95 ≤ {GOAL}× the median in every run: {verdict} ({met} of {runs} runs)")


if __name__ == "__main__":
    main()
