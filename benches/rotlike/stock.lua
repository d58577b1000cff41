-- The rot library's generators in stock Lua, for benches/rotlike/run.sh (through
-- benches/pure_lua/stock_main.c): each call makes the next map (seeds 1, 2, …) into a table,
-- as a game would keep it. ROT_GEN names the generator, ROT_RNG the generator source.
package.path = "benches/rotlike/?.lua;benches/rotlike/?/init.lua;" .. package.path
local generators = require "generators"
local name = os.getenv("ROT_GEN") or "digger"
local rng = os.getenv("ROT_RNG") or "module"
local W, H = tonumber(os.getenv("ROT_W") or 80), tonumber(os.getenv("ROT_H") or 50)
local seed = 0
return function()
  seed = seed + 1
  local cells = {}
  generators.make(name, W, H, seed, rng, function(x, y, value) cells[y * W + x + 1] = value end)
  return cells[(H // 2) * W + W // 2 + 1]
end
