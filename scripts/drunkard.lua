-- The drunkard's walk (the `mapgen` crate's variants): walkers stagger one step at a time in a
-- random direction, digging, until enough of the map is open.
local warren = require "warren"

return {
  name = "drunkard",
  description = "Caves dug by drunkards: open area, open halls, winding passages, fat passages or fearful symmetry.",
  params = {
    width = { default = 80, min = 8, max = 4096, doc = "Map width in cells." },
    height = { default = 50, min = 8, max = 4096, doc = "Map height in cells." },
    variant = {
      default = "open_area",
      choices = { "open_area", "open_halls", "winding_passages", "fat_passages", "fearful_symmetry" },
      doc = "Which of the mapgen crate's walks.",
    },
  },

  generate = function(map, ctx)
    local p, cave = ctx.params, ctx.regions.cave
    map:fill(cave.wall)
    local inside = warren.rect(1, 1, map.width - 2, map.height - 2)
    local walked = warren.toolbox.drunkard(map, ctx.rng:stream("walk"), {
      terrain = cave.floor, variant = p.variant, rect = inside,
    })
    map:tag("walkers", walked.walkers)
    -- Every walker starts on open ground, so the cave is one piece: stairs at its two ends.
    local cx, cy = inside:center()
    local ex, ey = warren.toolbox.farthest(map, { x = cx, y = cy }, { connectivity = "4" })
    local sx, sy = warren.toolbox.farthest(map, { x = ex, y = ey }, { connectivity = "4" })
    map:set(sx, sy, cave.entrance)
    map:add_stair(sx, sy, "up")
    map:set(ex, ey, cave.exit)
    map:add_stair(ex, ey, "down")
  end,
}
