/* The interpreter's share of a map, alone: stock Lua 5.4.8 (crates/lua-src's sources without
   LUA_WARREN) runs a recipe's own `generate` (scripts/rooms.lua, say) against stand-ins for
   warren's API that do nothing. Every line of the recipe runs as in warren (its field reads,
   its options tables, its method calls); each primitive returns at once, `scatter_rooms` and
   `ctx.rng:stream` with a new userdata (as warren's do), `#rooms` the 9 rooms a default map
   has on average. What is left of warren's time beyond this and its core's calls is the host:
   argument reading, records, budgets, timing. Prints the median of ROUNDS rounds of MAPS maps,
   in microseconds a map (wall-clock time of this one thread).
     interpreter_floor RECIPE [MAPS] [ROUNDS] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

/* A primitive that does nothing. */
static int nothing (lua_State *L) { (void)L; return 0; }

/* A primitive that returns a new userdata with the stand-ins' methods (rooms, streams). */
static int object (lua_State *L) {
  lua_newuserdatauv(L, 32, 0);
  luaL_setmetatable(L, "stand-in");
  return 1;
}

/* `#rooms`: the rooms a default map has on average. */
static int rooms (lua_State *L) { lua_pushinteger(L, 9); return 1; }

static double now_us (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int by_value (const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The stand-in of the `warren` module: `warren.gen`'s three primitives. */
static int open_warren (lua_State *L) {
  lua_newtable(L);
  lua_newtable(L);
  lua_pushcfunction(L, object);
  lua_setfield(L, -2, "scatter_rooms");
  lua_pushcfunction(L, nothing);
  lua_setfield(L, -2, "connect_rooms");
  lua_pushcfunction(L, nothing);
  lua_setfield(L, -2, "start_and_stairs");
  lua_setfield(L, -2, "gen");
  return 1;
}

/* The metatable of every stand-in userdata (the map, the rooms, the generator and streams). */
static void stand_in_metatable (lua_State *L) {
  static const char *methods[] = {"fill", "carve_rooms", "snapshot", "tag", "sort", NULL};
  int i;
  luaL_newmetatable(L, "stand-in");
  lua_newtable(L);
  for (i = 0; methods[i]; i++) {
    lua_pushcfunction(L, nothing);
    lua_setfield(L, -2, methods[i]);
  }
  lua_pushcfunction(L, object);
  lua_setfield(L, -2, "stream");
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, rooms);
  lua_setfield(L, -2, "__len");
  lua_pop(L, 1);
}

/* `ctx` for the recipe on the stack top: its parameters' defaults, the rooms region's terrains
   (names, as warren's region tables hold them), a generator. */
static const char *make_ctx =
  "local recipe = ...\n"
  "local params = {}\n"
  "for name, spec in pairs(recipe.params) do params[name] = spec.default end\n"
  "local regions = { rooms = { wall = 'rock', floor = 'floor', corridor = 'floor' } }\n"
  "return { params = params, regions = regions, depth = 1 }\n";

int main (int argc, char **argv) {
  long maps = argc > 2 ? atol(argv[2]) : 200000, m;
  int rounds = argc > 3 ? atoi(argv[3]) : 15, r, generate, map, ctx, handler;
  double *times = malloc(sizeof(double) * (rounds > 0 ? rounds : 1));
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  stand_in_metatable(L);
  luaL_requiref(L, "warren", open_warren, 0);
  lua_pop(L, 1);
  if (argc < 2 || maps < 1 || rounds < 1 || luaL_dofile(L, argv[1])) {
    fprintf(stderr, "usage: interpreter_floor RECIPE [MAPS] [ROUNDS]: %s\n",
            argc < 2 ? "no recipe" : lua_tostring(L, -1));
    return 1;
  }
  if (luaL_loadstring(L, make_ctx) != LUA_OK) return 1;
  lua_pushvalue(L, -2);
  lua_call(L, 1, 1);
  object(L);
  lua_setfield(L, -2, "rng");
  ctx = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_getfield(L, -1, "generate");
  generate = luaL_ref(L, LUA_REGISTRYINDEX);
  object(L);
  map = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_getglobal(L, "debug");
  lua_getfield(L, -1, "traceback");
  handler = lua_gettop(L);
  for (r = 0; r < rounds; r++) {
    double started = now_us();
    for (m = 0; m < maps; m++) {
      lua_rawgeti(L, LUA_REGISTRYINDEX, generate);
      lua_rawgeti(L, LUA_REGISTRYINDEX, map);
      lua_rawgeti(L, LUA_REGISTRYINDEX, ctx);
      if (lua_pcall(L, 2, 0, handler) != LUA_OK) {
        fprintf(stderr, "%s\n", lua_tostring(L, -1));
        return 1;
      }
    }
    times[r] = (now_us() - started) / maps;
  }
  qsort(times, rounds, sizeof(double), by_value);
  printf("%.3f\n", times[rounds / 2]);
  return 0;
}
