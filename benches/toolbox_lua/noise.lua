-- Perlin noise in pure Lua (the improved noise's fade and eight gradients, as rot.js and the
-- `noise` libraries port it): four octaves of fractal Brownian motion at 1/16 cell, open where
-- the noise is at least one half.
local common = require "common"

local function fade(t) return t * t * t * (t * (t * 6 - 15) + 10) end
local function lerp(a, b, t) return a + t * (b - a) end
local function grad(hash, x, y)
  local g = hash % 8
  if g == 0 then return x + y elseif g == 1 then return -x + y
  elseif g == 2 then return x - y elseif g == 3 then return -x - y
  elseif g == 4 then return x elseif g == 5 then return -x
  elseif g == 6 then return y else return -y end
end

return {
  name = "pure-lua noise",
  params = common.params,
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    local perm = {}
    for i = 0, 255 do perm[i] = i end
    for i = 255, 1, -1 do
      local j = math.random(0, i)
      perm[i], perm[j] = perm[j], perm[i]
    end
    for i = 0, 255 do perm[i + 256] = perm[i] end
    local offsets = {}
    for o = 1, 4 do offsets[o] = { math.random() * 256, math.random() * 256 } end
    local function perlin(x, y)
      local fx, fy = math.floor(x), math.floor(y)
      local xi, yi = fx % 256, fy % 256
      local x1, y1 = (xi + 1) % 256, (yi + 1) % 256
      local dx, dy = x - fx, y - fy
      local u, v = fade(dx), fade(dy)
      local n = lerp(
        lerp(grad(perm[perm[xi] + yi], dx, dy), grad(perm[perm[x1] + yi], dx - 1, dy), u),
        lerp(grad(perm[perm[xi] + y1], dx, dy - 1), grad(perm[perm[x1] + y1], dx - 1, dy - 1), u),
        v)
      return (n + 1) * 0.5
    end
    local open = common.grid(w, h, false)
    for y = 2, h - 1 do
      local row = open[y]
      for x = 2, w - 1 do
        local freq, amp, sum, total = 1 / 16, 1, 0, 0
        for o = 1, 4 do
          sum = sum + amp * perlin((x - 1) * freq + offsets[o][1], (y - 1) * freq + offsets[o][2])
          total = total + amp
          freq, amp = freq * 2, amp * 0.5
        end
        row[x] = sum / total >= 0.5
      end
    end
    common.write(map, open, w, h)
  end,
}
