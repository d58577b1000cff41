#!/usr/bin/env python3
"""How much a neighbour on the other core slows a town's maps, and the control's.

    python3 benches/tails/contention.py ROUNDS BUILD

Run from the repository root, on a machine with at least two CPUs. This script and what it
starts run on the first CPU; `neighbour.c` beside it (compiled with `$CC`, else `cc`, at
`-O2`) runs on the second, walking a buffer of 24 MiB (within the development machine's 32 MiB
cache that the cores share) or 64 MiB (past it, into memory) the whole time a run lasts. Each
round runs the same batch as `run.py` (`townmaze.lua` at 399×399, 200 maps) and the control,
first with no neighbour, then beside each neighbour, and takes each run's median map time. The
medians over the rounds follow, with each against its time alone (BENCHMARKS.md, "a town's maps
and the control beside a neighbour on the other CPU").

What it tells: whether the control of `run.py` feels what a town feels when another guest
presses on the caches the two cores share. Where the town slows beside a neighbour and the
control does not, a control that meets the tails' goal does not show the host to be quiet for a
town: a run's slow stretch may be such a neighbour, which the control would not have seen.
"""
import os
import signal
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import compile_control, compile_program, control_run, one_run  # noqa: E402

# The neighbour's buffer in each condition, in MiB (None: no neighbour).
NEIGHBOURS = [None, 24, 64]
# How long a neighbour runs before the timed run starts (its buffer written, its walk going).
WARM_SECONDS = 0.3


def start_neighbour(program: str, mib: int) -> int:
    """Starts the neighbour on the second CPU; its pid."""
    pid = os.posix_spawn(program, [program, str(mib)], os.environ)
    try:
        os.sched_setaffinity(pid, {1})
        time.sleep(WARM_SECONDS)
    except BaseException:
        stop(pid)
        raise
    return pid


def stop(pid: int) -> None:
    """Ends a neighbour."""
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def label(mib) -> str:
    """A condition's name."""
    return "alone" if mib is None else f"beside {mib} MiB"


def main() -> None:
    """Runs the rounds and prints each condition's medians against the time alone."""
    if len(sys.argv) != 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit(__doc__)
    if not {0, 1} <= os.sched_getaffinity(0):
        sys.exit("contention.py needs CPUs 0 and 1: the runs on one, the neighbour on the other")
    rounds, build = int(sys.argv[1]), sys.argv[2]
    os.sched_setaffinity(0, {0})
    town = {mib: [] for mib in NEIGHBOURS}
    control_times = {mib: [] for mib in NEIGHBOURS}
    with tempfile.TemporaryDirectory() as folder:
        control = compile_control(folder)
        neighbour = compile_program(folder, "neighbour")
        for _ in range(rounds):
            for mib in NEIGHBOURS:
                pid = None if mib is None else start_neighbour(neighbour, mib)
                try:
                    town[mib].append(one_run(build)["median"])
                    control_times[mib].append(control_run(control)["median"])
                finally:
                    if pid is not None:
                        stop(pid)
    alone = (statistics.median(town[None]), statistics.median(control_times[None]))
    print(f"medians of {rounds} rounds, each run's median map time:")
    print("  condition         town ms  × alone  control ms  × alone")
    for mib in NEIGHBOURS:
        t, c = statistics.median(town[mib]), statistics.median(control_times[mib])
        print(f"  {label(mib):16}  {t:7.2f}  {t / alone[0]:7.2f}  {c:10.2f}  {c / alone[1]:7.2f}")


if __name__ == "__main__":
    main()
