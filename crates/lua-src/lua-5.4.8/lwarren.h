/*
** lwarren.h
** warren's extensions to Lua 5.4 (see crates/lua-src/WARREN.md)
**
** Only compiled in when LUA_WARREN is defined. With it, the Lua core
** (1) hashes strings with a fixed seed, (2) gives every table, function,
** full userdata and thread a 64-bit id at creation and hashes and prints
** those ids instead of addresses, (3) ignores '__mode' (no weak tables),
** (4) counts an instruction budget without a hook, (5) has a "fatal" mode
** that no Lua mechanism can catch, (6) tracks writes to "pristine"
** objects, (7) reads a userdata's fields from its field table, and (8) has
** read-only tables.
*/

#ifndef lwarren_h
#define lwarren_h

#include <stdint.h>

#include "lua.h"


/*
** Budget callback: called at a safe point when the budget counter has
** reached zero or below (and at every budget point while fatal mode is
** on). It may refill the counter with 'lua_warren_setcounter' and return
** NULL to let the script go on, or return an error message (a
** NUL-terminated string that stays valid until the next call) to raise it
** as a Lua error. It must not raise Lua errors, yield or call Lua itself.
*/
typedef const char *(*lua_WarrenBudgetF) (lua_State *L, void *ud);

/*
** Collection gate: called before each step of the generational collector
** with 'done' 0 and 'work' the bytes the step goes through (the whole heap
** for a major collection, what was allocated since the last major one for a
** minor collection); returning 0 postpones the step until the heap grows by
** as much as a minor collection waits for. Called again with 'done' 1 and
** the same 'work' when a step it let through has ended. Like the budget
** callback, it must not raise Lua errors, yield or call Lua.
*/
typedef int (*lua_WarrenGCGateF) (lua_State *L, void *ud, size_t work,
                                  int done);

/* The counter of a state without a callback (never reached in practice);
   charges saturate at its negative. */
#define LUA_WARREN_UNLIMITED	(((lua_Integer)1) << 61)

/* What 'lua_warren_dirty' reports for a write that is not to one object. */
#define LUA_WARREN_DIRTYOTHER	255

/* Budget charged for every function call (Lua or C): about the instructions
   a call and its return execute besides the callee's body. */
#define LUA_WARREN_CALLCOST	5

/* The registry key of the host's function that turns an error a '__close'
   handler is about to get into what 'pcall' would give a script (mlua's error
   objects into their messages; see 'prepcallclosemth' in lfunc.c). */
#define LUA_WARREN_ERRORVALUE	"warren.error_value"

/* Strings longer than this are never converted to numbers (stock Lua scans
   the whole string at each conversion, where no budget point sees it; a
   numeral this long has no use). */
#define LUA_WARREN_MAXNUMERAL	200


/* budget */
LUA_API void (lua_warren_setbudget) (lua_State *L, lua_WarrenBudgetF f,
                                     void *ud);
LUA_API void (lua_warren_setgcgate) (lua_State *L, lua_WarrenGCGateF f,
                                     void *ud);
/* Restarts a generational collector the host stopped (LUA_GCSTOP) while it
   built objects that stay alive, making every object old without marking
   any, as a major collection that found them all alive would; garbage among
   them stays until the next major collection. Returns 1 if it made them old,
   0 if the collector was not between collections of generational mode (it
   is then only restarted). Only where no Lua code runs. */
LUA_API int (lua_warren_oldenall) (lua_State *L);
LUA_API lua_Integer (lua_warren_getcounter) (lua_State *L);
LUA_API void (lua_warren_setcounter) (lua_State *L, lua_Integer n);
/* Charges 'n'; runs the callback if the counter reaches zero. Never raises:
   returns 0 to go on, 1 if the callback returned an error (or fatal mode
   is on); the caller then fails as it sees fit. */
LUA_API int (lua_warren_charge) (lua_State *L, lua_Integer n);

/* fatal mode */
LUA_API void (lua_warren_setfatal) (lua_State *L, int fatal);
LUA_API int (lua_warren_getfatal) (lua_State *L);
/* Frees the thread's CallInfo records past the one in use (what fatal mode's
   unwinding leaves); returns how many. */
