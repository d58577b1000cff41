-- A Voronoi hive in pure Lua: 64 seeds scattered over the map's inside, each cell given to its
-- nearest seed (Euclidean), and a cell walled where two or more of its four neighbours belong
-- to another seed or lie off the map (mapgen's border rule), the rest floor; the map's edge stays rock.
local common = require "common"

local SEEDS, BORDER = 64, 2

return {
  name = "pure-lua voronoi hive",
  params = common.params,
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    local sx, sy = {}, {}
    for i = 1, SEEDS do
      sx[i], sy[i] = math.random(1, w - 2), math.random(1, h - 2)
    end
    local id = {}
    for y = 0, h - 1 do
      local row = {}
      for x = 0, w - 1 do
        local best, nearest = math.huge, 0
        for i = 1, SEEDS do
          local dx, dy = x - sx[i], y - sy[i]
          local d = dx * dx + dy * dy
          if d < best then best, nearest = d, i end
        end
        row[x + 1] = nearest
      end
      id[y + 1] = row
    end
    local open = common.grid(w, h, false)
    for y = 2, h - 1 do
      local above, row, below, out = id[y - 1], id[y], id[y + 1], open[y]
      for x = 2, w - 1 do
        local mine, others = row[x], 0
        if above[x] ~= mine then others = others + 1 end
        if below[x] ~= mine then others = others + 1 end
        if row[x - 1] ~= mine then others = others + 1 end
        if row[x + 1] ~= mine then others = others + 1 end
        out[x] = others < BORDER
      end
    end
    common.write(map, open, w, h)
  end,
}
