#!/usr/bin/env python3
"""Writes src/hot-text.ld, the list of functions the linker places first in the binary's `.text`.

    cargo build --release && python3 benches/startup/hot_text.py [BINARY]

Run from the repository root, with valgrind installed, on a release build (BINARY, by default
target/x86_64-unknown-linux-gnu/release/warren, where .cargo/config.toml puts it). It runs the
binary under callgrind and lists the functions that ran whose symbols the linker can place (those
with a section of their own: not the C library's, whose objects callgrind names no source file
of), in three groups, in this order (within a group the linker keeps its input order):

1. those a `rooms.lua` map runs, each map (`warren batch` of 2,000 maps less one of 200);
2. those `warren run scripts/rooms.lua --seed 1` runs (its start-up);
3. those a `warren run` of each other shipped recipe adds.

Each group is written costliest first, for the reader: the linker keeps its own input order.

Each recipe is run once before it is measured, so that the measured run reads its bytecode and
the region files' registry from the cache, as every start but a first does.

Each becomes a pattern for the sections the compiler puts it in (`.text.NAME`,
`.text.unlikely.NAME`, `.text.startup.NAME`) with the parts of its name that change with the compiler, the
dependencies and the build profile replaced by wildcards: a Rust symbol's hash, a crate's
disambiguator, the numbers LTO and GCC's clones add. So the list still places these functions
after a compiler update, and goes stale only as the code it names changes: `cargo test` checks
that most of it still names functions of the binary (tests/cli/cli.rs,
`the_start_up_path_is_laid_out_first`). Run this again when it says so, or after a change to
what start-up runs (BENCHMARKS.md, "a whole `warren run` of a small map"). src/build.rs hands the
list to the linker.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

OUT = "src/hot-text.ld"
# The sections a function may be in: `.text.NAME`, `.text.unlikely.NAME` for one the compiler
# thinks cold (and the cold part of a C function), `.text.startup.NAME` for a C constructor.
SECTIONS = ".text.{0} .text.unlikely.{0} .text.startup.{0}"
# A callgrind_annotate line: `Ir (share)  file:function [object]`.
LINE = re.compile(r"\s*([\d,]+) \([^)]*\)\s+(\S+?):(\S+)(\s+\[.*\])?\s*$")
# A Rust legacy symbol: its hash (and a suffix LTO may add) changes with the build.
LEGACY = re.compile(r"(_ZN.*17h)[0-9a-f]{16}E(\.[0-9A-Za-z.]+)?$")
# A Rust v0 symbol (the standard library's): each crate's disambiguator changes with the build.
V0_CRATE = re.compile(r"Cs[0-9A-Za-z]+_")
# The number LTO adds to a local symbol's name (`.1541`, `.llvm.123`).
LTO_NUMBER = re.compile(r"(\.llvm)?\.[0-9]+$")
# GCC's clones of a C function (`NAME.isra.0`, `NAME.constprop.0.isra.0`, `NAME.part.0`).
C_CLONE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\.(isra|constprop|part|lto_priv)\.[0-9.a-z_]*$")


def self_costs(binary: str, args: list[str]) -> dict[str, int]:
    """Each function's own instructions in a callgrind run of `binary args`, by symbol."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(
            ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}",
             binary, *args],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        listing = subprocess.run(
            ["callgrind_annotate", "--auto=no", "--threshold=100", out],
            check=True, capture_output=True, text=True,
        ).stdout
    costs: dict[str, int] = {}
    for line in listing.splitlines():
        m = LINE.match(line)
        # `???`: no source file, so a C library function (its archive's objects have no section
        # for each function); `0x…`: code with no symbol.
        if not m or m.group(2) == "???" or m.group(3).startswith("0x"):
            continue
        # callgrind names a recursive call's frames `NAME'2`; GCC a C function's cold part
        # `NAME.cold`, in the section of NAME.
        symbol = re.sub(r"'[0-9]+$", "", m.group(3)).removesuffix(".cold")
        costs[symbol] = costs.get(symbol, 0) + int(m.group(1).replace(",", ""))
    return costs


def pattern(symbol: str) -> str | None:
    """The part of `symbol`'s section names every build shares, wildcards for the rest (the same
    as `hot_text_pattern` in tests/cli/cli.rs)."""
    legacy = LEGACY.match(symbol)
    if legacy:
        # `17h*`: shorter than `17h`, 16 `?` and `E*`, and the same functions (it would also
        # take in an item nested in this one whose name has 17 characters and starts with `h`:
        # none does, and the test would see one).
        return legacy.group(1) + "*"
    if symbol.startswith("_ZN"):
        return None  # a legacy Rust symbol of an unknown form: left where the linker puts it
    if symbol.startswith("_R"):
        return LTO_NUMBER.sub(".*", V0_CRATE.sub("Cs*_", symbol))
    clone = C_CLONE.match(symbol)
    if clone:
        return clone.group(1) + ".*"
    return symbol


def main() -> None:
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/x86_64-unknown-linux-gnu/release/warren"
    batch = ["batch", "scripts/rooms.lua", "--jobs", "1", "--count"]
    few, many = self_costs(binary, batch + ["200"]), self_costs(binary, batch + ["2000"])
    per_map = {f: c - few.get(f, 0) for f, c in many.items() if c > few.get(f, 0)}
    groups = [("each map of a rooms.lua batch", sorted(per_map, key=lambda f: -per_map[f]))]
    recipes = ["scripts/rooms.lua"] + sorted(
        set(glob.glob("scripts/*.lua")) - {"scripts/rooms.lua"})
    others: list[str] = []
    for recipe in recipes:
        run = ["run", recipe, "--seed", "1"]
        # Once first, so that the measured run reads the region files' registry and the
        # recipe's bytecode from the cache, as every start but a first does.
        subprocess.run([binary, *run], check=True, stdout=subprocess.DEVNULL)
        costs = self_costs(binary, run)
        ran = sorted((f for f in costs if f not in per_map), key=lambda f: -costs[f])
        if recipe == "scripts/rooms.lua":
            groups.append(("warren run scripts/rooms.lua --seed 1", ran))
        else:
            others += ran
    groups.append(("what a warren run of each other shipped recipe adds", others))
    body, seen = [], set()
    for title, symbols in groups:
        body += [f"    /* {title} */", "    *("]
        for symbol in symbols:
            p = pattern(symbol)
            if p is not None and p not in seen:
                seen.add(p)
                body.append("      " + SECTIONS.format(p))
        body.append("    )")
    lines = [line for line in body if line.startswith("      ")]
    if len(lines) < 500:
        sys.exit(f"only {len(lines)} functions found: has callgrind_annotate's output changed?")
    commit = subprocess.run(["git", "describe", "--always", "--dirty"],
                            capture_output=True, text=True).stdout.strip()
    header = [
        "/* The functions a rooms.lua map and a `warren run` of each shipped recipe run, placed",
        "   first in .text and side by side, so that start-up touches fewer pages of the binary.",
        f"   Written by benches/startup/hot_text.py from a release build of {commit}; do not edit.",
        "   src/build.rs hands it to the linker if the linker is lld (OVERWRITE_SECTIONS). Three",
        "   groups, in order, each in the linker's input order: lld walks every input section once",
        "   for each `*(...)`, and one for each function made a link 15-20 s longer. */",
    ]
    text = "\n".join(header + ["OVERWRITE_SECTIONS {", "  .text : {"] + body + ["  }", "}"])
    with open(OUT, "w") as f:
        f.write(text + "\n")
    print(f"{OUT}: {len(lines)} functions")


if __name__ == "__main__":
    main()