LUA_API int (lua_warren_freeci) (lua_State *L);

/* object ids */
LUA_API void (lua_warren_setidbase) (lua_State *L, uint64_t base);
LUA_API uint64_t (lua_warren_getidbase) (lua_State *L);
LUA_API uint64_t (lua_warren_id) (lua_State *L, int idx);
/* Gives the full userdata at 'idx' the next id, as if it were made now (for
   a host that hands out again a userdata no script can reach any more).
   Returns 0 if the value is not a full userdata. It must not be a key of
   any table: keys are placed by their ids. */
LUA_API int (lua_warren_renumber) (lua_State *L, int idx);

/* Sets the key 'key' (a short string) of the table 'table' (both as
   'lua_topointer' gives them, kept alive by the caller) to the integer 'v',
   as 'lua_rawset' with the host flag on would, when the table has no
   metatable and a live node for the key (its value may be nil). Returns 0,
   writing nothing, otherwise (and for a long key). */
LUA_API int (lua_warren_hostsetint) (lua_State *L, const void *table,
                                     const void *key, lua_Integer v);

/* pristine tracking, and the reset */
/* Marks every live object pristine, as what runs start from (forgetting
   anything saved and not put back), and the state clean. */
LUA_API void (lua_warren_markpristine) (lua_State *L);
/* Puts back every pristine object written since the last reset (or
   'lua_warren_markpristine') as it was before its first write, and marks it
   pristine again; returns how many there were. Objects made since are left
   to the collector. Only where no Lua code runs. */
LUA_API lua_Unsigned (lua_warren_reset) (lua_State *L);
/* Bytes the copies of the objects to put back take now. */
LUA_API lua_Unsigned (lua_warren_savedbytes) (lua_State *L);
/* While on, writes are the host's own bookkeeping: nothing is saved and
   nothing marks the state dirty. Returns whether it was on. */
LUA_API int (lua_warren_sethost) (lua_State *L, int on);
/* 0 while every write since 'lua_warren_markpristine' can be put back by
   'lua_warren_reset'; else what was written first that cannot: 1 + the type
   tag (with its variant bits, as in lobject.h) of the pristine object (a
   thread, memory written by C), or LUA_WARREN_DIRTYOTHER
   (lua_warren_markdirty, a basic type's metatable). A dirty state must be
   loaded again. */
LUA_API int (lua_warren_dirty) (lua_State *L);
LUA_API void (lua_warren_cleardirty) (lua_State *L);
LUA_API void (lua_warren_markdirty) (lua_State *L);
LUA_API int (lua_warren_ispristine) (lua_State *L, int idx);
/* How many times a userdata was given the metatable it had since the last call
   (which is not a write: see lua_setmetatable), and starts counting again. */
LUA_API lua_Unsigned (lua_warren_takeresetmetas) (lua_State *L);
/* The most nested C calls (the C-stack count, 'getCcalls') reached since the
   last call, by a call from C or a resume, and starts again from none: a
   host's callback is entered no deeper, and each level of them nested is at
   least one more. */
LUA_API unsigned int (lua_warren_takedeepestccall) (lua_State *L);
/* A C function (lauxlib.c) that makes the metatable of the boxes that hold a
   buffer outgrowing the C stack ('_UBOX*'), as the first such buffer would. */
LUALIB_API int (luaL_warren_boxmetatable) (lua_State *L);
/* Marks the state dirty if the object at 'idx' is pristine (for C code that
   changes an object's memory, as 'string.gmatch' does its state: memory is
   never saved). */
LUA_API void (lua_warren_touch) (lua_State *L, int idx);

/* options tables */
/* A key 'lua_warren_fields' looks for: its bytes and their length. */
typedef struct lua_WarrenKey {
  const char *s;
  size_t len;
} lua_WarrenKey;
/* A value as 'lua_warren_fields' reads it: 'type' is 'lua_type''s answer
   (LUA_TNONE for a key the table has not got); a number sets 'isinteger' and
   'u.i' (an integer) or 'u.n' (a float), a boolean sets 'u.i' to 0 or 1, a
   string sets 'u.s' and 'len' (its bytes live while the table holds it). The
   fields a value does not set keep what they held: the caller zeroes them. */
