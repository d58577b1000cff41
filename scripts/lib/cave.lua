-- Avendesora's basic directional cave (seed 001), as a library: `scripts/cave.lua` is the
-- recipe; designers can build their own recipe on `cave.generate(map, ctx, { on_row = … })`.
--
-- One pass walks from an entrance towards the far side of the map, one row at a time: with
-- chance `roughness` the cave's width changes by ±1 or ±2, with chance `windyness` it shifts
-- sideways by ±1 or ±2, and the row is carved. `complexity` runs several passes; `omni` turns
-- each pass a different way. Passes that do not meet are joined afterwards by natural, winding
-- passages, so every open cell is reachable from the entrance (moving 8 or 4 ways, as the
-- `connectivity` parameter says).
local warren = require "warren"

local cave = {}

-- Directions a pass can walk. `along` grows away from the entrance; `across` is the other axis.
local DIRECTIONS = { "up", "right", "down", "left" }

-- Converts lane coordinates of a pass to map coordinates.
local function to_map(dir, map, along, across)
  if dir == "up" then return across, map.height - 1 - along end
  if dir == "down" then return across, along end
  if dir == "right" then return along, across end
  return map.width - 1 - along, across -- left
end

-- The map cells of a row segment [a0, a1] across, at `along`, as a rectangle.
local function row_rect(dir, map, along, a0, a1)
  local x0, y0 = to_map(dir, map, along, a0)
  local x1, y1 = to_map(dir, map, along, a1)
  return warren.rect(math.min(x0, x1), math.min(y0, y1), math.abs(x1 - x0) + 1, math.abs(y1 - y0) + 1)
end

-- A random step of ±1 or ±2 ("a random number between -2 and 2, excluding 0").
local function nudge(rng)
  local step = rng:int(1, 2)
  return rng:chance(50) and step or -step
end

-- Sizes of the two axes for a direction.
local function axes(dir, map)
  if dir == "up" or dir == "down" then return map.height, map.width end
  return map.width, map.height
end

-- Carves a small room centred on lane position (along, across) and returns its centre.
local function carve_room(map, dir, style, along, across, kind)
  local rect = row_rect(dir, map, along - 1, across - 1, across + 1)
  local x2, y2 = to_map(dir, map, along + 1, across + 1)
  rect = warren.rect(math.min(rect.x, x2), math.min(rect.y, y2),
    math.max(rect:x2(), x2) - math.min(rect.x, x2) + 1, math.max(rect:y2(), y2) - math.min(rect.y, y2) + 1)
  map:fill_rect(rect, style.floor)
  map:add_room(rect, kind)
  return to_map(dir, map, along, across)
end

