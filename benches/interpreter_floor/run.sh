#!/usr/bin/env bash
# The interpreter's share of a map, alone: stock Lua 5.4.8 built from crates/lua-src's sources
# (-O3, as cargo builds the vendored Lua; CFLAGS overrides) runs a recipe's own `generate`, its
# 80×50 defaults, against stand-ins for warren's API that do nothing
# (benches/interpreter_floor/main.c), beside warren running the same recipe (`warren batch`,
# the `total` row's median). Three recipes: scripts/rooms.lua, an empty generate (entering a
# recipe) and thirty `map:snapshot` calls (one call into the host: less the empty one, ÷ 30).
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
cargo build --release --quiet
WARREN="target/$(rustc --print host-tuple)/release/warren"
# Once first, unrecorded: a build's first run fills the region files' parse cache.
"$WARREN" batch scripts/rooms.lua --count 10 --jobs 1 > /dev/null
warren() {
  "$WARREN" batch "$1" --count 100000 --jobs 1 | awk '/^total/ { print $4 }'
}
printf '%-40s %10s %10s\n' recipe stock_us warren_us
for _ in $(seq "$RUNS"); do
  for recipe in scripts/rooms.lua benches/interpreter_floor/empty.lua \
    benches/interpreter_floor/snapshots.lua; do
    printf '%-40s %10s %10s\n' "$recipe" "$("$OUT" "$recipe")" "$(warren "$recipe")"
  done
done