typedef struct lua_WarrenValue {
  int type;
  int isinteger;
  union {
    lua_Integer i;
    lua_Number n;
    const char *s;
  } u;
  size_t len;
} lua_WarrenValue;
/* Reads the table at 'idx' (an argument of the running C function, counted
   from 1) in one call when it is a plain table of the 'nkeys' string keys
   'keys': no metatable, no other key. 'out[k]' gets key k's value when the
   table has the key (the others keep what they held: the caller sets their
   type to LUA_TNONE) and 1 is returned; 0 (what 'out' holds then means
   nothing) for any other value or table. Pushes nothing and runs no Lua code:
   the host's fast calls read options tables with it ({ force = true }), where
   a walk with 'lua_next' took a few calls an entry. */
LUA_API int (lua_warren_fields) (lua_State *L, int idx, const lua_WarrenKey *keys,
                                 int nkeys, lua_WarrenValue *out);
/* A call 'u:m(x, y, name[, options])' as 'lua_warren_xyname' reads it. */
typedef struct lua_WarrenXYName {
  void *cell;  /* the fast closure's upvalue 4 */
  lua_Integer x, y;
  const char *name;  /* the name's bytes, living while the call's arguments do */
  size_t len;
  int options;  /* 1 when an options table was given */
  lua_Unsigned kept;  /* for a table whose reading is kept, the reading's number */
  lua_Unsigned freed;  /* the strings freed so far ('lua_warren_stringsfreed') */
  int results;  /* the results the caller keeps (LUA_MULTRET: all, and while a
                   hook is set: a return hook sees how many a call returned) */
  lua_Integer *counter;  /* the budget counter: a charge that leaves it above 0
                            may be made in place, any other through
                            'lua_warren_charge' */
} lua_WarrenXYName;
/* For a fast closure (see 'lua_warren_fastself') called as 'u:m(x, y, name)'
   or 'u:m(x, y, name, options)' on its own userdata, with integers 'x' and
   'y', a string 'name' and 'options' nil or a table: fills 'out' and returns
   1. For a table whose reading 'lua_warren_fields' keeps for 'keys' (and has
   not changed since), 'out->kept' is that reading's number: the same for as
   long as the reading stays kept, and no other reading's; for another table
   it is 0 (read the table with 'lua_warren_fields'). Returns 0 for any other
   call (another receiver or arity, a float, a name of another type, options
   of another type), which the caller reads the long way. One call for the
   commonest fast call ('map:set'), where 'lua_warren_fastself',
   'lua_warren_values' and 'lua_warren_fields' took three. */
LUA_API int (lua_warren_xyname) (lua_State *L, const lua_WarrenKey *keys,
                                 int nkeys, lua_WarrenXYName *out);
/* The most keys whose reading 'lua_warren_fields' keeps: read again from the
   same pristine table, with the same 'keys' array, it copies what it read
   (a recipe's constant options table, handed over cell by cell). */
#define LUA_WARREN_FIELDSKEPT	4

/* Strings freed: the state counts every string it frees. While the count
   stays the same, a string's address names that string and no other, so the
   host can remember what a string named by its address (a terrain name
   handed over cell by cell), with the state it belongs to. */
LUA_API lua_Unsigned (lua_warren_stringsfreed) (lua_State *L);

/* fast calls */
/* Reads the running C function's arguments 'first' to 'first + n - 1' (stack
   indices, counted from 1) as 'lua_warren_fields' reads values, LUA_TNONE for
   those past the last argument; returns the number of arguments
   ('lua_gettop'). One call where 'lua_gettop' and a 'lua_type' and a
   'lua_tointegerx' or 'lua_tolstring' an argument took several. */
LUA_API int (lua_warren_values) (lua_State *L, int first, int n,
                                 lua_WarrenValue *out);
/* Reads 't[first]' to 't[first + n - 1]' of the table 't' at 'idx' (raw reads,
   as 'lua_rawgeti': no metamethod) into 'out' as 'lua_warren_fields' reads
   values, LUA_TNIL for an absent one; returns 0, reading nothing, when the
   value at 'idx' is not a table. Pushes nothing and raises no error: the
   host's bulk writes read a row of terrain names with it, where a
   'lua_rawgeti' and a 'lua_tolstring' a cell took several calls. */
