/*
** lwarren.c
** warren's extensions to Lua 5.4 (see lwarren.h and crates/lua-src/WARREN.md)
*/

#define lwarren_c
#define LUA_CORE

#include "lprefix.h"


#if defined(LUA_WARREN)

#include <stdint.h>
#include <string.h>

#include "lua.h"
#include "lwarren.h"

#include "lapi.h"
#include "ldebug.h"
#include "ldo.h"
#include "lfunc.h"
#include "lgc.h"
#include "lmem.h"
#include "lobject.h"
#include "lstate.h"
#include "lstring.h"
#include "ltable.h"
#include "ltm.h"


/* ids are 64 bits */
typedef char lwarren_idsize[sizeof(lua_Unsigned) == 8 ? 1 : -1];

/* the lowest counter a charge can leave (see 'saturating') */
#define BUDGETFLOOR	(-LUA_WARREN_UNLIMITED)


/*
** Light C functions and light userdata have no id: they are identified by
** their offset from a symbol of this binary, which is the same in every
** process running the same build (whatever ASLR does).
*/
lua_Unsigned luaW_lightid (const void *p) {
  return (lua_Unsigned)((size_t)p - (size_t)&luaW_lightid);
}


/* subtracts 'n' from the counter, saturating at BUDGETFLOOR */
static void saturating (global_State *g, lua_Integer n) {
  if (n < 0) n = 0;
  if (g->wbudget - BUDGETFLOOR <= n)  /* would reach the floor? */
    g->wbudget = BUDGETFLOOR;
  else
    g->wbudget -= n;
}


/*
** Runs the budget callback. Returns the message of the error to raise, or
** NULL to go on. In fatal mode there is always an error, and the counter
** stays at zero so that the next budget point comes at once.
*/
static const char *runbudget (lua_State *L) {
  global_State *g = G(L);
  const char *msg = NULL;
  if (g->wbudgetf != NULL)
    msg = g->wbudgetf(L, g->wbudgetud);
  else
    g->wbudget = LUA_WARREN_UNLIMITED;
  if (g->wfatal) {
    g->wbudget = 0;
    if (msg == NULL)
      msg = "fatal error";
  }
  return msg;
}


/*
** A budget point: called with the counter at zero or below, where raising
** an error is safe (the VM has saved its pc). Finalizers and hooks run
** with 'allowhook' off: they are left alone (their caller's next budget
** point comes soon).
*/
void luaW_budgetpoint (lua_State *L) {
  const char *msg;
  if (!L->allowhook)
    return;
  msg = runbudget(L);
  if (msg != NULL) {
    luaD_checkstack(L, 1);
    setsvalue2s(L, L->top.p, luaS_newlstr(L, msg, strlen(msg)));
    L->top.p++;
    luaG_errormsg(L);
  }
}


void luaW_charge (lua_State *L, lua_Integer n) {
  saturating(G(L), n);
  if (G(L)->wbudget <= 0)
    luaW_budgetpoint(L);
}


LUA_API void lua_warren_setbudget (lua_State *L, lua_WarrenBudgetF f,
                                   void *ud) {
  global_State *g = G(L);
  g->wbudgetf = f;
  g->wbudgetud = ud;
  if (f == NULL)
    g->wbudget = LUA_WARREN_UNLIMITED;
}


LUA_API void lua_warren_setgcgate (lua_State *L, lua_WarrenGCGateF f,
                                   void *ud) {
  global_State *g = G(L);
  g->wgcgatef = f;
  g->wgcgateud = ud;
}


LUA_API int lua_warren_oldenall (lua_State *L) {
  int made;
  lua_lock(L);
  made = luaW_oldenall(L);
  lua_unlock(L);
  return made;
}


LUA_API lua_Integer lua_warren_getcounter (lua_State *L) {
  return G(L)->wbudget;
}


