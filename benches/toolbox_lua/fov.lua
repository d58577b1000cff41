-- Field of view in pure Lua: Albert Ford's symmetric shadowcasting (his reference code, as
-- warren's primitive follows it, slopes as exact fractions), radius 20, from every 64th open
-- cell of the bench's cave in row order; the cells any of them sees gathered in one set.
-- Tags `seen` with their count, which the Rust side matches.
local common = require "common"

local RADIUS = 20

-- The quadrants' transforms (north, east, south, west): the map cell at `depth` rows and `col`
-- columns from the origin.
local function transform(q, ox, oy, depth, col)
  if q == 0 then return ox + col, oy - depth
  elseif q == 1 then return ox + depth, oy + col
  elseif q == 2 then return ox + col, oy + depth
  else return ox - depth, oy + col end
end

-- Marks in `seen` every cell seen from (ox, oy) on a w × h grid of `open` cells.
local function shadowcast(open, seen, w, h, ox, oy)
  seen[ox + oy * w + 1] = true
  local r2 = RADIUS * RADIUS
  for q = 0, 3 do
    -- Rows to scan: depth, start slope, end slope (numerator, denominator).
    local stack = { { 1, -1, 1, 1, 1 } }
    while #stack > 0 do
      local row = table.remove(stack)
      local depth, sn, sd, en, ed = row[1], row[2], row[3], row[4], row[5]
      if depth <= RADIUS then
        local lo = (2 * depth * sn + sd) // (2 * sd)
        local hi = -((-2 * depth * en + ed) // (2 * ed))
        local prev_wall = nil
        for col = lo, hi do
          local x, y = transform(q, ox, oy, depth, col)
          local wall = x < 0 or y < 0 or x >= w or y >= h or not open[x + y * w + 1]
          local centred = col * sd >= depth * sn and col * ed <= depth * en
          if (wall or centred) and depth * depth + col * col <= r2
            and x >= 0 and y >= 0 and x < w and y < h then
            seen[x + y * w + 1] = true
          end
          if prev_wall == true and not wall then
            sn, sd = 2 * col - 1, 2 * depth
          elseif prev_wall == false and wall then
            stack[#stack + 1] = { depth + 1, sn, sd, 2 * col - 1, 2 * depth }
          end
          prev_wall = wall
        end
        if prev_wall == false then
          stack[#stack + 1] = { depth + 1, sn, sd, en, ed }
        end
      end
    end
  end
end

return {
  name = "pure-lua fov",
  params = common.analysis_params,
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    local open = common.cave_to_analyse(map, ctx)
    if not open then return end
    local seen, n = {}, 0
    for i = 0, w * h - 1 do
      if open[i + 1] then
        if n % 64 == 0 then
          shadowcast(open, seen, w, h, i % w, i // w)
        end
        n = n + 1
      end
    end
    local count = 0
    for i = 1, w * h do
      if seen[i] then count = count + 1 end
    end
    map:tag("seen", count)
  end,
}
