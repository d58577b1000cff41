#!/usr/bin/env python3
"""Steady tails: a set of whole `warren batch` runs of `townmaze.lua` at 399×399, each
run's p95 map time against its median, and whether every run of the set meets the goal.

    python3 benches/tails/run.py RUNS BUILD [BUILD ...]

Run from the repository root. Each round starts every BUILD once, in turn, with
`batch scripts/townmaze.lua --set width=399 --set height=399 --count 200 --jobs 1 --timing`,
reads the median and p95 of the `total` row of its `time µs` table, and takes the process's
own page faults (minor and major) and peak resident memory from `wait4` (never below this
script's own, about 14 MiB, which the child shares until it starts the build; a town's batch
holds more); a table per build and the verdict follow (BENCHMARKS.md, "`townmaze.lua`
399×399, p95 against the median"; the goal: p95 ≤ 1.3× the median in every run of a set of
ten). Give each build as a copy of its binary (`target/x86_64-unknown-linux-gnu/release/warren`,
where .cargo/config.toml puts it). The environment is every build's: to compare settings read
from it (`MIMALLOC_PURGE_DELAY`, say), run the script once for each.

Each round also runs a control after the builds: `control.c` beside this script (compiled with
`$CC`, else `cc`, at `-O2`), which makes as many "maps" as a build's run (200) of a fixed
amount of work, the kind a town's growth does, on about as much data as a town holds and each
about as long, and times each. Its spread is the host's own: where the control misses the goal
in a run, this host cannot meet it reliably, and a build's misses beside say little of the build.
The converse does not hold: the control's steps wait on divisions more than on memory, so a
neighbour pressing on the cache the cores share slows it far less than it slows a town
(`contention.py` beside this script measures both), and a control that meets the goal does not
show that the host was quiet for a town.
"""
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile

# Maps a run.
MAPS = 200
# What each run does, after the binary's path.
ARGS = [
    "batch", "scripts/townmaze.lua", "--set", "width=399", "--set", "height=399",
    "--count", str(MAPS), "--jobs", "1", "--timing",
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


def compile_program(folder: str, name: str) -> str:
    """The C program `NAME.c` beside this script, compiled into `folder`; its path."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.c")
    binary = os.path.join(folder, name)
    # $CC may carry words of its own ("ccache gcc").
    compiler = shlex.split(os.environ.get("CC") or "cc")
    try:
        built = subprocess.run(compiler + ["-O2", "-o", binary, source], capture_output=True)
    except OSError as e:
        sys.exit(f"cannot run the C compiler {compiler[0]} for {source}: {e} (set CC)")
    if built.returncode != 0:
        reason = built.stderr.decode("utf-8", "replace")
        sys.exit(f"{' '.join(compiler)} could not build {source}:\n{reason}")
    return binary


def compile_control(folder: str) -> str:
    """The control program, compiled into `folder`; its path."""
    return compile_program(folder, "control")


def nearest_rank(times: list, fraction: float) -> float:
    """The ⌈n·fraction⌉-th smallest of `times`, as `warren batch --timing` takes its quantiles."""
    ordered = sorted(times)
    return ordered[max(math.ceil(len(ordered) * fraction), 1) - 1]


def control_run(control: str) -> dict:
    """One run of the control: its median and p95 (ms)."""
    with tempfile.TemporaryFile() as out:
        actions = [(os.POSIX_SPAWN_DUP2, out.fileno(), 1)]
        pid = os.posix_spawn(control, [control, str(MAPS)], os.environ, file_actions=actions)
        try:
            _, status = os.waitpid(pid, 0)
        except BaseException:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            raise
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            sys.exit(f"the control failed ({code})")
        out.seek(0)
        times = [float(line) / 1000 for line in out.read().decode().split()]
    median, p95 = nearest_rank(times, 0.5), nearest_rank(times, 0.95)
    return {"median": median, "p95": p95, "ratio": p95 / median}


def main() -> None:
    """Runs the set and prints each build's runs and verdict."""
    if len(sys.argv) < 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit(__doc__)
    runs, builds = int(sys.argv[1]), sys.argv[2:]
    # By position: the same binary may be given twice; the control comes last.
    results = [[] for _ in builds] + [[]]
    with tempfile.TemporaryDirectory() as folder:
        control = compile_control(folder)
        for _ in range(runs):
            for n, build in enumerate(builds):
                results[n].append(one_run(build))
            results[-1].append(control_run(control))
    names = builds + ["control (benches/tails/control.c: the host's own spread)"]
    for build, rows in zip(names, results):
        # The control's page faults and memory say nothing of warren: not taken.
        has_usage = "peak" in rows[0]
        print(f"{build}:")
        print("  run  median ms  p95 ms  p95/median" + ("  page faults  peak MiB" * has_usage))
        for n, r in enumerate(rows, 1):
            usage = f"  {r['faults']:11}  {r['peak']:8.1f}" if has_usage else ""
            print(f"  {n:3}  {r['median']:9.2f}  {r['p95']:6.2f}  {r['ratio']:10.2f}{usage}")
        met = sum(r["ratio"] <= GOAL for r in rows)
        verdict = "met" if met == runs else "not met"
        print(f"  p95 ≤ {GOAL}× the median in every run: {verdict} ({met} of {runs} runs)")
    host_met = sum(r["ratio"] <= GOAL for r in results[-1])
    if host_met < runs:
        print(
            f"The control itself missed the goal in {runs - host_met} of {runs} runs: this host's"
            " own spread is wider than the goal allows, so a build's misses here may be the"
            " host's. Judge a build on a quieter host, or by its runs beside the control's."
        )


if __name__ == "__main__":
    main()