LUA_API void lua_warren_setcounter (lua_State *L, lua_Integer n) {
  global_State *g = G(L);
  if (n > LUA_WARREN_UNLIMITED) n = LUA_WARREN_UNLIMITED;
  else if (n < BUDGETFLOOR) n = BUDGETFLOOR;
  g->wbudget = g->wfatal ? 0 : n;
}


LUA_API int lua_warren_charge (lua_State *L, lua_Integer n) {
  global_State *g = G(L);
  saturating(g, n);
  if (g->wbudget > 0 || !L->allowhook)
    return 0;
  return runbudget(L) != NULL;
}


LUA_API void lua_warren_setfatal (lua_State *L, int fatal) {
  global_State *g = G(L);
  g->wfatal = (fatal != 0);
  if (fatal)
    g->wbudget = 0;  /* every budget point raises from now on */
}


LUA_API int lua_warren_getfatal (lua_State *L) {
  return G(L)->wfatal;
}


LUA_API int lua_warren_freeci (lua_State *L) {
  CallInfo *ci = L->ci->next;
  int freed = 0;
  L->ci->next = NULL;
  while (ci != NULL) {
    CallInfo *next = ci->next;
    luaM_free(L, ci);
    L->nci--;
    freed++;
    ci = next;
  }
  return freed;
}


LUA_API void lua_warren_setidbase (lua_State *L, uint64_t base) {
  G(L)->wnextid = (lua_Unsigned)base;
}


LUA_API uint64_t lua_warren_getidbase (lua_State *L) {
  return (uint64_t)G(L)->wnextid;
}


LUA_API uint64_t lua_warren_id (lua_State *L, int idx) {
  const TValue *o = luaW_index2value(L, idx);
  switch (ttypetag(o)) {
    case LUA_VLCF:
      return luaW_lightid(cast_voidp(cast_sizet(fvalue(o))));
    case LUA_VLIGHTUSERDATA:
      return luaW_lightid(pvalue(o));
    case LUA_VSHRSTR:  /* strings have no id: their hash stands for it */
      return tsvalue(o)->hash;
    case LUA_VLNGSTR:
      return luaS_hashlongstr(tsvalue(o));
    default:
      return iscollectable(o) ? luaW_gcid(gcvalue(o)) : 0;
  }
}


LUA_API int lua_warren_renumber (lua_State *L, int idx) {
  const TValue *o = luaW_index2value(L, idx);
  if (!ttisfulluserdata(o))
    return 0;
  uvalue(o)->wid = luaW_newid(L);
  return 1;
}


static void markall (GCObject *o) {
  for (; o != NULL; o = o->next)
    l_setbit(o->marked, PRISTINEBIT);
}


LUA_API void lua_warren_markpristine (lua_State *L) {
  global_State *g = G(L);
  lua_lock(L);
  luaW_freesaved(L);  /* what the objects hold now is what they start from */
  /* every object is in one of these lists (short strings, which are in the
     string table, are immutable and need no mark) */
  markall(g->allgc);
  markall(g->finobj);
  markall(g->tobefnz);
  /* the registry table itself is the host's: scripts cannot reach it, and
     mlua writes to it when it first meets a userdata type */
  if (ttistable(&g->l_registry))
    resetbit(gcvalue(&g->l_registry)->marked, PRISTINEBIT);
  g->wpristine = 1;
  g->wdirty = 0;
  g->wfieldst = NULL;  /* a table made since could be pristine now */
  lua_unlock(L);
}


/*
** {======================================================
** Saving pristine objects on their first write, and putting them back
** =======================================================
*/

/*
** Memory for a copy, straight from the state's allocator: no collection
** runs and no error is raised (a write in the VM's fast path is no place
** for either). NULL when the allocator refuses; the caller then gives up
** saving (the state is dirty and will be reloaded).
*/
static void *rawalloc (global_State *g, size_t size) {
  void *p = (*g->frealloc)(g->ud, NULL, 0, size);
  if (p != NULL) {
    g->GCdebt += size;
    g->wsavedbytes += size;
  }
  return p;
}


