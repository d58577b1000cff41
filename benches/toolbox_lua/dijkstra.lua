-- A Dijkstra (distance) map in pure Lua, as bracket-lib's DijkstraMap walks a grid: the bench's
-- cave, read cell by cell, then a breadth-first search (every step costs 1), 8-way, from the
-- first open cell at or after the centre. Tags `reached` with the cells it reached and `total`
-- with the sum of their distances, which the Rust side matches.
local common = require "common"

return {
  name = "pure-lua dijkstra",
  params = common.analysis_params,
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    local open = common.cave_to_analyse(map, ctx)
    if not open then return end
    local source = common.centre_cell(open, w, h)
    if not source then return end
    -- Cells are 1-based indexes x + y * w + 1; the cave's edge is rock, so no step leaves the map.
    local steps = { -w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1 }
    local dist = {}
    local queue, head, tail = { source + 1 }, 1, 1
    dist[source + 1] = 0
    local total = 0
    while head <= tail do
      local i = queue[head]
      head = head + 1
      local d = dist[i] + 1
      for k = 1, 8 do
        local j = i + steps[k]
        if open[j] and not dist[j] then
          dist[j] = d
          total = total + d
          tail = tail + 1
          queue[tail] = j
        end
      end
    end
    map:tag("reached", tail)
    map:tag("total", total)
  end,
}
