-- Vault placement in pure Lua (`warren.toolbox.place_vaults`'s rules, as the primitive reads
-- them) on the bench's BSP dungeon: the shipped templates (`ctx.regions.prefab`, decorations
-- aside, depth 9) drawn by weight; each tried up to 20 times, a try being an orientation the
-- template allows, its substitutions drawn and a random spot where it and a ring of one cell
-- round it lie on solid rock (a summed-area table over the map). The template is drawn at
-- priority 100, a corridor dug from its entrances (its `connect` glyphs, else one open cell of
-- its border) down a breadth-first distance map to the nearest open cell, and the try kept only
-- when each entrance opens onto the level and the open cells (8-way) are in no more areas than
-- before; otherwise every cell goes back as it was. A template that never fits is not drawn
-- again. Tags `vaults` with the templates placed: max(4, w·h / 4096), as the bench's primitive.
local warren = require "warren"
local common = require "common"

local DEPTH, TRIES, VAULT_PRIORITY, FLOOR_PRIORITY = 9, 20, 100, 70
local N4 = { { 0, -1 }, { 0, 1 }, { 1, 0 }, { -1, 0 } }

-- The bench's dungeon: rock, then BSP rooms (leaves of 12, rooms of 4 or more) at the floor's
-- priority inside the map's edge, drawn by warren's own primitive.
local function dungeon(map, ctx)
  local w, h = map.width, map.height
  map:fill("rock wall")
  warren.toolbox.bsp_rooms(map, ctx.rng:stream("bsp"), {
    floor = "floor", corridor = "floor", min_leaf = 12, min_room = 4,
    priority = FLOOR_PRIORITY, rect = warren.rect(1, 1, w - 2, h - 2),
  })
end

-- The map read cell by cell into the arrays the placement keeps up to date (1-based cells):
-- solid, passable (neither solid nor a hazard, or a door), a door, the write priority.
local function read_level(map, ctx, w, h)
  local facts = {}
  for _, t in ipairs(ctx.regions.terrain) do
    facts[t.name] = { solid = t.solid, passable = not t.solid and not t.hazard }
  end
  local level = { w = w, h = h, facts = facts, solid = {}, pass = {}, door = {}, prio = {} }
  local i = 1
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      local f = facts[map:get(x, y)]
      level.solid[i], level.pass[i], level.door[i] = f.solid, f.passable, false
      level.prio[i] = map:priority(x, y)
      i = i + 1
    end
  end
  return level
end

-- The templates a depth-9 placement without decorations may draw, each as a glyph grid and a
-- legend from glyph to { terrain =, door = }: the built-in `.`, `#` and `+` as the bench's
-- brushes draw them (floor, rock wall, a door on the floor), a `[[door]]` kind as its closed
-- terrain; a glyph with no entry (a space) leaves its cell alone.
local function templates(ctx)
  local closed = {}
  for _, d in ipairs(ctx.regions.door) do closed[d.name] = d.closed end
  local list = {}
  for _, p in ipairs(ctx.regions.prefab) do
    local decor = false
    for _, tag in ipairs(p.tags) do decor = decor or tag == "decor" end
    if p.weight > 0 and p.min_depth <= DEPTH and DEPTH <= p.max_depth and not decor then
      local text = p.map:gsub("^\n", ""):gsub("\r?\n$", "")
      local cells, gw, gh = {}, nil, 0
      for line in (text .. "\n"):gmatch("(.-)\r?\n") do
        gw, gh = gw or #line, gh + 1
        for x = 1, #line do cells[#cells + 1] = line:sub(x, x) end
      end
      local legend = {
        ["."] = { terrain = "floor" }, ["#"] = { terrain = "rock wall" },
        ["+"] = { terrain = "floor", door = true },
      }
      for glyph, name in pairs(p.legend) do
        legend[glyph] = closed[name] and { terrain = closed[name], door = true } or { terrain = name }
      end
      local connect = {}
      for c in p.connect:gmatch(".") do connect[c] = true end
      list[#list + 1] = {
        name = p.name, weight = p.weight, grid = { w = gw, h = gh, cells = cells },
        legend = legend, subst = p.subst, rotate = p.rotate, mirror = p.mirror,
        connect = next(connect) and connect or nil,
      }
    end
  end
  return list
end

-- An index drawn by weight, or nil when every weight is 0.
local function weighted(weights)
  local total = 0
  for _, wt in ipairs(weights) do total = total + wt end
  if total <= 0 then return nil end
  local r = math.random() * total
  for i, wt in ipairs(weights) do
    if r < wt then return i end
    r = r - wt
  end
  for i = #weights, 1, -1 do
    if weights[i] > 0 then return i end
  end
end