/* a copy of 'n' values, or NULL (then '*ok' is 0 unless 'n' is 0) */
static TValue *copyvalues (global_State *g, const TValue *v, size_t n,
                           int *ok) {
  TValue *copy;
  if (n == 0) return NULL;
  copy = cast(TValue *, rawalloc(g, n * sizeof(TValue)));
  if (copy == NULL) *ok = 0;
  else memcpy(copy, v, n * sizeof(TValue));
  return copy;
}


static int savetable (global_State *g, Table *t, WSaved *s) {
  int ok = 1;
  s->s.t.asize = luaH_realasize(t);
  s->s.t.array = copyvalues(g, t->array, s->s.t.asize, &ok);
  if (!ok) return 0;
  if (isdummy(t)) {
    s->s.t.node = t->node;
    s->s.t.lastfree = -1;
  }
  else {
    size_t size = sizenode(t) * sizeof(Node);
    s->s.t.node = cast(Node *, rawalloc(g, size));
    if (s->s.t.node == NULL) {
      luaM_freearray(g->mainthread, s->s.t.array, s->s.t.asize);
      return 0;
    }
    memcpy(s->s.t.node, t->node, size);
    s->s.t.lastfree = cast_int(t->lastfree - t->node);
  }
  s->s.t.metatable = t->metatable;
  s->s.t.alimit = t->alimit;
  s->s.t.flags = t->flags;
  s->s.t.lsizenode = t->lsizenode;
  return 1;
}


/* a free entry at the end of 'g->wsaved', or NULL */
static WSaved *newsaved (global_State *g) {
  if (g->wnsaved == g->wsizesaved) {
    unsigned int size = g->wsizesaved ? 2 * g->wsizesaved : 16;
    WSaved *grown;
    if (size > MAX_INT / sizeof(WSaved)) return NULL;
    grown = cast(WSaved *, (*g->frealloc)(g->ud, g->wsaved,
                 g->wsizesaved * sizeof(WSaved), size * sizeof(WSaved)));
    if (grown == NULL) return NULL;
    g->GCdebt += (size - g->wsizesaved) * sizeof(WSaved);
    g->wsaved = grown;
    g->wsizesaved = size;
  }
  return &g->wsaved[g->wnsaved];
}


void luaW_unsaved (lua_State *L, GCObject *o) {
  global_State *g = G(L);
  if (!g->whost && !g->wdirty && ispristine(o))
    g->wdirty = cast_byte(o->tt + 1);
}


void luaW_save (lua_State *L, GCObject *o) {
  global_State *g = G(L);
  WSaved *s;
  int ok = 1;
  if (g->whost || g->wdirty)  /* the host's write, or a reload comes anyway */
    return;
  s = newsaved(g);
  if (s == NULL) {
    luaW_unsaved(L, o);
    return;
  }
  switch (o->tt) {
    case LUA_VTABLE:
      ok = savetable(g, gco2t(o), s);
      break;
    case LUA_VUSERDATA: {
      Udata *u = gco2u(o);
      s->s.u.metatable = u->metatable;
      s->s.u.uv = NULL;
      if (u->nuvalue > 0) {
        /* user values are 'UValue's: copy them one by one */
        unsigned short i;
        s->s.u.uv = cast(TValue *, rawalloc(g, u->nuvalue * sizeof(TValue)));
        if (s->s.u.uv == NULL) ok = 0;
        else for (i = 0; i < u->nuvalue; i++)
          setobj(L, &s->s.u.uv[i], &u->uv[i].uv);
      }
      break;
    }
    case LUA_VCCL: {
      CClosure *cl = gco2ccl(o);
      s->s.upvalues = copyvalues(g, cl->upvalue, cl->nupvalues, &ok);
      break;
    }
    case LUA_VUPVAL: {
      UpVal *uv = gco2upv(o);
      if (upisopen(uv))  /* a suspended thread's variable: not saved */
        ok = 0;
      else
        setobj(L, &s->s.value, uv->v.p);
      break;
    }
    default:  /* a thread, a Lua closure's upvalue list */
      ok = 0;
  }
  if (!ok) {
    luaW_unsaved(L, o);
    return;
  }
  s->o = o;
  g->wnsaved++;
  resetbit(o->marked, PRISTINEBIT);  /* later writes in this run are free */
}


