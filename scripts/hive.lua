-- A Voronoi hive with Brogue's lakes and loops: scatter seeds and give every cell to its nearest
-- seed (Voronoi regions), wall each region in with one-cell walls, knock doors through the walls
-- where the two sides are far apart by path (Brogue's loops: this joins the cells of the hive
-- and then adds loops), keep the part the doors joined, drop lakes only where the level stays in
-- one piece, and put the stairs at the level's two far ends.
local warren = require "warren"
local toolbox = warren.toolbox

return {
  name = "hive",
  description = "Voronoi cells walled in and joined by Brogue's loops, with lakes that never cut the level.",
  params = {
    width = { default = 80, min = 12, max = 4096, doc = "Map width in cells." },
    height = { default = 50, min = 12, max = 4096, doc = "Map height in cells." },
    cells = { default = 40, min = 2, max = 4096, doc = "Voronoi seeds: how many cells the hive has." },
    metric = {
      default = "euclidean",
      choices = { "euclidean", "manhattan", "chebyshev" },
      doc = "How a cell's nearest seed is measured: round, diamond or square cells.",
    },
    loop_distance = { default = 24, min = 2, max = 100000, doc = "A door is knocked through a wall only where its two sides are at least this many steps apart." },
    lakes = { default = 3, min = 0, max = 100, doc = "Lakes wanted." },
    lake = { default = "water", choices = { "water", "magma", "chasm" }, doc = "What the lakes hold." },
    lake_size = { default = 40, min = 4, max = 10000, doc = "The most cells of a lake (the fewest is a quarter of it)." },
    shallows = { default = 1, min = 0, max = 3, doc = "Width of the shallow water round water lakes (0: none)." },
  },

  generate = function(map, ctx)
    local p, style = ctx.params, ctx.regions.rooms
    local four = { connectivity = "4" }
    map:fill(style.wall)
    -- 1. Voronoi regions, each walled in (the map's edge stays wall: it is never written).
    local ids, seeds = toolbox.voronoi(map, ctx.rng:stream("seeds"), { seeds = p.cells, metric = p.metric })
    toolbox.hive(map, ids, { wall = style.wall, floor = style.floor, border = 1, thin = true })
    -- 2. Doors where the sides are far apart (regions not yet joined are infinitely far).
    local doors = toolbox.loops(map, ctx.rng:stream("loops"), {
      door = "door", min_distance = p.loop_distance, connectivity = "4",
    })
    map:tag("doors", #doors)
    -- 3. Keep the largest part the doors joined.
    local largest
    for _, c in ipairs(map:components(four)) do
      if not largest or c.size > largest.size then largest = c end
    end
    if not largest then return end
    toolbox.cull(map, { { x = largest.x, y = largest.y } }, { terrain = style.wall, connectivity = "4" })
    -- 4. Lakes that keep the level in one piece, with shallows round water.
    local wreath = (p.lake == "water" and p.shallows > 0) and "shallow water" or nil
    local placed = toolbox.lakes(map, ctx.rng:stream("lakes"), {
      terrain = p.lake, count = p.lakes, min_size = math.max(1, p.lake_size // 4), max_size = p.lake_size,
      wreath = wreath, wreath_width = math.max(1, p.shallows), connectivity = "4",
    })
    map:tag("lakes", placed.lakes)
    -- 5. Stairs out of the lakes at two far ends of the level, found from the first seed left
    --    on floor that is not an island.
    local dry = { connectivity = "4", costs = { [p.lake] = "blocked" } }
    local ux, uy, dx, dy
    for _, s in ipairs(seeds) do
      if map:get(s.x, s.y) == style.floor then
        ux, uy = toolbox.farthest(map, s, dry)
        dx, dy = toolbox.farthest(map, { x = ux, y = uy }, dry)
        if dx ~= ux or dy ~= uy then break end
      end
    end
    if not ux then return end
    map:set(ux, uy, "up stairs")
    map:add_stair(ux, uy, "up")
    map:set(dx, dy, "down stairs")
    map:add_stair(dx, dy, "down")
  end,
}
