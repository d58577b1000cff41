-- Diffusion-limited aggregation (bracket-lib's and the roguelike tutorial's DLA): from a small
-- seed of floor in the middle, particles wander until they touch the floor and stick there, so
-- the cave grows like frost; the entrance is at the cell farthest from the seed, the exit at the
-- cell farthest from the entrance.
local warren = require "warren"
local toolbox = warren.toolbox

return {
  name = "dla",
  description = "A cave grown by diffusion-limited aggregation: walk inwards, walk outwards or central attractor.",
  params = {
    width = { default = 80, min = 8, max = 4096, doc = "Map width in cells." },
    height = { default = 50, min = 8, max = 4096, doc = "Map height in cells." },
    mode = {
      default = "walk_inwards",
      choices = { "walk_inwards", "walk_outwards", "central_attractor" },
      doc = "walk_inwards: particles stagger in from anywhere; walk_outwards: they stagger out from the seed; central_attractor: they fly straight at it.",
    },
    floor_percent = { default = 25, min = 1, max = 90, doc = "Grow until this percent of the map is floor." },
    brush = { default = 1, min = 1, max = 4, doc = "Side of the square each particle carves." },
    symmetry = {
      default = "none",
      choices = { "none", "horizontal", "vertical", "both" },
      doc = "Mirror the growth about the map's centre.",
    },
  },

  generate = function(map, ctx)
    local p, cave = ctx.params, ctx.regions.cave
    map:fill(cave.wall)
    -- 1. The seed in the middle, then particles until the share is floor.
    local inside = warren.rect(1, 1, map.width - 2, map.height - 2)
    local cx, cy = inside:center()
    local grown = toolbox.dla(map, ctx.rng:stream("dla"), {
      terrain = cave.floor, mode = p.mode, floor_percent = p.floor_percent,
      brush = p.brush, symmetry = p.symmetry, start = { x = cx, y = cy }, rect = inside,
    })
    map:tag("particles", grown.particles)
    -- 2. Every particle stuck to the cave, so it is one piece: stairs at its two far ends.
    local ux, uy = toolbox.farthest(map, { x = cx, y = cy }, { connectivity = "4" })
    local dx, dy = toolbox.farthest(map, { x = ux, y = uy }, { connectivity = "4" })
    map:set(ux, uy, cave.entrance)
    map:add_stair(ux, uy, "up")
    map:set(dx, dy, cave.exit)
    map:add_stair(dx, dy, "down")
  end,
}