/* frees what entry 's' copied */
static void freecopies (lua_State *L, WSaved *s) {
  switch (s->o->tt) {
    case LUA_VTABLE:
      luaM_freearray(L, s->s.t.array, s->s.t.asize);
      if (s->s.t.lastfree >= 0)
        luaM_freearray(L, s->s.t.node, twoto(s->s.t.lsizenode));
      break;
    case LUA_VUSERDATA:
      luaM_freearray(L, s->s.u.uv, gco2u(s->o)->nuvalue);
      break;
    case LUA_VCCL:
      luaM_freearray(L, s->s.upvalues, gco2ccl(s->o)->nupvalues);
      break;
    default:
      break;
  }
}


void luaW_freesaved (lua_State *L) {
  global_State *g = G(L);
  unsigned int i;
  for (i = 0; i < g->wnsaved; i++)
    freecopies(L, &g->wsaved[i]);
  g->wnsaved = 0;
  g->wsavedbytes = 0;
}


/* puts back what table 't' held (its copies become its parts) */
static void restoretable (lua_State *L, Table *t, WSaved *s) {
  luaM_freearray(L, t->array, luaH_realasize(t));
  if (!isdummy(t))
    luaM_freearray(L, t->node, cast_sizet(sizenode(t)));
  t->array = s->s.t.array;
  t->node = s->s.t.node;
  t->lastfree = s->s.t.lastfree < 0 ? NULL : t->node + s->s.t.lastfree;
  t->metatable = s->s.t.metatable;
  t->alimit = s->s.t.alimit;
  t->flags = s->s.t.flags;
  t->lsizenode = s->s.t.lsizenode;
  if (isblack(t))  /* it may now hold objects the collector has not seen */
    luaC_barrierback_(L, obj2gco(t));
}


static void restore (lua_State *L, WSaved *s) {
  GCObject *o = s->o;
  switch (o->tt) {
    case LUA_VTABLE:
      restoretable(L, gco2t(o), s);
      break;
    case LUA_VUSERDATA: {
      Udata *u = gco2u(o);
      unsigned short i;
      u->metatable = s->s.u.metatable;
      if (u->metatable != NULL)
        luaC_objbarrier(L, u, u->metatable);
      for (i = 0; i < u->nuvalue; i++)
        setobj(L, &u->uv[i].uv, &s->s.u.uv[i]);
      if (u->nuvalue > 0 && isblack(u))
        luaC_barrierback_(L, o);
      luaM_freearray(L, s->s.u.uv, u->nuvalue);
      break;
    }
    case LUA_VCCL: {
      CClosure *cl = gco2ccl(o);
      int i;
      for (i = 0; i < cl->nupvalues; i++) {
        setobj(L, &cl->upvalue[i], &s->s.upvalues[i]);
        luaC_barrier(L, cl, &cl->upvalue[i]);
      }
      luaM_freearray(L, s->s.upvalues, cl->nupvalues);
      break;
    }
    case LUA_VUPVAL: {
      UpVal *uv = gco2upv(o);
      setobj(L, uv->v.p, &s->s.value);
      luaC_barrier(L, uv, uv->v.p);
      break;
    }
    default: lua_assert(0);
  }
  l_setbit(o->marked, PRISTINEBIT);
}


LUA_API lua_Unsigned lua_warren_reset (lua_State *L) {
  global_State *g = G(L);
  unsigned int i, n;
  lua_lock(L);
  n = g->wnsaved;
  for (i = 0; i < n; i++)
    restore(L, &g->wsaved[i]);
  g->wnsaved = 0;
  g->wsavedbytes = 0;
  lua_unlock(L);
  return n;
}