-- One pass of the basic algorithm, `rows` long. Returns the map cells of its start and end.
local function carve_pass(map, ctx, rng, dir, jitter, rows, hooks)
  local p, style = ctx.params, ctx.regions.cave
  local along_size, across_size = axes(dir, map)
  -- Open cells stay one cell inside the map edge (the edge belongs to the map).
  local lo, hi = 1, across_size - 2
  local centre = across_size // 2 + jitter
  -- The seed draws the starting width "between 3 and almost as wide as the map"; a quarter of
  -- the map keeps one pass from swallowing the level.
  local width = rng:int(3, math.max(3, (hi - lo + 1) // 4))
  local x = math.max(lo, math.min(centre - width // 2, hi - 2))
  local along = 2
  local start_x, start_y = carve_room(map, dir, style, along, centre, "entrance")

  for step = 1, rows do
    along = along + 1
    if rng:int(1, 100) <= p.roughness then
      width = math.max(3, math.min(width + nudge(rng), hi - lo + 1))
    end
    if rng:int(1, 100) <= p.windyness then
      x = x + nudge(rng)
    end
    x = math.max(lo, math.min(x, hi - 2))
    local a1 = math.min(x + width - 1, hi)
    local rect = row_rect(dir, map, along, x, a1)
    map:fill_rect(rect, style.floor)
    if hooks.on_row then
      hooks.on_row(map, ctx, { step = step, direction = dir, rect = rect, width = a1 - x + 1, rng = rng })
    end
  end

  local end_across = math.max(lo + 1, math.min(x + width // 2, hi - 1))
  local end_x, end_y = carve_room(map, dir, style, along + 2, end_across, "exit")
  return start_x, start_y, end_x, end_y
end

-- Parameters every directional-cave recipe declares.
cave.params = {
  width = { default = 80, min = 16, max = 4096, doc = "Map width in cells." },
  height = { default = 50, min = 16, max = 4096, doc = "Map height in cells." },
  length = { default = 40, min = 3, max = 4000, doc = "Rows from entrance to exit, per pass." },
  extra_length = {
    default = 0, min = 0, max = 4000,
    doc = "Rows a pass may run past length (the seed's length that is \"not fixed\"): each pass runs length plus a number drawn from 0..extra_length, as far as the map allows.",
  },
  roughness = { default = 50, min = 1, max = 100, doc = "Percent chance per row that the width changes." },
  windyness = { default = 50, min = 1, max = 100, doc = "Percent chance per row that the cave shifts sideways." },
  complexity = { default = 1, min = 1, max = 16, doc = "Number of passes." },
  direction = {
    default = "up",
    choices = { "up", "down", "left", "right", "omni" },
    doc = "Which way the cave runs; omni turns each pass a different way.",
  },
  pass_start = {
    default = "spread",
    choices = { "spread", "entrance" },
    doc = "Where passes after the first start: spread (up to a sixth of the map across from the entrance, so they diverge and meet again) or entrance (every pass from the entrance, as the seed runs the algorithm again on the same map).",
  },
  connectivity = {
    default = "8", choices = { "8", "4" },
    doc = "How a walker moves: 8 (diagonals too) or 4; every open cell is reachable from the entrance that way.",
  },
}

-- The snapshot label of each pass ("pass 1", …), made once: a label formatted at every pass
-- would cost every map, snapshots kept or not.
local PASS_LABELS = {}
for pass = 1, cave.params.complexity.max do PASS_LABELS[pass] = "pass " .. pass end

-- Generates a directional cave. `hooks.on_row(map, ctx, row)` runs after every carved row.
function cave.generate(map, ctx, hooks)
  hooks = hooks or {}
  local p, style = ctx.params, ctx.regions.cave
  local rng = ctx.rng:stream("cave")

  -- The passes must fit: entrance room, length rows, exit room, all inside the edge.
  for pass = 1, p.complexity do
    local dir = p.direction == "omni" and DIRECTIONS[(pass - 1) % 4 + 1] or p.direction
    local along_size = axes(dir, map)
    local room = along_size - 7
    if p.length > room then
      error(("length = %d does not fit a %dx%d map running %s (at most %d)")
        :format(p.length, map.width, map.height, dir, math.max(room, 0)), 0)
    end
  end

  map:fill(style.wall)
  local entrance_x, entrance_y, exit_x, exit_y
  for pass = 1, p.complexity do
    local dir = p.direction == "omni" and DIRECTIONS[(pass - 1) % 4 + 1] or p.direction
    local along_size, across_size = axes(dir, map)
    -- The seed starts every pass at the same point; by default later passes start off-centre
    -- so they can diverge and meet again, which is what makes complexity interesting.
    local jitter = 0
    if pass > 1 and p.pass_start == "spread" then
      jitter = rng:int(-(across_size // 6), across_size // 6)
    end
    -- A length that is "not fixed": the pass may run on, within the map.
    local rows = p.length
    if p.extra_length > 0 then
      rows = math.min(p.length + rng:int(0, p.extra_length), along_size - 7)
    end
    local sx, sy, ex, ey = carve_pass(map, ctx, rng, dir, jitter, rows, hooks)
    if pass == 1 then entrance_x, entrance_y = sx, sy end
    exit_x, exit_y = ex, ey
    map:snapshot(PASS_LABELS[pass])
  end

  ctx.phase("carve")

  -- Passes "only occasionally intersect": join every separate open area to the entrance with
  -- a winding passage of varying width, so the join looks like more cave.
  local joined = warren.gen.join_areas(map, ctx.rng:stream("join"), {
    terrain = style.floor, style = "natural", connectivity = p.connectivity,
  })
  ctx.metric("components_before", joined.areas_before)
  ctx.metric("fixup_tunnels", joined.tunnels)
  ctx.phase("join")
  map:snapshot("join")

  map:set(entrance_x, entrance_y, style.entrance)
  map:add_stair(entrance_x, entrance_y, "up")
  map:set(exit_x, exit_y, style.exit)
  map:add_stair(exit_x, exit_y, "down")
end

return cave
