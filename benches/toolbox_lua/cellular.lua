-- Cellular automata in pure Lua (rot.js's Cellular, ported): half the cells open at random,
-- then 15 generations of mapgen's rule (a cell is wall with no wall neighbour or with five and
-- more). Cells off the map count as wall; the map's outer ring stays wall.
local common = require "common"

return {
  name = "pure-lua cellular",
  params = common.params,
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    local wall = common.grid(w, h, 1)
    for y = 2, h - 1 do
      local row = wall[y]
      for x = 2, w - 1 do
        row[x] = math.random(100) <= 50 and 1 or 0
      end
    end
    for _ = 1, 15 do
      local next_wall = common.grid(w, h, 1)
      for y = 2, h - 1 do
        local up, here, down, out = wall[y - 1], wall[y], wall[y + 1], next_wall[y]
        for x = 2, w - 1 do
          local n = up[x - 1] + up[x] + up[x + 1] + here[x - 1] + here[x + 1]
            + down[x - 1] + down[x] + down[x + 1]
          out[x] = (n == 0 or n >= 5) and 1 or 0
        end
      end
      wall = next_wall
    end
    local open = common.grid(w, h, false)
    for y = 1, h do
      for x = 1, w do
        open[y][x] = wall[y][x] == 0
      end
    end
    common.write(map, open, w, h)
  end,
}
