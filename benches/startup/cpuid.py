"""The CPUID instructions a process runs from its first instruction to its exit, counted by
gdb, with the functions that run them: on a virtual machine each one is a trip to the
hypervisor, several microseconds, so their number is part of the start-up floor that no code
after `main` can lower (BENCHMARKS.md, "a whole `warren run` of a small map", has the figures).

    gdb -q -batch -x benches/startup/cpuid.py --args PROGRAM [ARGS ...]

for example `--args target/x86_64-unknown-linux-gnu/release/warren run scripts/rooms.lua --seed
1`, or `--args /bin/true` for the C library's own share. Every CPUID of the program and of the
shared objects mapped at its first instruction (the dynamic loader, for a dynamic program) gets
a breakpoint that counts and goes on; the cost of one CPUID is timed at the end, in gdb's own
process (a loop of them, through Python's ctypes).
"""
import collections
import ctypes
import mmap
import re
import subprocess
import time

import gdb

# How many CPUID instructions the cost is timed over.
TIMED = 2000


class Counter(gdb.Breakpoint):
    """A breakpoint on one CPUID that counts its hits and never stops."""

    counts = collections.Counter()

    def __init__(self, address, where):
        super().__init__("*0x%x" % address, internal=True)
        self.where = where

    def stop(self):
        Counter.counts[self.where] += 1
        return False


def load_bases():
    """Each object file mapped now, with the address it was loaded at (its first mapping less
    that mapping's file offset)."""
    bases = {}
    for line in gdb.execute("info proc mappings", to_string=True).splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[-1].startswith("/") and parts[-1] not in bases:
            bases[parts[-1]] = int(parts[0], 16) - int(parts[3], 16)
    return bases


def cpuid_sites(path):
    """The CPUID instructions of the object file `path`: (address in the file, function)."""
    listing = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", path], capture_output=True, text=True
    ).stdout
    function = "?"
    for line in listing.splitlines():
        start = re.match(r"^([0-9a-f]+) <(.*)>:$", line)
        if start:
            function = start.group(2)
        elif "\tcpuid" in line:
            yield int(line.split(":")[0], 16), function


def cpuid_cost_us():
    """Microseconds a CPUID takes here: a loop of them run from an executable page."""
    # push rbx (CPUID writes it; the caller keeps it); mov eax, 7; xor ecx, ecx; cpuid;
    # dec edi (the count, the first argument); jnz back to mov; pop rbx; ret
    code = bytes.fromhex("53" "b807000000" "31c9" "0fa2" "ffcf" "75f3" "5b" "c3")
    page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(code)
    address = ctypes.addressof(ctypes.c_char.from_buffer(page))
    loop = ctypes.CFUNCTYPE(None, ctypes.c_int)(address)
    began = time.perf_counter()
    loop(TIMED)
    return (time.perf_counter() - began) / TIMED * 1e6


def main():
    gdb.execute("set pagination off")
    gdb.execute("starti", to_string=True)
    for path, base in load_bases().items():
        for address, function in cpuid_sites(path):
            Counter(base + address, "%s: %s" % (path.rsplit("/", 1)[-1], function))
    gdb.execute("continue", to_string=True)
    total = sum(Counter.counts.values())
    cost = cpuid_cost_us()
    print("%d CPUID instructions, %.1f µs each here: %.2f ms" % (total, cost, total * cost / 1000))
    for where, count in Counter.counts.most_common():
        print("%6d  %s" % (count, where[:100]))


main()