LUA_API lua_Unsigned lua_warren_savedbytes (lua_State *L) {
  return G(L)->wsavedbytes;
}


LUA_API int lua_warren_sethost (lua_State *L, int on) {
  global_State *g = G(L);
  int was = g->whost;
  g->whost = cast_byte(on != 0);
  if (on)  /* the host's writes keep the pristine bit */
    g->wfieldst = NULL;
  return was;
}


/* The host's write of an integer to a key of table 't' (one its node part
   has, live), as a raw set with the host flag on makes it (nothing saved,
   nothing marked dirty, the TM cache and a kept reading of options
   forgotten), without the stack: 'ctx.seed' before each run. A table with a
   metatable (a read-only one refuses every write) is left to 'lua_rawset'. */
LUA_API int lua_warren_hostsetint (lua_State *L, const void *table,
                                   const void *key, lua_Integer v) {
  Table *t = cast(Table *, cast_voidp(table));
  TString *k = cast(TString *, cast_voidp(key));
  const TValue *slot;
  if (k->tt != LUA_VSHRSTR || t->metatable != NULL)
    return 0;
  slot = luaH_getshortstr(t, k);
  if (isabstkey(slot))  /* a new key would need the node part to grow */
    return 0;
  G(L)->wfieldst = NULL;
  invalidateTMcache(t);
  setivalue(cast(TValue *, slot), v);  /* an integer: no barrier */
  return 1;
}

/* }====================================================== */


LUA_API int lua_warren_dirty (lua_State *L) {
  return G(L)->wdirty;
}


LUA_API void lua_warren_cleardirty (lua_State *L) {
  G(L)->wdirty = 0;
}


LUA_API void lua_warren_markdirty (lua_State *L) {
  global_State *g = G(L);
  if (!g->wdirty && !g->whost)
    g->wdirty = LUA_WARREN_DIRTYOTHER;
}


LUA_API lua_Unsigned lua_warren_takeresetmetas (lua_State *L) {
  lua_Unsigned n = G(L)->wresetmetas;
  G(L)->wresetmetas = 0;
  return n;
}


LUA_API unsigned int lua_warren_takedeepestccall (lua_State *L) {
  unsigned int n = G(L)->wdeepestccall;
  G(L)->wdeepestccall = 0;
  return n;
}


LUA_API int lua_warren_ispristine (lua_State *L, int idx) {
  const TValue *o = luaW_index2value(L, idx);
  return iscollectable(o) && ispristine(gcvalue(o));
}


LUA_API void lua_warren_touch (lua_State *L, int idx) {
  const TValue *o = luaW_index2value(L, idx);
  if (iscollectable(o))
    luaW_unsaved(L, gcvalue(o));
}


LUA_API lua_Unsigned lua_warren_stringsfreed (lua_State *L) {
  return G(L)->wstrfreed;
}


/* Sets in 'out' what a host reader needs of 'v' (NULL: no value): its type
   and the fields its type uses. */
static void describe (const TValue *v, lua_WarrenValue *out) {
  if (v == NULL) {
    out->type = LUA_TNONE;
    return;
  }
  out->type = ttype(v);
  /* the common cases first, tested in the order a fast call's arguments
     come (coordinates, then a name): a jump table cost more than the tests */
  if (ttisinteger(v)) {
    out->isinteger = 1;
    out->u.i = ivalue(v);
  }
  else if (ttisstring(v)) {
    out->u.s = getstr(tsvalue(v));
    out->len = tsslen(tsvalue(v));
  }
  else if (ttisfloat(v)) {
    out->isinteger = 0;
    out->u.n = fltvalue(v);
  }
  else if (ttisboolean(v))
    out->u.i = !ttisfalse(v);
}


