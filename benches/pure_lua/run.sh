#!/bin/sh
# Pure-Lua workloads side by side: inside warren (release build, every budget on) and in a stock
# Lua 5.4.8 built from the same crates/lua-src sources without LUA_WARREN.
#   sh benches/pure_lua/run.sh [REPEAT]
# Prints, per workload, the median µs per run in each and the ratio (goal: <= 1.3).
set -e
cd "$(dirname "$0")/../.."
REPEAT=${1:-9}
SRC=crates/lua-src/lua-5.4.8
STOCK=target/pure_lua_stock
mkdir -p target
if [ ! -x "$STOCK" ] || [ benches/pure_lua/stock_main.c -nt "$STOCK" ]; then
  ${CC:-cc} -O2 -DLUA_USE_LINUX -DLUA_COMPAT_5_3 -I"$SRC" -o "$STOCK" \
    benches/pure_lua/stock_main.c $(ls "$SRC"/*.c | grep -v lwarren.c) -lm
fi
cargo build --release --quiet
printf '%-8s %12s %12s %7s\n' workload stock_us warren_us ratio
for w in ca digger maze strings; do
  # Each stock run loads a fresh copy of the workload, as warren's does (the module is required
  # by the run).
  stock=$("$STOCK" "benches/pure_lua/$w.lua" "$REPEAT" | awk '/median_us/ { print $2 }')
  warren=$(target/release/warren batch benches/pure_lua/bench.lua --count "$REPEAT" --jobs 1 \
    --timing --set work="$w" 2>&1 | awk '$1 == "total" { print $4 }')
  ratio=$(awk -v a="$warren" -v b="$stock" 'BEGIN { printf "%.2f", a / b }')
  printf '%-8s %12s %12s %7s\n' "$w" "$stock" "$warren" "$ratio"
done
