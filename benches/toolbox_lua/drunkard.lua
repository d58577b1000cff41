-- Drunkard's walk in pure Lua ("open area"): walkers of 400 steps from the centre until half of
-- the map's inside is floor, or until they have taken a hundred steps a cell (the primitive's
-- cap: at 256x256 walkers from the centre stop there, near an eighth).
local common = require "common"

return {
  name = "pure-lua drunkard",
  params = common.params,
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    local open = common.grid(w, h, false)
    local cx, cy = (w - 2 - 1) // 2 + 2, (h - 2 - 1) // 2 + 2
    local wanted = ((w - 2) * (h - 2) * 50 + 99) // 100
    local count = 0
    local steps = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } }
    local taken, most = 0, 100 * (w - 2) * (h - 2)
    while count < wanted and taken < most do
      taken = taken + 400
      local x, y = cx, cy
      for _ = 1, 400 do
        if not open[y][x] then
          open[y][x] = true
          count = count + 1
        end
        local s = steps[math.random(4)]
        local nx, ny = x + s[1], y + s[2]
        if nx >= 2 and ny >= 2 and nx <= w - 1 and ny <= h - 1 then
          x, y = nx, ny
        end
      end
    end
    common.write(map, open, w, h)
  end,
}
