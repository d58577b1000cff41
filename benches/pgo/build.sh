#!/usr/bin/env bash
# A profile-guided release build of warren (docs/performance.md, "Cache lines, and a
# profile-guided build").
#
#     benches/pgo/build.sh [CARGO BUILD TARGETS...]     (default: --bin warren)
#
# Run from anywhere in the repository. Three steps, each in its own target directory under
# target/pgo/ (the plain release build in target/ is left as it is):
#
# 1. builds `warren` with rustc's instrumentation (`-Cprofile-generate`);
# 2. runs it on the shipped recipes: a 20,000-map batch of scripts/rooms.lua (the per-map path),
#    and a `run` and a small batch of every other recipe in scripts/ (start-up and each recipe's
#    own code), each writing its counts;
# 3. merges the counts with `llvm-profdata` and builds the given targets with them
#    (`-Cprofile-use`): the compiler inlines by measured calls and lays out each function's
#    hot paths together, and moves the blocks the training never ran out of each function that
#    ran (`-enable-split-machine-functions`), so that the code a map runs takes fewer cache
#    lines. It prints the path of each binary built, one a line.
#
# The maps are the same as a plain build's (CI checks the golden maps against the binary this
# builds). The Rust code is profiled by rustc, the patched Lua (C) by GCC (`WARREN_LUA_PGO`,
# crates/lua-src/build.rs).
#
# Needs GCC as the C compiler (with its `libgcov.a`), and an `llvm-profdata` that reads the
# profiles of rustc's LLVM: the one of rustup's
# `llvm-tools` component when installed, else the newest of Debian's (`apt install llvm-19`:
# rustc 1.95's LLVM 22 profiles read with LLVM 19's). Set LLVM_PROFDATA to choose one.
set -euo pipefail
# A target directory named relative to where the script is run from, as Cargo reads it.
root="${CARGO_TARGET_DIR:-}"
if [ -n "$root" ]; then
  case "$root" in /*) ;; *) root="$PWD/$root" ;; esac
fi
cd "$(dirname "$0")/../.."
root="${root:-$PWD/target}/pgo"
# The flags go to Cargo as TOML strings, and RUSTFLAGS would replace them all.
case "$root" in *\"* | *\\*)
  echo "the target directory's path may not hold \" or \\: $root" >&2
  exit 1
  ;;
esac
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(--bin warren); fi

triple=$(rustc -vV | sed -n 's/^host: //p')
llvm=$(rustc -vV | sed -n 's/^LLVM version: //p')
profiles="$root/profiles"
rm -rf "$profiles"
mkdir -p "$profiles"

# `flags` (a TOML array) are added to .cargo/config.toml's own for this target (Cargo joins the
# two tables).
build() {
  local dir=$1 flags=$2
  shift 2
  CARGO_TARGET_DIR="$root/$dir" cargo build --release --quiet \
    --config "target.$triple.rustflags=$flags" "$@"
}

profdata() {
  if [ -n "${LLVM_PROFDATA:-}" ]; then echo "$LLVM_PROFDATA"; return; fi
  local sysroot candidate
  sysroot=$(rustc --print sysroot)
  for candidate in "$sysroot/lib/rustlib/$triple/bin/llvm-profdata" \
    $(ls -d /usr/lib/llvm-*/bin/llvm-profdata 2>/dev/null | sort -t- -k2 -rn) \
    "$(command -v llvm-profdata || true)"; do
    if [ -x "$candidate" ]; then echo "$candidate"; return; fi
  done
  echo "no llvm-profdata found (rustc's LLVM is $llvm): install rustup's llvm-tools component" \
    "or Debian's llvm-19, or set LLVM_PROFDATA" >&2
  exit 1
}
merger=$(profdata)

echo "== 1. an instrumented build" >&2
# The patched Lua (C) is instrumented by GCC, through crates/lua-src/build.rs.
export WARREN_LUA_PGO="generate=$profiles/lua"
build gen "[\"-Cprofile-generate=$profiles\"]" --bin warren
trained="$root/gen/$triple/release/warren"

echo "== 2. the training runs" >&2
# `%m`: the runs, one after the other, add their counts to one file. With the variable set, the
# binary runs the exit handlers that write them (src/main.rs).
train() { LLVM_PROFILE_FILE="$profiles/warren-%m.profraw" "$trained" "$@" >/dev/null; }
train batch scripts/rooms.lua --count 20000 --jobs 1
for script in scripts/*.lua; do
  train run "$script" --seed 1
  train batch "$script" --count 20 --jobs 1
done

echo "== 3. the counts merged ($merger), and the build that uses them" >&2
raw=("$profiles"/*.profraw)
if [ ! -e "${raw[0]}" ] || [ -z "$(find "$profiles/lua/counts" -name '*.gcda' -print -quit)" ]; then
  echo "the training runs wrote no counts into $profiles" >&2
  exit 1
fi
if ! "$merger" merge -o "$profiles/warren.profdata" "${raw[@]}"; then
  echo "$merger could not read the profiles of rustc's LLVM $llvm: use a newer one" \
    "(rustup's llvm-tools component, or Debian's llvm-19), or set LLVM_PROFDATA" >&2
  exit 1
fi
use="\"-Cprofile-use=$profiles/warren.profdata\", \"-Cllvm-args=-enable-split-machine-functions\""
# The paths of the binaries built, from Cargo's messages (diagnostics are printed as usual).
export WARREN_LUA_PGO="use=$profiles/lua"
build use "[$use]" --message-format=json-render-diagnostics "${targets[@]}" |
  sed -n 's/.*"executable":"\([^"]*\)".*/\1/p'
