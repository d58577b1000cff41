-- Diffusion-limited aggregation in pure Lua ("walk inwards", the roguelike tutorial's): a seed
-- plus of five cells at the centre of the map's inside; particles start on a random cell of the
-- inside and stagger one orthogonal step at a time (a step that would leave the inside is not
-- taken); when the next step would enter an open cell, the cell the particle stands on opens.
-- Until a quarter of the inside is open, or the particles have taken 2,000 steps a cell (the
-- primitive's cap).
local common = require "common"

return {
  name = "pure-lua dla",
  params = common.params,
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    local open = common.grid(w, h, false)
    local x1, y1, x2, y2 = 2, 2, w - 1, h - 1
    local cx, cy = (w - 2 - 1) // 2 + 2, (h - 2 - 1) // 2 + 2
    local count = 0
    for _, d in ipairs({ { 0, 0 }, { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } }) do
      open[cy + d[2]][cx + d[1]] = true
      count = count + 1
    end
    local wanted = ((w - 2) * (h - 2) * 25 + 99) // 100
    local steps = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } }
    local taken, most = 0, 2000 * (w - 2) * (h - 2)
    while count < wanted and taken < most do
      local x, y = math.random(x1, x2), math.random(y1, y2)
      if open[y][x] then
        taken = taken + 1
      else
        while taken < most do
          taken = taken + 1
          local s = steps[math.random(4)]
          local nx, ny = x + s[1], y + s[2]
          if nx >= x1 and ny >= y1 and nx <= x2 and ny <= y2 then
            if open[ny][nx] then
              open[y][x] = true
              count = count + 1
              break
            end
            x, y = nx, ny
          end
        end
      end
    end
    common.write(map, open, w, h)
  end,
}
