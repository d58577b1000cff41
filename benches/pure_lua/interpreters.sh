# Sourced by the side-by-side benchmarks (benches/pure_lua/run.sh, benches/rotlike/run.sh):
# standalone Lua 5.4.8 interpreters from crates/lua-src's sources, each running
# benches/pure_lua/stock_main.c (a FILE returning a function, called REPEAT times).
#   interpreter OUT [FLAGS...]   builds OUT when a source is newer (no flags: stock Lua, without
#                                warren's lwarren.c; -DLUA_WARREN: the patched one); -O3 as cargo
#                                builds the vendored Lua (CFLAGS overrides)
#   cpu COMMAND...               CPU seconds (user + system) of one command, its output dropped
#   $WARREN                      the release build of warren (where .cargo/config.toml puts it)
SRC=crates/lua-src/lua-5.4.8
STOCK=target/pure_lua_stock
WARREN="target/$(rustc --print host-tuple)/release/warren"
mkdir -p target
interpreter() {
  local out=$1 sources
  shift
  sources=$(ls "$SRC"/*.c)
  if [ $# -eq 0 ]; then sources=$(grep -v lwarren.c <<< "$sources"); fi
  if [ ! -x "$out" ] || [ -n "$(find benches/pure_lua/stock_main.c "$SRC" -newer "$out")" ]; then
    # shellcheck disable=SC2086
    ${CC:-cc} ${CFLAGS:--O3} -DLUA_USE_LINUX -DLUA_COMPAT_5_3 "$@" -I"$SRC" -o "$out" \
      benches/pure_lua/stock_main.c $sources -lm
  fi
}
cpu() {
  local TIMEFORMAT='%U %S'
  { time "$@" > /dev/null 2>&1; } 2>&1 | awk '{ print $1 + $2 }'
}
# the smaller of two numbers (the second may be empty)
least() { awk -v a="$1" -v b="${2:-$1}" 'BEGIN { print (a < b ? a : b) }'; }
