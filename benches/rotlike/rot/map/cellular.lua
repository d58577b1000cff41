-- A cellular automaton: cells are born or survive by their number of live neighbours
-- (rot.js's Cellular). `randomize(p)`, then `create()` once per generation; `create(callback)`
-- hands the cells over.
local ROT = require "rot"

local Cellular = ROT.Map:extend("Cellular")
ROT.Map.Cellular = Cellular

function Cellular:init(width, height, options)
  Cellular.super.init(self, width, height)
  self._options = { born = { 5, 6, 7, 8 }, survive = { 4, 5, 6, 7, 8 }, topology = 8 }
  for k, v in pairs(options or {}) do self._options[k] = v end
  self._rng = self._options.rng or ROT.RNG
  self._dirs = ROT.DIRS[self._options.topology]
  self._map = self:_fillMap(0)
end

function Cellular:randomize(probability)
  for x = 0, self._width - 1 do
    for y = 0, self._height - 1 do
      self._map[x][y] = self._rng:getUniform() < probability and 1 or 0
    end
  end
  return self
end

function Cellular:set(x, y, value) self._map[x][y] = value end

local function indexOf(list, item)
  for i = 1, #list do
    if list[i] == item then return i end
  end
  return nil
end

function Cellular:create(callback)
  local newMap = self:_fillMap(0)
  local born, survive = self._options.born, self._options.survive
  for y = 0, self._height - 1 do
    for x = 0, self._width - 1 do
      local cur = self._map[x][y]
      local n = self:_getNeighbors(x, y)
      if cur == 1 and indexOf(survive, n) then
        newMap[x][y] = 1
      elseif cur == 0 and indexOf(born, n) then
        newMap[x][y] = 1
      end
    end
  end
  self._map = newMap
  if callback then self:_emit(self._map, callback) end
  return self
end

function Cellular:_getNeighbors(cx, cy)
  local result = 0
  for _, d in ipairs(self._dirs) do
    local x, y = cx + d[1], cy + d[2]
    if x >= 0 and x < self._width and y >= 0 and y < self._height then
      result = result + (self._map[x][y] == 1 and 1 or 0)
    end
  end
  return result
end

return Cellular
