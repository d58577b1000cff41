#!/usr/bin/env bash
# The interpreter's share of a rooms map, alone: stock Lua 5.4.8 built from crates/lua-src's
# sources (-O3, as cargo builds the vendored Lua; CFLAGS overrides) runs scripts/rooms.lua's own
# `generate`, its 80×50 defaults, against stand-ins for warren's API that do nothing
# (benches/interpreter_floor/main.c). Prints the median µs a map of each of RUNS runs.
#   bash benches/interpreter_floor/run.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-3}
SRC=crates/lua-src/lua-5.4.8
OUT=target/interpreter_floor
mkdir -p target
if [ ! -x "$OUT" ] || [ -n "$(find benches/interpreter_floor/main.c "$SRC" -newer "$OUT")" ]; then
  # shellcheck disable=SC2046
  ${CC:-cc} ${CFLAGS:--O3} -DLUA_USE_LINUX -DLUA_COMPAT_5_3 -I"$SRC" -o "$OUT" \
    benches/interpreter_floor/main.c $(ls "$SRC"/*.c | grep -v -e lwarren.c -e '/lua\.c' -e '/luac\.c') -lm
fi
for _ in $(seq "$RUNS"); do
  printf 'stock Lua, rooms.lua generate with do-nothing primitives: %s µs a map\n' \
    "$("$OUT" scripts/rooms.lua)"
done
