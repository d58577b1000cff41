-- Brogue's loops in pure Lua (`addLoops`, as warren's primitive reads it): on a Voronoi hive made
-- through the API (a seed a hundred cells, Euclidean, one-cell walls), every closed cell off the
-- map's edge with open cells on two opposite sides and closed cells on the other two is a
-- candidate; in a random order, a candidate whose sides are 20 or more steps apart by a 4-way
-- walk over the open cells (or not joined at all) becomes a closed door. Tags `openings`.
local warren = require "warren"
local common = require "common"

local MIN_DISTANCE = 20

-- Whether a 4-way walk over `open` reaches `to` from `from` in fewer than `limit` steps
-- (cells are 1-based indexes x + y * w + 1; the hive's edge is wall, so no step leaves the map).
local function within(open, w, from, to, limit)
  local seen = { [from] = true }
  local frontier = { from }
  local steps = { -w, -1, 1, w }
  for _ = 1, limit - 1 do
    local next = {}
    for _, i in ipairs(frontier) do
      for k = 1, 4 do
        local j = i + steps[k]
        if open[j] and not seen[j] then
          if j == to then return true end
          seen[j] = true
          next[#next + 1] = j
        end
      end
    end
    if #next == 0 then return false end
    frontier = next
  end
  return false
end

-- The two open cells on opposite sides of cell i when the other two sides are closed.
local function sides(open, w, i)
  local west, east, north, south = open[i - 1], open[i + 1], open[i - w], open[i + w]
  if west and east and not north and not south then return i - 1, i + 1 end
  if north and south and not west and not east then return i - w, i + w end
  return nil
end

return {
  name = "pure-lua loops",
  params = common.analysis_params,
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    local style = ctx.regions.rooms
    map:fill(style.wall)
    local ids = warren.toolbox.voronoi(map, ctx.rng:stream("seeds"), {
      seeds = math.max(w * h // 100, 2), metric = "euclidean",
    })
    warren.toolbox.hive(map, ids, { wall = style.wall, floor = style.floor, border = 1, thin = true })
    if not ctx.params.analyse then return end
    local open = common.read_open(map, w, h)
    local candidates = {}
    for y = 1, h - 2 do
      for x = 1, w - 2 do
        local i = x + y * w + 1
        if not open[i] and sides(open, w, i) then
          candidates[#candidates + 1] = i
        end
      end
    end
    for k = #candidates, 2, -1 do
      local j = math.random(k)
      candidates[k], candidates[j] = candidates[j], candidates[k]
    end
    local openings = 0
    for _, i in ipairs(candidates) do
      local a, b = sides(open, w, i)
      if a and not within(open, w, a, b, MIN_DISTANCE) then
        local x, y = (i - 1) % w, (i - 1) // w
        if map:set(x, y, "door") then
          map:add_door(x, y)
          open[i] = true
          openings = openings + 1
        end
      end
    end
    map:tag("openings", openings)
  end,
}
