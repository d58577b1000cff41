-- What the pure-Lua toolbox workloads share: their size parameters and writing a grid of
-- booleans (true: open) to the map in one call.
local M = {}

M.params = {
  width = { default = 80, min = 8, max = 1024, doc = "Map width." },
  height = { default = 50, min = 8, max = 1024, doc = "Map height." },
}

local LEGEND = { ["#"] = "rock wall", ["."] = "floor" }

-- Writes grid[y][x] (1-based; true: floor) to the map.
function M.write(map, grid, w, h)
  local rows = {}
  for y = 1, h do
    local row, cells = grid[y], {}
    for x = 1, w do
      cells[x] = row[x] and "." or "#"
    end
    rows[y] = table.concat(cells)
  end
  map:blit(0, 0, rows, { legend = LEGEND })
end

-- A w × h grid of `value`.
function M.grid(w, h, value)
  local g = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do
      row[x] = value
    end
    g[y] = row
  end
  return g
end

return M
