#!/usr/bin/env bash
# rot.js-style generators from a Lua library (benches/rotlike/rot: an RNG module keeping its
# state in the module table, a class library, callback-style generators), per 80×50 map, side
# by side:
#   stock   the library in stock Lua 5.4.8 (crates/lua-src's sources without LUA_WARREN, -O3),
#           each cell stored in a table (benches/rotlike/stock.lua);
#   warren  `warren batch benches/rotlike/rotmaps.lua --jobs 1 --set gen=G`, every budget on,
#           each cell written with `map:set(x, y, t, { force = true })`; the library's default
#           generator draws, so every map writes its module table and ends with a reset;
#   own     the same recipe drawing from a generator made for the map (`--set rng=own`): the
#           map writes nothing the loading made (a clean state);
#   blit    the same recipe storing each cell in a grid of rows, as stock.lua does, and writing
#           the grid with one `map:blit` (`--set write=blit`): the same maps;
#   lib     the same recipe handing each cell to a callback that does nothing
#           (`--set write=none`): the library's own time in warren, so warren - lib is the
#           hand-over (stock's figure includes its table store).
# CPU time (user + system) of the whole run over its maps, best of ROUNDS alternating rounds.
# Ratios: warren / stock (goals: <= 1.3, <= 2 for arena, which does nothing but hand cells
# over), reset = warren / own (goal: <= 1.1), blit / stock and lib / stock.
#   bash benches/rotlike/run.sh [ROUNDS] [SCALE]
# SCALE (default 1) multiplies every generator's map count; RUNS="arena:2000 eller:800" (say)
# runs only those generators, with those map counts.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-3}
SCALE=${2:-1}
# shellcheck source=benches/pure_lua/interpreters.sh
source benches/pure_lua/interpreters.sh
interpreter "$STOCK"
cargo build --release --quiet

# generator and maps per run (about half a second of stock CPU each)
RUNS="${RUNS:-arena:2000 uniform:200 digger:30 rogue:1000 cellular:10 divided:300 icey:50 eller:800}"
printf '%-9s %5s %9s %9s %9s %9s %9s %7s %7s %6s %6s %6s\n' gen maps stock_ms warren_ms own_ms \
  blit_ms lib_ms warren reset goal blit lib
for run in $RUNS; do
  gen=${run%%:*}
  maps=$((${run##*:} * SCALE))
  best_s=; best_w=; best_o=; best_b=; best_l=
  for _ in $(seq "$ROUNDS"); do
    s=$(ROT_GEN=$gen cpu "$STOCK" benches/rotlike/stock.lua "$maps")
    w=$(cpu "$WARREN" batch benches/rotlike/rotmaps.lua --count "$maps" --jobs 1 \
      --set gen="$gen")
    o=$(cpu "$WARREN" batch benches/rotlike/rotmaps.lua --count "$maps" --jobs 1 \
      --set gen="$gen" --set rng=own)
    b=$(cpu "$WARREN" batch benches/rotlike/rotmaps.lua --count "$maps" --jobs 1 \
      --set gen="$gen" --set write=blit)
    l=$(cpu "$WARREN" batch benches/rotlike/rotmaps.lua --count "$maps" --jobs 1 \
      --set gen="$gen" --set write=none)
    best_s=$(least "$s" "$best_s")
    best_l=$(least "$l" "$best_l")
    best_b=$(least "$b" "$best_b")
    best_w=$(least "$w" "$best_w")
    best_o=$(least "$o" "$best_o")
  done
  goal=1.3
  if [ "$gen" = arena ]; then goal=2.0; fi
  awk -v g="$gen" -v n="$maps" -v s="$best_s" -v w="$best_w" -v o="$best_o" -v b="$best_b" \
    -v l="$best_l" -v goal="$goal" 'BEGIN {
      printf "%-9s %5d %9.3f %9.3f %9.3f %9.3f %9.3f %7.2f %7.2f %6s %6.2f %6.2f\n", g, n,
        s / n * 1000, w / n * 1000, o / n * 1000, b / n * 1000, l / n * 1000, w / s, w / o,
        goal, b / s, l / s }'
done