/* The bytes at 'p' as one word of type 'T', to compare ('memcpy' of a
   constant size compiles to a load). */
#define WORD(T, p)  (memcpy(&w, (p), sizeof(T)), w)

/* Whether the 'len' bytes at 'a' and 'b' are the same: option names are a few
   bytes, where a call to 'memcmp' costs more than they do. From 4 to 16
   bytes, two words of each, the second ending at the last byte (overlapping
   the first under twice a word): every byte compared, a load a word. */
static int samebytes (const char *a, const char *b, size_t len) {
  size_t i;
  if (len >= 8 && len <= 16) {
    uint64_t w;
    uint64_t a0 = WORD(uint64_t, a), b0 = WORD(uint64_t, b);
    uint64_t a1 = WORD(uint64_t, a + len - 8), b1 = WORD(uint64_t, b + len - 8);
    return a0 == b0 && a1 == b1;
  }
  if (len >= 4 && len < 8) {
    uint32_t w;
    uint32_t a0 = WORD(uint32_t, a), b0 = WORD(uint32_t, b);
    uint32_t a1 = WORD(uint32_t, a + len - 4), b1 = WORD(uint32_t, b + len - 4);
    return a0 == b0 && a1 == b1;
  }
  for (i = 0; i < len; i++)
    if (a[i] != b[i])
      return 0;
  return 1;
}

#undef WORD


LUA_API int lua_warren_values (lua_State *L, int first, int n,
                               lua_WarrenValue *out) {
  StkId base = L->ci->func.p;
  int top = cast_int(L->top.p - (base + 1));
  int k;
  for (k = 0; k < n; k++) {
    int slot = first + k;
    api_check(L, slot > 0, "invalid index");
    describe(slot <= top ? s2v(base + slot) : NULL, &out[k]);
  }
  return top;
}


LUA_API int lua_warren_items (lua_State *L, int idx, lua_Integer first,
                              int n, lua_WarrenValue *out) {
  const TValue *o = luaW_index2value(L, idx);
  Table *t;
  int k;
  if (!ttistable(o))
    return 0;
  t = hvalue(o);
  for (k = 0; k < n; k++)  /* an absent item is empty: its type is nil */
    describe(luaH_getint(t, first + k), &out[k]);
  return 1;
}


/* The running C closure when it is a fast closure (see 'lua_warren_fastself')
   called on its own userdata; NULL otherwise. */
static const CClosure *fastclosure (lua_State *L) {
  CallInfo *ci = L->ci;
  const TValue *f = s2v(ci->func.p);
  const CClosure *cl;
  const TValue *self;
  if (!ttisCclosure(f) || L->top.p <= ci->func.p + 1)
    return NULL;
  cl = clCvalue(f);
  if (cl->nupvalues < 4 || !ttisfulluserdata(&cl->upvalue[0]) ||
      !ttislightuserdata(&cl->upvalue[2]) || !ttislightuserdata(&cl->upvalue[3]))
    return NULL;
  self = s2v(ci->func.p + 1);
  if (!ttisfulluserdata(self) || uvalue(self) != uvalue(&cl->upvalue[0]))
    return NULL;
  return cl;
}


LUA_API int lua_warren_fastself (lua_State *L, void **method, void **cell) {
  const CClosure *cl = fastclosure(L);
  if (cl == NULL)
    return 0;
  *method = pvalue(&cl->upvalue[2]);
  *cell = pvalue(&cl->upvalue[3]);
  return 1;
}


/*
** Whether table 't' still holds what it held when 'markpristine' ran, and
** will until the host writes or the state is marked again: a pristine table
** (a script's first write clears the bit), in a state that is not dirty (where
** writes keep the bit) and not in host mode (nor has been since the reading
** was kept: turning host mode on forgets it).
*/
static int unchanging (global_State *g, Table *t) {
  return ispristine(obj2gco(t)) && !g->wdirty && !g->whost;
}


