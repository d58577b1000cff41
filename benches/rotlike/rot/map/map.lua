-- The base of every generator: its size and a 2-D array of cells.
local ROT = require "rot"

local Map = ROT.Class:extend("Map")

-- `rng`: the generator to draw from (the default one, `ROT.RNG`, if nil)
function Map:init(width, height, rng)
  self._width = width or 80
  self._height = height or 25
  self._rng = rng or ROT.RNG
end

function Map:create() error("Map:create is abstract") end

-- a width × height array of columns, every cell `value`
function Map:_fillMap(value)
  local map = {}
  for x = 0, self._width - 1 do
    local column = {}
    for y = 0, self._height - 1 do column[y] = value end
    map[x] = column
  end
  return map
end

-- calls `callback(x, y, value)` for every cell of `map`, row by row
function Map:_emit(map, callback)
  for y = 0, self._height - 1 do
    for x = 0, self._width - 1 do callback(x, y, map[x][y]) end
  end
end

return Map