-- The grid turned a quarter clockwise.
local function turned(g)
  local cells = {}
  for y = 1, g.w do
    for x = 1, g.h do
      cells[#cells + 1] = g.cells[y + (g.h - x) * g.w]
    end
  end
  return { w = g.h, h = g.w, cells = cells }
end

-- The grid mirrored left to right.
local function mirrored(g)
  local cells = {}
  for y = 1, g.h do
    for x = 1, g.w do
      cells[#cells + 1] = g.cells[(g.w - x + 1) + (y - 1) * g.w]
    end
  end
  return { w = g.w, h = g.h, cells = cells }
end

-- A random orientation the template allows, its substitutions drawn (one-of per cell or per
-- placement; n-of: `count` of the glyph's cells drawn by a shuffle, the rest `rest`).
local function laid_out(t)
  local turns, flips = t.rotate and 4 or 1, t.mirror and 2 or 1
  local o = math.random(0, turns * flips - 1)
  local g = { w = t.grid.w, h = t.grid.h, cells = { table.unpack(t.grid.cells) } }
  for _ = 1, o % turns do g = turned(g) end
  if o >= turns then g = mirrored(g) end
  for _, s in ipairs(t.subst) do
    local at = {}
    for i, c in ipairs(g.cells) do
      if c == s.glyph then at[#at + 1] = i end
    end
    if s.one_of then
      local once = s.per == "placement" and math.random(#s.one_of) or nil
      for _, i in ipairs(at) do
        local k = once or math.random(#s.one_of)
        g.cells[i] = s.one_of:sub(k, k)
      end
    else
      for k = #at, 2, -1 do
        local j = math.random(k)
        at[k], at[j] = at[j], at[k]
      end
      for k, i in ipairs(at) do
        if k <= s.count then g.cells[i] = s.becomes elseif s.rest then g.cells[i] = s.rest end
      end
    end
  end
  return g
end

-- A random top-left cell (0-based) where the grid and a ring round it lie on solid rock that
-- is no door, or nil: a summed-area table of such cells, every window counted, one drawn.
local function free_spot(level, g)
  local w, h = level.w, level.h
  local ww, wh = g.w + 2, g.h + 2
  if ww > w or wh > h then return nil end
  local stride, sum = w + 1, {}
  for x = 0, w do sum[x + 1] = 0 end
  for y = 1, h do
    local row, base, above = 0, y * stride + 1, (y - 1) * stride + 1
    sum[base] = 0
    for x = 1, w do
      local i = x + (y - 1) * w
      if level.solid[i] and not level.door[i] then row = row + 1 end
      sum[base + x] = sum[above + x] + row
    end
  end
  local whole, spots = ww * wh, {}
  for y = 0, h - wh do
    for x = 0, w - ww do
      local x2, y2 = x + ww, y + wh
      if sum[x2 + y2 * stride + 1] + sum[x + y * stride + 1]
        - sum[x + y2 * stride + 1] - sum[x2 + y * stride + 1] == whole then
        spots[#spots + 1] = x + y * w
      end
    end
  end
  if #spots == 0 then return nil end
  local s = spots[math.random(#spots)]
  return s % w + 1, s // w + 1
end

-- Writes one cell at `priority`, stamped with `region` (when given), saving what it held in
-- `backup`. (A cell put back keeps the stamp: the API has no way to clear one.)
local function write(map, level, backup, x, y, terrain, door, priority, region)
  local i = x + y * level.w + 1
  backup[#backup + 1] = {
    x, y, map:get(x, y), level.prio[i], level.solid[i], level.pass[i], level.door[i],
  }
  map:set(x, y, terrain, { priority = priority, region = region })
  local f = level.facts[terrain]
  level.solid[i], level.pass[i], level.door[i] = f.solid, f.passable or door, door
  level.prio[i] = priority
end

-- Puts every cell of `backup` back, the last written first.
local function restore(map, level, backup)
  for k = #backup, 1, -1 do
    local b = backup[k]
    local x, y = b[1], b[2]
    local i = x + y * level.w + 1
    map:set(x, y, b[3], { priority = b[4], force = true })
    level.prio[i], level.solid[i], level.pass[i], level.door[i] = b[4], b[5], b[6], b[7]
  end
end

-- The entrances of the grid drawn at (ox, oy): its `connect` glyphs' cells, else every border
-- cell a walker may stand on; as 0-based { x, y }.
local function entrances(level, t, g, ox, oy)
  local out = {}
  for y = 0, g.h - 1 do
    for x = 0, g.w - 1 do
      local c = g.cells[x + 1 + y * g.w]
      local entrance
      if t.connect then
        entrance = t.connect[c]
      else
        entrance = (x == 0 or y == 0 or x == g.w - 1 or y == g.h - 1)
          and level.pass[ox + x + 1 + (oy + y) * level.w]
      end
      if entrance then out[#out + 1] = { ox + x, oy + y } end
    end
  end
  return out
end

-- Whether (x, y) lies in the rectangle (ox, oy, g.w, g.h).
local function inside(x, y, ox, oy, g)
  return x >= ox and y >= oy and x < ox + g.w and y < oy + g.h
end

-- Digs a corridor from each entrance to the nearest open cell of the level outside the grid,
-- down a 4-way breadth-first distance map over the cells a corridor may carve (off the grid
-- and the map's edge; open, or of a priority the floor's wins over); each corridor's cells go
-- to `corridors`. Returns false when an entrance cannot reach one; true when the level has no
-- open cell (nothing to join).
local function dig(map, level, backup, corridors, t, g, ox, oy)
  local w, h = level.w, level.h
  local starts = entrances(level, t, g, ox, oy)
  if not t.connect and #starts > 0 then starts = { starts[math.random(#starts)] } end
  local dist, queue = {}, {}
  local room = {}
  for y = 1, h - 2 do
    for x = 1, w - 2 do
      if not inside(x, y, ox, oy, g) then
        local i = x + y * w + 1
        room[i] = level.pass[i] or level.prio[i] <= FLOOR_PRIORITY
        if level.pass[i] then
          dist[i] = 0
          queue[#queue + 1] = i
        end
      end
    end
  end
  if #queue == 0 then return true end
  if #starts == 0 then return false end
  local head = 1
  while head <= #queue do
    local i = queue[head]
    head = head + 1
    local d = dist[i] + 1
    for _, o in ipairs(N4) do
      local j = i + o[1] + o[2] * w
      if room[j] and not dist[j] then
        dist[j] = d
        queue[#queue + 1] = j
      end
    end
  end
  for _, s in ipairs(starts) do
    local best, bd
    for _, o in ipairs(N4) do
      local x, y = s[1] + o[1], s[2] + o[2]
      local j = x + y * w + 1
      if not inside(x, y, ox, oy, g) and room[j] and dist[j] and (not bd or dist[j] < bd) then
        best, bd = j, dist[j]
      end
    end
    if not best then return false end
    local path, i = {}, best
    while dist[i] > 0 do
      path[#path + 1] = i
      for _, o in ipairs(N4) do
        local j = i + o[1] + o[2] * w
        if dist[j] and dist[j] < dist[i] then
          i = j
          break
        end
      end
    end
    local cells = {}
    for k, c in ipairs(path) do
      local x, y = (c - 1) % w, (c - 1) // w
      write(map, level, backup, x, y, "floor", false, FLOOR_PRIORITY)
      cells[k] = { x = x, y = y }
    end
    corridors[#corridors + 1] = cells
  end
  return true
end

-- Whether every entrance touches an open cell outside the grid (true for a template with no
-- `connect` glyphs).
local function entrances_open(level, t, g, ox, oy)
  if not t.connect then return true end
  for _, e in ipairs(entrances(level, t, g, ox, oy)) do
    local open = false
    for _, o in ipairs(N4) do
      local x, y = e[1] + o[1], e[2] + o[2]
      if not inside(x, y, ox, oy, g) and x >= 0 and y >= 0 and x < level.w and y < level.h
        and level.pass[x + y * level.w + 1] then
        open = true
      end
    end
    if not open then return false end
  end
  return true
end

-- How many separate areas the open cells make, stepping 8 ways.
local function areas(level)
  local _, firsts = common.label8(level.pass, {}, level.w, level.h)
  return #firsts
end

-- Up to TRIES tries at placing template `t` on a level of `pieces` open areas. When one is
-- kept, records its doors and corridors and returns the areas the level is now in.
local function attempt(map, level, t, pieces)
  for _ = 1, TRIES do
    local g = laid_out(t)
    local ox, oy = free_spot(level, g)
    if ox then
      local backup, doors, corridors = {}, {}, {}
      for k, c in ipairs(g.cells) do
        local cell = t.legend[c]
        if cell then
          local x, y = ox + (k - 1) % g.w, oy + (k - 1) // g.w
          write(map, level, backup, x, y, cell.terrain, cell.door or false, VAULT_PRIORITY, t.name)
          if cell.door then doors[#doors + 1] = { x, y } end
        end
      end
      if dig(map, level, backup, corridors, t, g, ox, oy) and entrances_open(level, t, g, ox, oy) then
        local now = areas(level)
        if now <= math.max(pieces, 1) then
          for _, d in ipairs(doors) do map:add_door(d[1], d[2]) end
          for _, c in ipairs(corridors) do map:add_corridor(c, t.name) end
          return now
        end
      end
      restore(map, level, backup)
    end
  end
  return nil
end

return {
  name = "pure-lua vaults",
  params = common.analysis_params,
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    dungeon(map, ctx)
    if not ctx.params.analyse then return end
    local level = read_level(map, ctx, w, h)
    local list, weights = templates(ctx), {}
    for i, t in ipairs(list) do weights[i] = t.weight end
    local count, placed, pieces = math.max(4, w * h // 4096), 0, areas(level)
    while placed < count do
      local i = weighted(weights)
      if not i then break end
      local now = attempt(map, level, list[i], pieces)
      if now then
        placed, pieces = placed + 1, now
      else
        weights[i] = 0
      end
    end
    map:tag("vaults", placed)
  end,
}