/* Whether 'lua_warren_fields' kept its reading of 't' for these keys, and 't'
   has not changed since. */
static int keptfields (global_State *g, Table *t, const lua_WarrenKey *keys,
                       int nkeys) {
  return t == g->wfieldst && keys == g->wfieldskeys && nkeys == g->wfieldsn &&
         unchanging(g, t);
}


/* 'lua_warren_fields' on the table 't' */
static int readfields (global_State *g, Table *t, const lua_WarrenKey *keys,
                       int nkeys, lua_WarrenValue *out) {
  unsigned int asize, i;
  int k;
  if (keptfields(g, t, keys, nkeys)) {
    for (k = 0; k < nkeys; k++)  /* a few values: no call to 'memcpy' */
      out[k] = g->wfieldsv[k];
    return 1;
  }
  if (t->metatable != NULL)
    return 0;
  asize = luaH_realasize(t);
  for (i = 0; i < asize; i++)  /* an integer key is never an option's */
    if (!isempty(&t->array[i]))
      return 0;
  for (i = 0; cast_int(i) < sizenode(t); i++) {
    Node *n = gnode(t, i);
    TString *key;
    size_t len;
    if (isempty(gval(n)))
      continue;
    if (!keyisshrstr(n) && keytt(n) != ctb(LUA_VLNGSTR))
      return 0;
    key = keystrval(n);
    len = tsslen(key);
    for (k = 0; k < nkeys; k++)
      if (keys[k].len == len && samebytes(keys[k].s, getstr(key), len))
        break;
    if (k == nkeys)
      return 0;
    describe(gval(n), &out[k]);
  }
  if (nkeys <= LUA_WARREN_FIELDSKEPT && unchanging(g, t)) {
    g->wfieldst = t;
    g->wfieldskeys = keys;
    g->wfieldsn = nkeys;
    g->wfieldsgen++;
    for (k = 0; k < nkeys; k++)
      g->wfieldsv[k] = out[k];
  }
  return 1;
}


LUA_API int lua_warren_fields (lua_State *L, int idx, const lua_WarrenKey *keys,
                               int nkeys, lua_WarrenValue *out) {
  StkId at = L->ci->func.p + idx;  /* an argument: no pseudo-index to resolve */
  const TValue *o;
  api_check(L, idx > 0, "invalid index");
  if (at >= L->top.p)
    return 0;
  o = s2v(at);
  if (!ttistable(o))
    return 0;
  return readfields(G(L), hvalue(o), keys, nkeys, out);
}


LUA_API int lua_warren_xyname (lua_State *L, const lua_WarrenKey *keys,
                               int nkeys, lua_WarrenXYName *out) {
  StkId func = L->ci->func.p;
  int n = cast_int(L->top.p - func) - 1;  /* arguments, receiver included */
  const CClosure *cl;
  const TValue *a;
  if (n != 4 && n != 5)
    return 0;
  cl = fastclosure(L);
  if (cl == NULL)
    return 0;
  if (!ttisinteger(s2v(func + 2)) || !ttisinteger(s2v(func + 3)) ||
      !ttisstring(s2v(func + 4)))
    return 0;
  out->cell = pvalue(&cl->upvalue[3]);
  out->x = ivalue(s2v(func + 2));
  out->y = ivalue(s2v(func + 3));
  out->name = getstr(tsvalue(s2v(func + 4)));
  out->len = tsslen(tsvalue(s2v(func + 4)));
  out->options = 0;
  out->kept = 0;
  out->freed = G(L)->wstrfreed;
  out->results = L->hookmask ? LUA_MULTRET : L->ci->nresults;
  out->counter = &G(L)->wbudget;
  if (n == 5) {
    a = s2v(func + 5);
    if (ttistable(a)) {
      global_State *g = G(L);
      out->options = 1;
      if (keptfields(g, hvalue(a), keys, nkeys))  /* read before, unchanged */
        out->kept = g->wfieldsgen;
    }
    else if (!ttisnil(a))
      return 0;
  }
  return 1;
}


