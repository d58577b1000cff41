#!/usr/bin/env python3
"""Start-up of whole `warren run` processes, builds compared side by side.

    python3 benches/startup/run.py ROUNDS BUILD [BUILD ...]

Run from the repository root. Each round starts every BUILD once, in turn, with
`run scripts/rooms.lua --seed 1` and its output to /dev/null, and times the process from spawn
to exit; the medians and quartiles follow (BENCHMARKS.md, "a whole `warren run` of a small
map"). Give each build as a fresh copy of its binary made just before (`cp
target/x86_64-unknown-linux-gnu/release/warren /tmp/warren-new`, where .cargo/config.toml puts
it): a copy made long before, of the same build, started up to 0.35 ms slower here.
"""
import os
import statistics
import sys
import time

ARGS = ["run", "scripts/rooms.lua", "--seed", "1"]
# The goal for a whole run (issue 43, BENCHMARKS.md), in milliseconds.
GOAL_MS = 2.0


def main() -> None:
    """Times the rounds and prints each build's median, quartiles and verdict."""
    # Two rounds at least: quartiles need two times.
    if len(sys.argv) < 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 2:
        sys.exit(__doc__)
    rounds, builds = int(sys.argv[1]), sys.argv[2:]
    # By position: the same binary may be given twice.
    times = [[] for _ in builds]
    null = os.open(os.devnull, os.O_WRONLY)
    quiet = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
    for _ in range(rounds):
        for n, build in enumerate(builds):
            started = time.perf_counter()
            pid = os.posix_spawn(build, [build] + ARGS, os.environ, file_actions=quiet)
            _, status = os.waitpid(pid, 0)
            times[n].append((time.perf_counter() - started) * 1000)
            if status != 0:
                sys.exit(f"{build} failed (wait status {status})")
    for build, runs in zip(builds, times):
        q1, _, q3 = statistics.quantiles(runs, n=4)
        median = statistics.median(runs)
        verdict = "met" if median <= GOAL_MS else "not met"
        print(
            f"{build}: median {median:.3f} ms (quartiles {q1:.3f}, {q3:.3f});"
            f" goal ≤ {GOAL_MS} ms: {verdict}"
        )


if __name__ == "__main__":
    main()
