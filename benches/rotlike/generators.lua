-- One map of each generator, as a game would make it with the rot library: `make(name, width,
-- height, rng, callback)` runs generator `name` drawing from `rng` and hands every cell to
-- `callback(x, y, value)` (0 open, 1 wall). The same code runs in warren and in stock Lua.
local ROT = require "rot"
local Map = ROT.Map

local generators = {
  arena = function(w, h, rng, callback) Map.Arena:new(w, h, rng):create(callback) end,
  uniform = function(w, h, rng, callback) Map.Uniform:new(w, h, { rng = rng }):create(callback) end,
  digger = function(w, h, rng, callback) Map.Digger:new(w, h, { rng = rng }):create(callback) end,
  rogue = function(w, h, rng, callback) Map.Rogue:new(w, h, { rng = rng }):create(callback) end,
  cellular = function(w, h, rng, callback)
    local cave = Map.Cellular:new(w, h, { rng = rng })
    cave:randomize(0.5)
    for _ = 1, 3 do cave:create() end
    cave:create(callback)
  end,
  divided = function(w, h, rng, callback) Map.DividedMaze:new(w, h, rng):create(callback) end,
  icey = function(w, h, rng, callback) Map.IceyMaze:new(w, h, 0, rng):create(callback) end,
  eller = function(w, h, rng, callback) Map.EllerMaze:new(w, h, rng):create(callback) end,
}

-- The generators' names, in the order the benchmark runs them.
local names = { "arena", "uniform", "digger", "rogue", "cellular", "divided", "icey", "eller" }

-- `rng`: "module" draws from the library's default generator (its state is in the module
-- table, which every map then writes); "own" from a generator made for this map.
local function make(name, width, height, seed, rng, callback)
  local source
  if rng == "module" then
    source = ROT.RNG:setSeed(seed)
  else
    source = ROT.RNG:clone():setSeed(seed)
  end
  generators[name](width, height, source, callback)
end

return { make = make, names = names }