LUA_API int lua_warren_outermost (lua_State *L, lua_Debug *ar) {
  if (L->ci == &L->base_ci || L->base_ci.next == NULL)
    return 0;
  ar->i_ci = L->base_ci.next;
  return 1;
}


LUA_API int lua_warren_stepstack (lua_State *L, lua_Debug *ar, int older) {
  CallInfo *ci = ar->i_ci;
  if (older) {
    if (ci->previous == NULL || ci->previous == &L->base_ci)
      return 0;
    ar->i_ci = ci->previous;
  }
  else {
    if (ci == L->ci || ci->next == NULL)
      return 0;
    ar->i_ci = ci->next;
  }
  return 1;
}


LUA_API int lua_warren_samestack (const lua_Debug *a, const lua_Debug *b) {
  return a->i_ci == b->i_ci;
}


LUA_API void *lua_warren_udcell (lua_State *L, int idx, const void *mt) {
  const TValue *o = luaW_index2value(L, idx);
  Udata *u;
  if (!ttisfulluserdata(o))
    return NULL;
  u = uvalue(o);
  if (u->metatable == NULL || cast(const void *, u->metatable) != mt ||
      u->nuvalue == 0 || !ttislightuserdata(&u->uv[0].uv))
    return NULL;
  return pvalue(&u->uv[0].uv);
}


LUA_API lua_CFunction lua_warren_gate (lua_State *L) {
  CallInfo *ci = L->ci;
  const TValue *f = s2v(ci->func.p);
  const CClosure *cl;
  const TValue *first;
  int nargs = cast_int(L->top.p - (ci->func.p + 1));
  if (!ttisCclosure(f))
    return NULL;
  cl = clCvalue(f);
  if (cl->nupvalues < 4 || !ttislcf(&cl->upvalue[1]) ||
      !ttisinteger(&cl->upvalue[2]) || !ttistable(&cl->upvalue[3]))
    return NULL;
  if (nargs < 1 ||
      (ivalue(&cl->upvalue[2]) >= 0 && nargs > ivalue(&cl->upvalue[2])))
    return NULL;
  first = s2v(ci->func.p + 1);
  if (!ttisfulluserdata(first) ||
      uvalue(first)->metatable != hvalue(&cl->upvalue[3]))
    return NULL;
  return fvalue(&cl->upvalue[1]);
}


LUA_API int lua_warren_setreadonly (lua_State *L, int idx, int readonly) {
  const TValue *t = luaW_index2value(L, idx);
  Table *mt;
  int was;
  if (!ttistable(t) || hvalue(t)->metatable == NULL)
    return -1;
  mt = hvalue(t)->metatable;
  was = (mt->flags & WREADONLYBIT) != 0;
  if (readonly)
    mt->flags |= WREADONLYBIT;
  else
    mt->flags &= cast_byte(~WREADONLYBIT);
  return was;
}


l_noret luaW_refuse (lua_State *L, Table *t, const TValue *key) {
  const TValue *tm = fasttm(L, t->metatable, TM_NEWINDEX);
  if (tm != NULL && ttisfunction(tm)) {
    TValue table, nil;
    sethvalue(L, &table, t);
    setnilvalue(&nil);
    luaT_callTM(L, tm, &table, key, &nil);
  }
  luaG_runerror(L, "attempt to modify a read-only table");
}


LUA_API int lua_warren_setfields (lua_State *L, int idx) {
  const TValue *t;
  lua_lock(L);
  api_checknelems(L, 1);
  t = s2v(L->top.p - 1);
  api_check(L, ttistable(t), "table expected");
  hvalue(t)->flags |= WFIELDSBIT;
  lua_unlock(L);
  return lua_setiuservalue(L, idx, 1);
}

#else

/* stock Lua: nothing here (ISO C wants a declaration in every file) */
typedef int lwarren_unused;

#endif
