-- A maze by recursive division: a room is split by a wall cross with holes in three of its
-- four arms, and each quarter in turn (rot.js's DividedMaze).
local ROT = require "rot"

local DividedMaze = ROT.Map:extend("DividedMaze")
ROT.Map.DividedMaze = DividedMaze

function DividedMaze:create(callback)
  local w, h = self._width, self._height
  self._map = {}
  for x = 0, w - 1 do
    local column = {}
    for y = 0, h - 1 do
      column[y] = (x == 0 or y == 0 or x + 1 == w or y + 1 == h) and 1 or 0
    end
    self._map[x] = column
  end
  self._stack = { { 1, 1, w - 2, h - 2 } }
  while #self._stack > 0 do
    self:_partitionRoom(table.remove(self._stack, 1))
  end
  if callback then self:_emit(self._map, callback) end
  return self
end

function DividedMaze:_partitionRoom(room)
  local map = self._map
  local availX, availY = {}, {}
  for x = room[1] + 1, room[3] - 1 do
    if map[x][room[2] - 1] == 1 and map[x][room[4] + 1] == 1 and x % 2 == 0 then
      availX[#availX + 1] = x
    end
  end
  for y = room[2] + 1, room[4] - 1 do
    if map[room[1] - 1][y] == 1 and map[room[3] + 1][y] == 1 and y % 2 == 0 then
      availY[#availY + 1] = y
    end
  end
  if #availX == 0 or #availY == 0 then return end
  local rng = self._rng
  local x, y = rng:getItem(availX), rng:getItem(availY)
  map[x][y] = 1
  local walls = { {}, {}, {}, {} }
  for i = room[1], x - 1 do
    map[i][y] = 1
    if i % 2 == 1 then table.insert(walls[1], { i, y }) end
  end
  for i = x + 1, room[3] do
    map[i][y] = 1
    if i % 2 == 1 then table.insert(walls[2], { i, y }) end
  end
  for j = room[2], y - 1 do
    map[x][j] = 1
    if j % 2 == 1 then table.insert(walls[3], { x, j }) end
  end
  for j = y + 1, room[4] do
    map[x][j] = 1
    if j % 2 == 1 then table.insert(walls[4], { x, j }) end
  end
  local solid = rng:getItem(walls)
  for _, wall in ipairs(walls) do
    if wall ~= solid then
      local hole = rng:getItem(wall)
      if hole then map[hole[1]][hole[2]] = 0 end
    end
  end
  local stack = self._stack
  stack[#stack + 1] = { room[1], room[2], x - 1, y - 1 }
  stack[#stack + 1] = { x + 1, room[2], room[3], y - 1 }
  stack[#stack + 1] = { room[1], y + 1, x - 1, room[4] }
  stack[#stack + 1] = { x + 1, y + 1, room[3], room[4] }
end

return DividedMaze
