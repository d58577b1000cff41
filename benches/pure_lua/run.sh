#!/usr/bin/env bash
# Pure-Lua workloads side by side: inside warren (release build, every budget on) and in a stock
# Lua 5.4.8 built from the same crates/lua-src sources without LUA_WARREN (-O3, as cargo builds
# the vendored one; CFLAGS overrides).
#   bash benches/pure_lua/run.sh [REPEAT] [ROUNDS]
# Each round runs every workload REPEAT times in each (one process each, alternating); the best
# round's CPU time (user + system, so other load on the machine counts less) per run is shown,
# with the ratio warren / stock (goal: <= 1.3). warren's figure includes its start-up and the
# map statistics of each run.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPEAT=${1:-11}
ROUNDS=${2:-3}
SRC=crates/lua-src/lua-5.4.8
STOCK=target/pure_lua_stock
mkdir -p target
if [ ! -x "$STOCK" ] || [ benches/pure_lua/stock_main.c -nt "$STOCK" ]; then
  # shellcheck disable=SC2046
  ${CC:-cc} ${CFLAGS:--O3} -DLUA_USE_LINUX -DLUA_COMPAT_5_3 -I"$SRC" -o "$STOCK" \
    benches/pure_lua/stock_main.c $(ls "$SRC"/*.c | grep -v lwarren.c) -lm
fi
cargo build --release --quiet

# CPU seconds (user + system) of one command.
cpu() {
  local TIMEFORMAT='%U %S'
  { time "$@" > /dev/null 2>&1; } 2>&1 | awk '{ print $1 + $2 }'
}

printf '%-8s %10s %10s %6s\n' workload stock_ms warren_ms ratio
for w in ca digger maze strings; do
  best_s=; best_w=
  for _ in $(seq "$ROUNDS"); do
    s=$(cpu "$STOCK" "benches/pure_lua/$w.lua" "$REPEAT")
    t=$(cpu target/release/warren batch benches/pure_lua/bench.lua --count "$REPEAT" --jobs 1 \
      --set work="$w")
    best_s=$(awk -v a="$s" -v b="${best_s:-$s}" 'BEGIN { print (a < b ? a : b) }')
    best_w=$(awk -v a="$t" -v b="${best_w:-$t}" 'BEGIN { print (a < b ? a : b) }')
  done
  awk -v w="$w" -v s="$best_s" -v t="$best_w" -v n="$REPEAT" \
    'BEGIN { printf "%-8s %10.2f %10.2f %6.2f\n", w, s / n * 1000, t / n * 1000, t / s }'
done
