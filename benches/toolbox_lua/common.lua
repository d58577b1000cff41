-- What the pure-Lua toolbox workloads share: their size parameters, writing a grid of booleans
-- (true: open) to the map in one call, and for the tools that work on a level (distance maps,
-- field of view, lakes) the cave they work on, read cell by cell.
local warren = require "warren"
local M = {}

M.params = {
  width = { default = 80, min = 8, max = 1024, doc = "Map width." },
  height = { default = 50, min = 8, max = 1024, doc = "Map height." },
}

-- The parameters of the tools that work on a level: `analyse = false` makes the level alone,
-- the baseline the bench subtracts.
M.analysis_params = {
  width = M.params.width,
  height = M.params.height,
  analyse = { default = true, doc = "Run the tool on the level (false: only make the level)." },
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

-- Whether warren's BSP cuts a w × h piece vertically (across its width), given which of its
-- sides can be cut: the one that can, else the longer by a quarter, else a coin.
function M.cut_vertically(can_x, can_y, w, h)
  if can_x ~= can_y then return can_x end
  if w * 4 > h * 5 then return true end
  if h * 4 > w * 5 then return false end
  return math.random(2) == 1
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

-- The bench's cave for the analyses (distance maps, field of view): the map made rock, then
-- warren's own cellular primitive (45% rock, B5678/S45678, 4 generations) inside its edge, as
-- the Rust side makes it.
function M.cave(map, ctx)
  local cave = ctx.regions.cave
  map:fill(cave.wall)
  warren.toolbox.cave(map, ctx.rng:stream("cave"), {
    wall = cave.wall, floor = cave.floor, fill = 45, rule = "B5678/S45678", generations = 4,
    rect = warren.rect(1, 1, map.width - 2, map.height - 2),
  })
end

-- The map read cell by cell, as rot.js reads it through a callback: open[x + y * w + 1] is
-- true where a walker may stand.
function M.read_open(map, w, h)
  local open, i = {}, 1
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      open[i] = not map:is_solid(x, y)
      i = i + 1
    end
  end
  return open
end

-- The bench's cave read cell by cell (as `read_open`), or nil when the run makes the cave alone
-- (`analyse = false`, the baseline).
function M.cave_to_analyse(map, ctx)
  M.cave(map, ctx)
  if not ctx.params.analyse then return nil end
  return M.read_open(map, ctx.params.width, ctx.params.height)
end

-- The first open cell at or after the centre in row order (0-based index), as the Rust side
-- picks it; nil on a map with none.
function M.centre_cell(open, w, h)
  for i = w // 2 + (h // 2) * w, w * h - 1 do
    if open[i + 1] then return i end
  end
  return nil
end

-- Labels the open cells (open[i], 1-based cells) not `blocked` by 8-way area (label[i]);
-- returns the labels and the first cell of each area in row order.
function M.label8(open, blocked, w, h)
  local lab, firsts = {}, {}
  local dirs = { { -1, -1 }, { 0, -1 }, { 1, -1 }, { -1, 0 }, { 1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 1 } }
  for i = 1, w * h do
    if open[i] and not lab[i] and not blocked[i] then
      local id = #firsts + 1
      firsts[id] = i
      lab[i] = id
      local stack = { i }
      while #stack > 0 do
        local c = table.remove(stack)
        local x, y = (c - 1) % w, (c - 1) // w
        for k = 1, 8 do
          local nx, ny = x + dirs[k][1], y + dirs[k][2]
          local j = nx + ny * w + 1
          if nx >= 0 and ny >= 0 and nx < w and ny < h
            and open[j] and not lab[j] and not blocked[j] then
            lab[j] = id
            stack[#stack + 1] = j
          end
        end
      end
    end
  end
  return lab, firsts
end

return M
