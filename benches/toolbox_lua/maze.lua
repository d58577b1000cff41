-- A recursive-backtracker maze in pure Lua (rot.js-style): cells two map cells apart, a stack
-- of cells, a random unvisited neighbour at each step.
local common = require "common"

return {
  name = "pure-lua maze",
  params = common.params,
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    local open = common.grid(w, h, false)
    local gw, gh = (w - 1) // 2, (h - 1) // 2
    local visited = {}
    local dirs = { { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 } }
    local stack = { { 0, 0 } }
    visited[0] = true
    open[2][2] = true
    local choices = {}
    while #stack > 0 do
      local top = stack[#stack]
      local i, j = top[1], top[2]
      local n = 0
      for k = 1, 4 do
        local d = dirs[k]
        local ni, nj = i + d[1], j + d[2]
        if ni >= 0 and nj >= 0 and ni < gw and nj < gh and not visited[ni + nj * gw] then
          n = n + 1
          choices[n] = d
        end
      end
      if n == 0 then
        stack[#stack] = nil
      else
        local d = choices[math.random(n)]
        local ni, nj = i + d[1], j + d[2]
        visited[ni + nj * gw] = true
        -- Map cells are 1-based here: cell (i, j) is at (2 + 2i, 2 + 2j).
        open[2 + 2 * j + d[2]][2 + 2 * i + d[1]] = true
        open[2 + 2 * nj][2 + 2 * ni] = true
        stack[#stack + 1] = { ni, nj }
      end
    end
    common.write(map, open, w, h)
  end,
}
