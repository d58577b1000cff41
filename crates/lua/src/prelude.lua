-- warren host prelude: runs once in every Lua state, before any recipe, with the host's
-- functions as its argument. It shapes the sandbox; recipes never see `host`.
local host = ...
local rawget = rawget

local G = _G
local error, select, type, next, tostring = error, select, type, next, tostring
local setmetatable, getmetatable, ipairs = setmetatable, getmetatable, ipairs
local rawpcall, rawxpcall, rawload = pcall, xpcall, load
local resume, close = coroutine.resume, coroutine.close
local concat, floor, format = table.concat, math.floor, string.format

-- Errors raised by Rust functions reach scripts as their message, like errors from C functions.
-- Budget errors and Rust panics never reach a script at all: they put the state in fatal mode,
-- where pcall, xpcall, coroutine.resume/close and <close> handlers re-raise them.
local clean = host.error_value
local function cleaned(ok, ...)
  if ok then return ok, ... end
  return false, clean((...))
end
G.pcall = function(f, ...) return cleaned(rawpcall(f, ...)) end
G.xpcall = function(f, handler, ...)
  return cleaned(rawxpcall(f, function(e) return handler(clean(e)) end, ...))
end
coroutine.resume = function(co, ...) return cleaned(resume(co, ...)) end
coroutine.close = function(co) return cleaned(close(co)) end

-- Finalizers would run at unpredictable times, possibly during a later generation.
G.setmetatable = function(t, mt)
  if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    error("setmetatable: __gc metamethods are not available in recipes", 2)
  end
  return setmetatable(t, mt)
end

-- Text chunks only, of bounded size. A reader function is called until it returns nil or ""
-- (its errors propagate instead of being returned, so nothing is swallowed).
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
  if type(chunk) == "string" and #chunk > host.max_chunk then
    return nil, "chunk is larger than " .. host.max_chunk .. " bytes"
  end
  if select("#", ...) > 0 then return rawload(chunk, name, "t", (...)) end
  return rawload(chunk, name, "t")
end

-- Output, randomness and time belong to the host. print, io.write and the standard files'
-- write go to the run's log (io.write's pieces joined until a newline, as on stdout); flush
-- logs an unfinished line; setvbuf is accepted. No file is ever opened.
G.print = host.print
local write, flush = host.write, host.flush
local file = {}
file.__index = file
file.__name = "FILE*"
function file:write(...) write(...) return self end
function file:flush() flush() return true end
function file:setvbuf(mode)
  if mode ~= "no" and mode ~= "full" and mode ~= "line" then
    error("bad argument #1 to 'setvbuf' (invalid option '" .. tostring(mode) .. "')", 2)
  end
  return true
end
local stdout, stderr = setmetatable({}, file), setmetatable({}, file)
G.io = {
  write = function(...) write(...) return stdout end,
  flush = function() flush() return true end,
  output = function() return stdout end,
  type = function(f) if f == stdout or f == stderr then return "file" end return nil end,
  stdout = stdout,
  stderr = stderr,
}
math.random = host.random
math.randomseed = nil
string.dump = nil
G.warn = nil

-- loadfile and dofile: text chunks of files inside the script directory (names are relative
-- to it), as load takes them.
local read_chunk = host.read_chunk
local function loadfile(name, mode, ...)
  if type(name) ~= "string" then
    return nil, "loadfile: a file name is needed (standard input is not available)"
  end
  local text, chunkname = read_chunk(name)
  if not text then return nil, chunkname end
  if mode ~= nil and type(mode) == "string" and not mode:find("t", 1, true) then
    return nil, "attempt to load a text chunk (mode is '" .. mode .. "')"
  end
  if select("#", ...) > 0 then return rawload(text, chunkname, "t", (...)) end
  return rawload(text, chunkname, "t")
end
G.loadfile = loadfile
G.dofile = function(name)
  if type(name) ~= "string" then
    error("bad argument #1 to 'dofile' (string expected, got " .. type(name) .. ")", 2)
  end
  local f, e = loadfile(name)
  if not f then error(e, 0) end
  return f()
end