LUA_API int (lua_warren_items) (lua_State *L, int idx, lua_Integer first,
                                int n, lua_WarrenValue *out);
/* For a fast closure (warren_lua::api::fast): a C closure whose upvalue 1 is
   the full userdata it answers for and whose upvalues 3 and 4 are light
   userdata. When the running C closure is one and its argument 1 is that
   userdata, sets '*method' and '*cell' to upvalues 3 and 4 and returns 1; else
   returns 0. One call where 'lua_rawequal' and two 'lua_touserdata' took three
   (the first through the generic equality). */
LUA_API int (lua_warren_fastself) (lua_State *L, void **method, void **cell);
/* The first user value of the full userdata at 'idx' when that userdata's
   metatable is 'mt' (as 'lua_topointer' gives it) and the user value is a light
   userdata; NULL otherwise. Pushes nothing: one check where 'lua_getmetatable',
   a comparison, 'lua_getiuservalue' and 'lua_touserdata' took four calls. */
LUA_API void *(lua_warren_udcell) (lua_State *L, int idx, const void *mt);
/* For a gate, a C closure that checks a method call before passing it on
   (warren_lua::api::gate): upvalue 2 is the C function it passes calls to (a
   light C function), upvalue 3 the most arguments it takes, receiver included
   (an integer; negative: any number), upvalue 4 the metatable its receiver
   must have. When the running C closure's call passes (at least one argument,
   no more than the most, the first a full userdata with that metatable),
   returns that function; NULL otherwise, and for any other closure. */
LUA_API lua_CFunction (lua_warren_gate) (lua_State *L);

/* stack walks in steps of one frame (lua_getstack walks from the top at every call, so a
   walk by level is quadratic in the depth) */
/* Fills 'ar' for 'lua_getinfo' with the outermost frame (the one 'lua_getstack' gives for the
   deepest level); 0 if the stack has no frame. */
LUA_API int (lua_warren_outermost) (lua_State *L, lua_Debug *ar);
/* Moves 'ar' (from 'lua_getstack', 'lua_warren_outermost' or this function) one frame older
   ('older' != 0) or newer; 0 (and 'ar' unchanged) past either end. The stack must not have
   changed since 'ar' was filled. */
LUA_API int (lua_warren_stepstack) (lua_State *L, lua_Debug *ar, int older);
/* Whether 'a' and 'b' stand for the same frame. */
LUA_API int (lua_warren_samestack) (const lua_Debug *a, const lua_Debug *b);

/* read-only tables */
/* Makes the table at 'idx' read-only (or writable again, when 'readonly' is
   0), with every other table that has its metatable (it must have one, with a
   '__newindex' function): every write to it, raw or not, to a key it has or
   not, calls that '__newindex', which is expected to raise an error (if it
   returns, the write raises "attempt to modify a read-only table"). Reads
   are plain table reads. Only the host may set the metatable of a table that
   has one: protect it with '__metatable'. Returns whether the table was
   read-only before, or -1 (and changes nothing) if the value is not a table
   with a metatable. */
LUA_API int (lua_warren_setreadonly) (lua_State *L, int idx, int readonly);

/* userdata fields */
/* Pops the table on top of the stack and makes it the field table of the
   full userdata at 'idx' (its first user value): reading 'u.k' then answers
   the table's raw 'k' when it is not nil, before the metatable's '__index'
   is tried, without a call. Returns 0 (and pops) if the userdata has no user
   value. Writes to the table later are the owner's; scripts cannot reach
   it. */
LUA_API int (lua_warren_setfields) (lua_State *L, int idx);


#if defined(LUA_CORE) || defined(LUA_LIB)
/* Charges 'n' (clamped to [0, 2^62]); at zero, a budget point that may
   raise. Only at safe points: where the caller could raise an error. */
LUAI_FUNC void luaW_charge (lua_State *L, lua_Integer n);

/* Budget for 'n' bytes handled by a C function (about a VM instruction per
   16 bytes, a fair rate for memcpy-like work). */
#define luaW_bytes(n)	((lua_Integer)((n) >> 4))
#endif

#endif
