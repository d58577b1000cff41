-- A perfect maze made row by row with Eller's algorithm (rot.js's EllerMaze): each cell keeps
-- its set as a ring of left and right links.
local ROT = require "rot"

local EllerMaze = ROT.Map:extend("EllerMaze")
ROT.Map.EllerMaze = EllerMaze

local function removeFromList(i, L, R)
  R[L[i]] = R[i]
  L[R[i]] = L[i]
  R[i] = i
  L[i] = i
end

local function addToList(i, L, R)
  R[L[i + 1]] = R[i]
  L[R[i]] = L[i + 1]
  R[i] = i + 1
  L[i + 1] = i
end

function EllerMaze:create(callback)
  local map = self:_fillMap(1)
  local rng = self._rng
  local w = math.ceil((self._width - 2) / 2)
  local rand = 9 / 24
  local L, R = {}, {}
  for i = 0, w - 1 do
    L[i] = i
    R[i] = i
  end
  L[w] = w - 1 -- a stop block on the right
  local j = 1
  while j + 3 < self._height do
    for i = 0, w - 1 do
      local x, y = 2 * i + 1, j
      map[x][y] = 0
      if i ~= L[i + 1] and rng:getUniform() > rand then
        addToList(i, L, R)
        map[x + 1][y] = 0
      end
      if i ~= L[i] and rng:getUniform() > rand then
        removeFromList(i, L, R)
      else
        map[x][y + 1] = 0
      end
    end
    j = j + 2
  end
  for i = 0, w - 1 do
    local x, y = 2 * i + 1, j
    map[x][y] = 0
    if i ~= L[i + 1] and (i == L[i] or rng:getUniform() > rand) then
      addToList(i, L, R)
      map[x + 1][y] = 0
    end
    removeFromList(i, L, R)
  end
  self._map = map
  if callback then self:_emit(map, callback) end
  return self
end

return EllerMaze
