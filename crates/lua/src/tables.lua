-- warren's `table` functions: Lua 5.4's insert, remove, move, concat, unpack and sort, written
-- in Lua with the same behaviour (metamethods, argument checks, messages). The C versions loop
-- in C, where the instruction hook cannot stop them (`table.move` over 2^50 indices,
-- `table.insert` on a table whose `__len` claims 2^62 elements); here every step is a Lua
-- instruction and counts against the budget.
local host = ...
local rawconcat, rawunpack, less = host.concat, host.unpack, host.less
local error, type, select, tonumber, getmetatable, rawget = error, type, select, tonumber, getmetatable, rawget
local tointeger, ult, maxinteger = math.tointeger, math.ult, math.maxinteger
local format = string.format

-- The most values `unpack` returns (Lua's stack limit).
local MAX_UNPACK = 1000000
-- `sort` refuses arrays of INT_MAX elements or more, as Lua does.
local INT_MAX = 2147483647

-- luaL_checkinteger / luaL_optinteger for argument `n` of `fname`; errors at the caller of the
-- library function (level 3).
local function checkint(v, n, fname)
  local i = tointeger(v)
  if i then return i end
  if type(v) == "number" or (type(v) == "string" and tonumber(v)) then
    error(format("bad argument #%d to '%s' (number has no integer representation)", n, fname), 3)
  end
  error(format("bad argument #%d to '%s' (number expected, got %s)", n, fname, type(v)), 3)
end

local function optint(v, n, fname, default)
  if v == nil then return default end
  local i = tointeger(v)
  if i then return i end
  if type(v) == "number" or (type(v) == "string" and tonumber(v)) then
    error(format("bad argument #%d to '%s' (number has no integer representation)", n, fname), 3)
  end
  error(format("bad argument #%d to '%s' (number expected, got %s)", n, fname, type(v)), 3)
end

-- Lua's `checktab`: a table, or a value whose metatable has the metamethods needed.
local function checktab(t, n, fname, read, write, length)
  if type(t) == "table" then return end
  local mt = getmetatable(t)
  if type(mt) == "table" and (not read or rawget(mt, "__index") ~= nil)
      and (not write or rawget(mt, "__newindex") ~= nil)
      and (not length or rawget(mt, "__len") ~= nil) then
    return
  end
  error(format("bad argument #%d to '%s' (table expected, got %s)", n, fname, type(t)), 3)
end

-- luaL_len: `#t`, which must be an integer.
local function len(t)
  local n = tointeger(#t)
  if n == nil then error("object length is not an integer", 3) end
  return n
end

local function argerror(n, fname, msg)
  error(format("bad argument #%d to '%s' (%s)", n, fname, msg), 3)
end

local M = {}

function M.insert(t, ...)
  checktab(t, 1, "insert", true, true, true)
  local e = len(t) + 1
  local nargs = select("#", ...)
  if nargs == 1 then
    t[e] = (...)
  elseif nargs == 2 then
    local pos = checkint((...), 2, "insert")
    if not ult(pos - 1, e) then argerror(2, "insert", "position out of bounds") end
    local i = e
    while i > pos do
      t[i] = t[i - 1]
      i = i - 1
    end
    t[pos] = select(2, ...)
  else
    error("wrong number of arguments to 'insert'", 2)
  end
end

function M.remove(t, pos)
  checktab(t, 1, "remove", true, true, true)
  local size = len(t)
  pos = optint(pos, 2, "remove", size)
  if pos ~= size and not (pos - 1 == size or ult(pos - 1, size)) then
    argerror(2, "remove", "position out of bounds")
  end
  local value = t[pos]
  while pos < size do
    t[pos] = t[pos + 1]
    pos = pos + 1
  end
  t[pos] = nil
  return value
end

function M.move(a1, f, e, t, a2)
  f = checkint(f, 2, "move")
  e = checkint(e, 3, "move")
  t = checkint(t, 4, "move")
  local given = a2 ~= nil
  if not given then a2 = a1 end
  checktab(a1, 1, "move", true, false, false)
  checktab(a2, given and 5 or 1, "move", false, true, false)
  if e >= f then
    if not (f > 0 or e < maxinteger + f) then argerror(3, "move", "too many elements to move") end
    local n = e - f + 1
    if not (t <= maxinteger - n + 1) then argerror(4, "move", "destination wrap around") end
    if t > e or t > f or (given and a1 ~= a2) then
      for i = 0, n - 1 do a2[t + i] = a1[f + i] end
    else
      for i = n - 1, 0, -1 do a2[t + i] = a1[f + i] end
    end
  end
  return a2
end

-- One element of `concat`: a string or a number.
local function field(list, i)
  local v = list[i]
  local tv = type(v)
  if tv ~= "string" and tv ~= "number" then
    error(format("invalid value (%s) at index %d in table for 'concat'", tv, i), 3)
  end
  return v
end

function M.concat(list, sep, i, j)
  checktab(list, 1, "concat", true, false, true)
  local last = len(list)
  if sep == nil then
    sep = ""
  elseif type(sep) ~= "string" and type(sep) ~= "number" then
    argerror(2, "concat", "string expected, got " .. type(sep))
  end
  i = optint(i, 3, "concat", 1)
  last = optint(j, 4, "concat", last)
  local parts, n = {}, 0
  while i < last do
    parts[n + 1] = field(list, i)
    parts[n + 2] = sep
    n = n + 2
    i = i + 1
  end
  if i == last then
    n = n + 1
    parts[n] = field(list, i)
  end
  return rawconcat(parts, "", 1, n)
end

function M.unpack(list, i, j)
  i = optint(i, 2, "unpack", 1)
  local e
  if j == nil then e = len(list) else e = checkint(j, 3, "unpack") end
  if i > e then return end
  local n = e - i
  if not ult(n, MAX_UNPACK) then error("too many results to unpack", 2) end
  local values = {}
  for k = 0, n do values[k + 1] = list[i + k] end
  return rawunpack(values, 1, n + 1)
end

-- Sorting: Lua 5.4's quicksort (median of three, pivot in a[up - 1]), so the order of equal
-- elements is the one C Lua gives, except that C picks a clock-based random pivot after a badly
-- unbalanced partition; a fixed sequence keeps sorting deterministic.
local function lt(a, b, comp)
  if comp then return comp(a, b) end
  return less(a, b)
end

-- Partitions a[lo..up] around P (stored at a[up - 1]); `level` locates errors at the caller
-- of table.sort.
local function partition(a, lo, up, P, comp, level)
  local i, j = lo, up - 1
  while true do
    i = i + 1
    local ai = a[i]
    while lt(ai, P, comp) do
      if i == up - 1 then error("invalid order function for sorting", level) end
      i = i + 1
      ai = a[i]
    end
    j = j - 1
    local aj = a[j]
    while lt(P, aj, comp) do
      if j < i then error("invalid order function for sorting", level) end
      j = j - 1
      aj = a[j]
    end
    if j < i then
      a[up - 1] = ai
      a[i] = P
      return i
    end
    a[i] = aj
    a[j] = ai
  end
end

local function auxsort(a, lo, up, comp, rnd, depth)
  while lo < up do
    local x, y = a[lo], a[up]
    if lt(y, x, comp) then
      a[lo] = y
      a[up] = x
    end
    if up - lo == 1 then break end
    local p
    if up - lo < 100 or rnd == 0 then
      p = (lo + up) // 2
    else
      local r4 = (up - lo) // 4
      p = rnd % (r4 * 2) + (lo + r4)
    end
    x, y = a[p], a[lo]
    if lt(x, y, comp) then
      a[p] = y
      a[lo] = x
    else
      local z = a[up]
      if lt(z, x, comp) then
        a[p] = z
        a[up] = x
      end
    end
    if up - lo == 2 then break end
    local P = a[p]
    a[p] = a[up - 1]
    a[up - 1] = P
    p = partition(a, lo, up, P, comp, depth + 3)
    local n
    if p - lo < up - p then
      auxsort(a, lo, p - 1, comp, rnd, depth + 1)
      n = p - lo
      lo = p + 1
    else
      auxsort(a, p + 1, up, comp, rnd, depth + 1)
      n = up - p
      up = p - 1
    end
    if (up - lo) // 128 > n then rnd = (rnd * 1103515245 + 12345) % 2147483648 + 1 end
  end
end

function M.sort(t, comp)
  checktab(t, 1, "sort", true, true, true)
  local n = len(t)
  if n > 1 then
    if n >= INT_MAX then argerror(1, "sort", "array too big") end
    if comp ~= nil and type(comp) ~= "function" then
      argerror(2, "sort", "function expected, got " .. type(comp))
    end
    auxsort(t, 1, n, comp, 0, 1)
  end
end

return M
