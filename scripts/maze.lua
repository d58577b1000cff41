-- A maze: a perfect maze (a spanning tree of cells two map cells apart) by one of five
-- algorithms, then a share of its dead ends knocked through into loops (a "braid" maze).
local warren = require "warren"

return {
  name = "maze",
  description = "A maze by recursive backtracker, Prim, Kruskal, Eller or recursive division, with an optional braid.",
  params = {
    width = { default = 81, min = 5, max = 4095, doc = "Map width in cells (odd widths fill it exactly)." },
    height = { default = 51, min = 5, max = 4095, doc = "Map height in cells (odd heights fill it exactly)." },
    algorithm = {
      default = "backtracker",
      choices = { "backtracker", "prim", "kruskal", "eller", "division" },
      doc = "backtracker: long winding corridors; prim: many short dead ends; kruskal: even texture; eller: row by row; division: long straight walls.",
    },
    braid = { default = 0, min = 0, max = 100, doc = "Percent of dead ends opened into loops (0: a perfect maze)." },
  },

  generate = function(map, ctx)
    local p, style = ctx.params, ctx.regions.rooms
    map:fill(style.wall)
    local carved = warren.toolbox.maze(map, ctx.rng:stream("maze"), {
      passage = style.corridor, wall = style.wall,
      algorithm = p.algorithm, braid = p.braid,
    })
    map:tag("loops", carved.braided)
    -- In at the top-left cell, out at the cell farthest from it.
    local ex, ey = warren.toolbox.farthest(map, { x = 1, y = 1 }, { connectivity = "4" })
    map:set(1, 1, "up stairs")
    map:add_stair(1, 1, "up")
    map:set(ex, ey, "down stairs")
    map:add_stair(ex, ey, "down")
  end,
}
