-- A cellular automaton on a Lua grid: 45% walls, five smoothing passes of the 4-5 rule.
return function(w, h)
  w, h = w or 200, h or 200
  local seed = 12345
  local function rand()
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  end
  local grid = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do
      row[x] = (x == 1 or y == 1 or x == w or y == h or rand() < 0.45) and 1 or 0
    end
    grid[y] = row
  end
  for _ = 1, 5 do
    local next_grid = {}
    for y = 1, h do
      local row, up, down = {}, grid[y - 1], grid[y + 1]
      local cur = grid[y]
      for x = 1, w do
        if x == 1 or y == 1 or x == w or y == h then
          row[x] = 1
        else
          local n = up[x - 1] + up[x] + up[x + 1] + cur[x - 1] + cur[x + 1]
            + down[x - 1] + down[x] + down[x + 1]
          row[x] = (n >= 5 or (n >= 4 and cur[x] == 1)) and 1 or 0
        end
      end
      next_grid[y] = row
    end
    grid = next_grid
  end
  local walls = 0
  for y = 1, h do for x = 1, w do walls = walls + grid[y][x] end end
  return walls
end
