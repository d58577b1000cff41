#!/usr/bin/env bash
# Pure-Lua workloads side by side: inside warren (release build, every budget on) and in a stock
# Lua 5.4.8 built from the same crates/lua-src sources without LUA_WARREN (-O3, as cargo builds
# the vendored one; CFLAGS overrides). Two more standalone interpreters from the same sources
# isolate the budget counter: `patched` (LUA_WARREN: every change of crates/lua-src/WARREN.md)
# and `uncounted` (the same with LUA_WARREN_NOCOUNT: nothing charged); `budget` is their ratio,
# what counting instructions costs (goal: <= 1.1). `warren_nc` is warren built without the memory
# account (the `uncounted-bench` feature: neither the counting allocator nor the wrapper around
# Lua's allocator); `account` is warren / warren_nc, what the account costs (goal: <= 1.05, above
# all on `classes`, the metatable-heavy workload).
#   bash benches/pure_lua/run.sh [REPEAT] [ROUNDS]
# Each round runs every workload REPEAT times in each (one process each, alternating); the best
# round's CPU time (user + system, so other load on the machine counts less) per run is shown,
# with the ratio warren / stock (goal: <= 1.3). warren's figure includes its start-up and the
# map statistics of each run.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPEAT=${1:-11}
ROUNDS=${2:-3}
# shellcheck source=benches/pure_lua/interpreters.sh
source benches/pure_lua/interpreters.sh
PATCHED=target/pure_lua_patched
UNCOUNTED=target/pure_lua_uncounted
interpreter "$STOCK"
interpreter "$PATCHED" -DLUA_WARREN
interpreter "$UNCOUNTED" -DLUA_WARREN -DLUA_WARREN_NOCOUNT
# Two release builds of the binary (each relinks it, LTO included): the unaccounted one kept aside.
UNACCOUNTED=target/warren_uncounted
cargo build --release --quiet --features uncounted-bench
cp "$WARREN" "$UNACCOUNTED"
cargo build --release --quiet

printf '%-8s %9s %9s %9s %9s %9s %6s %6s %7s\n' workload stock_ms patched uncounted warren_ms \
  warren_nc warren budget account
for w in ca classes digger maze strings; do
  best_s=; best_p=; best_u=; best_w=; best_n=
  for _ in $(seq "$ROUNDS"); do
    s=$(cpu "$STOCK" "benches/pure_lua/$w.lua" "$REPEAT")
    p=$(cpu "$PATCHED" "benches/pure_lua/$w.lua" "$REPEAT")
    u=$(cpu "$UNCOUNTED" "benches/pure_lua/$w.lua" "$REPEAT")
    t=$(cpu "$WARREN" batch benches/pure_lua/bench.lua --count "$REPEAT" --jobs 1 \
      --set work="$w")
    nc=$(cpu "$UNACCOUNTED" batch benches/pure_lua/bench.lua --count "$REPEAT" --jobs 1 \
      --set work="$w")
    best_s=$(least "$s" "$best_s")
    best_p=$(least "$p" "$best_p")
    best_u=$(least "$u" "$best_u")
    best_w=$(least "$t" "$best_w")
    best_n=$(least "$nc" "$best_n")
  done
  awk -v w="$w" -v s="$best_s" -v p="$best_p" -v u="$best_u" -v t="$best_w" -v c="$best_n" \
    -v n="$REPEAT" 'BEGIN { printf "%-8s %9.2f %9.2f %9.2f %9.2f %9.2f %6.2f %6.2f %7.3f\n", w,
      s / n * 1000, p / n * 1000, u / n * 1000, t / n * 1000, c / n * 1000, t / s, p / u, t / c }'
done