-- collectgarbage: the collector is the host's. "count" answers the memory the recipe held
-- once loaded (the same figure in every run, so it never makes two maps differ); the other
-- options do nothing.
local loaded_kb = host.loaded_kb
G.collectgarbage = function(opt, ...)
  if opt == nil or opt == "collect" or opt == "stop" or opt == "restart" then return 0 end
  if opt == "count" then return loaded_kb() end
  if opt == "step" or opt == "isrunning" then return true end
  if opt == "incremental" or opt == "generational" then return "incremental" end
  if opt == "setpause" then return 200 end
  if opt == "setstepmul" then return 100 end
  error("bad argument #1 to 'collectgarbage' (invalid option '" .. tostring(opt) .. "')", 2)
end

-- require, as in stock Lua, over the script directories only: package.loaded (modules may
-- register themselves, `package.loaded[...] = M`), package.preload, the module name and file as
-- the loader's arguments; a cycle without self-registration recurses as in stock Lua, to its
-- C-stack limit.
-- package.path describes where require looks (`DIR/?.lua;DIR/?/init.lua`, the script
-- directory); require never reads it back, so setting it changes nothing. No cpath, searchers
-- or loadlib.
local find_module, call_loader = host.find_module, host.call_loader
local package = {
  loaded = {}, preload = {}, path = host.search_path, config = "/\n;\n?\n!\n-\n",
}
local loaded = package.loaded
for _, lib in ipairs { "string", "table", "math", "utf8" } do loaded[lib] = G[lib] end
loaded._G = G
G.package = package
G.require = function(name)
  if type(name) == "number" then name = tostring(name) end
  if type(name) ~= "string" then
    error("bad argument #1 to 'require' (string expected, got " .. type(name) .. ")", 2)
  end
  local found = loaded[name]
  if found then return found end
  local loader, extra = package.preload[name], ":preload:"
  if not loader then loader, extra = find_module(name) end
  -- Called from C, as stock Lua's require calls it: a require cycle then ends at the C-stack
  -- limit ("C stack overflow") within a few hundred levels.
  local result = call_loader(loader, name, extra)
  if result ~= nil then
    loaded[name] = result
  elseif loaded[name] == nil then
    loaded[name] = true
  end
  return loaded[name], extra
end

-- os: deterministic (crates/lua/src/clock.rs). os.clock() is virtual time, the instructions the
-- run has used since generate was entered at 300 000 000 per second, so time-limited loops end
-- the same way on every machine; os.time() is 2000-01-01 00:00:00 UTC plus the map's seed in
-- seconds (modulo thirty years) plus os.clock()'s whole seconds; tables given to os.time and
-- os.date are UTC.
local now = host.now
local function days_from_civil(y, m, d)
  y = m <= 2 and y - 1 or y
  local era = (y >= 0 and y or y - 399) // 400
  local yoe = y - era * 400
  local doy = (153 * (m + (m > 2 and -3 or 9)) + 2) // 5 + d - 1
  local doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
  return era * 146097 + doe - 719468
end
local function civil_from_days(z)
  z = z + 719468
  local era = (z >= 0 and z or z - 146096) // 146097
  local doe = z - era * 146097
  local yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
  local y = yoe + era * 400
  local doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
  local mp = (5 * doy + 2) // 153
  local d = doy - (153 * mp + 2) // 5 + 1
  local m = mp < 10 and mp + 3 or mp - 9
  return m <= 2 and y + 1 or y, m, d
end
local function field(t, k, default)
  local v = t[k]
  if v == nil then
    if default == nil then error("field '" .. k .. "' missing in date table", 3) end
    return default
  end
  if math.type(v) ~= "integer" then
    v = math.tointeger(v)
    if not v then error("field '" .. k .. "' is not an integer", 3) end
  end
  return v
end
local function os_time(t)
  if t == nil then return now() end
  local y, m = field(t, "year"), field(t, "month") - 1
  y, m = y + m // 12, m % 12 + 1
  local days = days_from_civil(y, m, 1) + field(t, "day") - 1
  return days * 86400 + field(t, "hour", 12) * 3600 + field(t, "min", 0) * 60 + field(t, "sec", 0)
