-- warren host prelude: runs once in every Lua state, before any recipe, with the host's
-- functions as its argument. It shapes the sandbox; recipes never see `host`.
local host = ...

local G = _G
local error, select, type, next, rawget, tostring = error, select, type, next, rawget, tostring
local setmetatable, getmetatable, ipairs = setmetatable, getmetatable, ipairs
local rawpcall, rawxpcall, rawload = pcall, xpcall, load
local resume, close = coroutine.resume, coroutine.close
local concat = table.concat

-- The table functions in Lua (see tables.lua), so the instruction hook counts their loops.
for name, f in next, host.tables do table[name] = f end
local sort = table.sort

-- Budgets and panics: once a budget has run out, no pcall, xpcall or coroutine can swallow the
-- error; a Rust panic resumes as soon as its error value reaches `clean`. Errors raised by
-- Rust functions reach scripts as their message, like errors from C functions.
local tripped, clean = host.tripped, host.error_value
local function recheck(ok, ...)
  if ok then return ok, ... end
  local e = clean((...))
  if tripped() or e == "not enough memory" then error(e, 0) end
  return false, e
end
G.pcall = function(f, ...) return recheck(rawpcall(f, ...)) end
G.xpcall = function(f, handler, ...)
  return recheck(rawxpcall(f, function(e)
    if tripped() then return e end
    return handler(clean(e))
  end, ...))
end
coroutine.resume = function(co, ...) return recheck(resume(co, ...)) end
coroutine.close = function(co) return recheck(close(co)) end

-- Deterministic pairs: Lua's own order over string keys changes between processes, so keys
-- come sorted (numbers, then strings, then booleans; other keys last, in no promised order).
local rank = { number = 1, string = 2, boolean = 3 }
local function key_less(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return (rank[ta] or 4) < (rank[tb] or 4) end
  if ta == "number" or ta == "string" then return a < b end
  if ta == "boolean" then return b and not a end
  return false
end
-- The iterator closes over `t` and returns no state, so `pairs` on a read-only proxy never
-- hands out the table it guards.
local function sorted_pairs(t)
  local keys, n = {}, 0
  for k in next, t do
    n = n + 1
    keys[n] = k
  end
  sort(keys, key_less)
  local i = 0
  return function()
    while i < n do
      i = i + 1
      local k = keys[i]
      local v = rawget(t, k)
      if v ~= nil then return k, v end
    end
  end
end
-- Read-only proxies and the tables they guard (weak: per-run proxies are collected).
local guarded = setmetatable({}, { __mode = "k" })
G.pairs = function(t)
  local target = guarded[t]
  if target then return sorted_pairs(target) end
  local mt = getmetatable(t)
  if type(mt) == "table" and mt.__pairs then return mt.__pairs(t) end
  if type(t) ~= "table" then
    error("bad argument #1 to 'pairs' (table expected, got " .. type(t) .. ")", 2)
  end
  return sorted_pairs(t)
end

-- Finalizers would run at unpredictable times, possibly during a later generation.
G.setmetatable = function(t, mt)
  if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    error("setmetatable: __gc metamethods are not available in recipes", 2)
  end
  return setmetatable(t, mt)
end

-- Text chunks only, of bounded size, without `<close>`. A reader function is called until it
-- returns nil or "" (its errors propagate instead of being returned, so nothing is swallowed).
local check_chunk = host.check_chunk
G.load = function(chunk, name, mode, ...)
  if type(chunk) == "function" then
    local parts, n, size = {}, 0, 0
    while true do
      local piece = chunk()
      if piece == nil or piece == "" then break end
      if type(piece) ~= "string" then return nil, "reader function must return a string" end
      size = size + #piece
      if size > host.max_chunk then return nil, "chunk is larger than " .. host.max_chunk .. " bytes" end
      n = n + 1
      parts[n] = piece
    end
    chunk = concat(parts, "", 1, n)
    name = name or "=(load)"
  end
  if type(chunk) == "string" then
    local problem = check_chunk(chunk, name)
    if problem then return nil, problem end
  end
  if select("#", ...) > 0 then return rawload(chunk, name, "t", (...)) end
  return rawload(chunk, name, "t")
end

-- Output and randomness belong to the host.
G.print = host.print
math.random = host.random
math.randomseed = nil
string.dump = nil
G.dofile, G.loadfile, G.collectgarbage, G.rawset, G.warn = nil, nil, nil, nil, nil
G.require = host.require

-- Read-only tables: writes raise an error; reads, # and pairs see the original.
local function readonly(t, name)
  local proxy = setmetatable({}, {
    __index = t,
    __newindex = function(_, k)
      error("cannot modify read-only table '" .. name .. "' (key " .. tostring(k) .. ")", 2)
    end,
    __len = function() return #t end,
    __metatable = false,
  })
  guarded[proxy] = t
  return proxy
end
local function freeze(value, name)
  if type(value) ~= "table" then return value end
  local copy = {}
  for k, v in next, value do
    copy[k] = freeze(v, name .. "." .. tostring(k))
  end
  return readonly(copy, name)
end
for _, lib in ipairs { "string", "table", "math", "utf8", "coroutine" } do
  G[lib] = readonly(G[lib], lib)
end
getmetatable("").__metatable = false

-- The warren module: Lua-side helpers on top of the Rust primitives.
local warren = host.warren
G.warren = freeze(warren, "warren")

-- Strict globals: typos and accidental globals are errors, and one run cannot leave state
-- behind for the next.
setmetatable(G, {
  __newindex = function(_, k)
    error("assignment to undeclared global '" .. tostring(k) .. "' (declare it `local`)", 2)
  end,
  __index = function(_, k)
    error("undefined global '" .. tostring(k) .. "'", 2)
  end,
  __metatable = false,
})

-- The per-run context, built in one call so the host need not set fields one by one.
local function make_ctx(rng, seed, depth, regions, params, above, log, metric, phase)
  return {
    rng = rng, seed = seed, depth = depth, regions = regions, params = params,
    above = above, log = log, metric = metric, phase = phase,
  }
end

return { freeze = freeze, make_ctx = make_ctx }
