/* A plain Lua 5.4.8 interpreter for the pure-Lua benchmark: built from crates/lua-src's
   sources without LUA_WARREN (stock Lua). Runs the workload FILE (a chunk returning a function)
   REPEAT times and prints the median time per run in microseconds and the checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

static double now_us (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp (const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main (int argc, char **argv) {
  int reps = argc > 2 ? atoi(argv[2]) : 5, i;
  double *times;
  lua_State *L = luaL_newstate();
  times = malloc(sizeof(double) * (reps > 0 ? reps : 1));
  luaL_openlibs(L);
  if (argc < 2 || reps < 1 || luaL_dofile(L, argv[1])) {
    fprintf(stderr, "usage: stock FILE [REPEAT]: %s\n", lua_tostring(L, -1));
    return 1;
  }
  for (i = 0; i < reps; i++) {
    double t;
    lua_pushvalue(L, -1);
    t = now_us();
    if (lua_pcall(L, 0, 1, 0) != LUA_OK) {
      fprintf(stderr, "%s\n", lua_tostring(L, -1));
      return 1;
    }
    times[i] = now_us() - t;
    if (i == reps - 1) printf("checksum %s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  qsort(times, reps, sizeof(double), cmp);
  printf("median_us %.0f\n", times[reps / 2]);
  lua_close(L);
  return 0;
}