end
local DAYS = { "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday" }
local MONTHS = { "January", "February", "March", "April", "May", "June", "July", "August",
  "September", "October", "November", "December" }
local function date_table(time)
  local days, secs = time // 86400, time % 86400
  local y, m, d = civil_from_days(days)
  return {
    year = y, month = m, day = d, hour = secs // 3600, min = secs % 3600 // 60, sec = secs % 60,
    wday = (days + 4) % 7 + 1, yday = days - days_from_civil(y, 1, 1) + 1, isdst = false,
  }
end
local function os_date(fmt, time)
  fmt = fmt == nil and "%c" or fmt
  if type(fmt) ~= "string" then error("bad argument #1 to 'date' (string expected)", 2) end
  time = time == nil and now() or math.tointeger(time)
  if not time then error("bad argument #2 to 'date' (number has no integer representation)", 2) end
  if fmt:sub(1, 1) == "!" then fmt = fmt:sub(2) end
  local t = date_table(time)
  if fmt:sub(1, 2) == "*t" then return t end
  local conv
  conv = {
    a = function() return DAYS[t.wday]:sub(1, 3) end, A = function() return DAYS[t.wday] end,
    b = function() return MONTHS[t.month]:sub(1, 3) end, B = function() return MONTHS[t.month] end,
    d = function() return format("%02d", t.day) end, H = function() return format("%02d", t.hour) end,
    I = function() return format("%02d", (t.hour + 11) % 12 + 1) end,
    j = function() return format("%03d", t.yday) end, m = function() return format("%02d", t.month) end,
    M = function() return format("%02d", t.min) end, p = function() return t.hour < 12 and "AM" or "PM" end,
    S = function() return format("%02d", t.sec) end, y = function() return format("%02d", t.year % 100) end,
    Y = function() return tostring(t.year) end, w = function() return tostring(t.wday - 1) end,
    x = function() return format("%02d/%02d/%02d", t.month, t.day, t.year % 100) end,
    X = function() return format("%02d:%02d:%02d", t.hour, t.min, t.sec) end,
    c = function() return conv.a() .. " " .. conv.b() .. format(" %2d ", t.day) .. conv.X() .. " " .. t.year end,
    ["%"] = function() return "%" end,
  }
  return (fmt:gsub("%%(.)", function(c)
    local f = conv[c]
    if not f then error("bad argument #1 to 'date' (invalid conversion specifier '%" .. c .. "')", 3) end
    return f()
  end))
end
local clock = host.clock
G.os = {
  time = os_time,
  date = os_date,
  clock = function() return clock() end,
  difftime = function(a, b) return (a - (b or 0)) + 0.0 end,
}

-- Read-only tables (`crates/lua/src/readonly.rs`): every write, raw or not, to a key the table
-- has or not, raises `cannot modify read-only table 'name' (key k)` at the line that wrote;
-- reads, `#`, `pairs` and `ipairs` are a plain table's. `readonly(t, name)` seals `t` itself,
-- `freeze(value, name)` a copy of it with every table inside. They stay Lua functions here (one
-- call into the host's): made here, they take the object ids they always took, so every object
-- made after them keeps its id, and a table keyed by such objects its `pairs` order.
local seal_as, frozen = host.readonly, host.freeze
local function readonly(t, name) return seal_as(t, name) end
local function freeze(value, name) return frozen(value, name) end
-- string, table, math and utf8 stay writable, as in stock Lua: a run that changes them leaves
-- the state dirty, and the host rebuilds it before the next run.
G.coroutine = readonly(G.coroutine, "coroutine")
loaded.coroutine = G.coroutine
getmetatable("").__metatable = false

-- The warren module: Lua-side helpers on top of the Rust primitives.
local warren = host.warren
G.warren = freeze(warren, "warren")
loaded.warren = G.warren

-- One generation is one call from the host: `generate(map, ctx)` under the host's traceback
-- handler, as Lua's own `xpcall` would call it (the host has refilled `ctx` and started the
-- run's object numbering).
return { freeze = freeze, traceback = host.traceback }
