-- Rooms and corridors as the dungeon generators place them: a feature checks whether it fits
-- (through callbacks asking about the map) and digs itself (through another).
local ROT = require "rot"

local Feature = ROT.Class:extend("Feature")
ROT.Map.Feature = Feature

local Room = Feature:extend("Room")
Feature.Room = Room

function Room:init(x1, y1, x2, y2, doorX, doorY)
  self._x1, self._y1, self._x2, self._y2 = x1, y1, x2, y2
  self._doors = {}
  if doorX then self:addDoor(doorX, doorY) end
end

-- a room of random size whose door is at (x, y), growing in direction (dx, dy)
function Room.createRandomAt(x, y, dx, dy, options)
  local rng = options.rng or ROT.RNG
  local min, max = options.roomWidth[1], options.roomWidth[2]
  local width = rng:getUniformInt(min, max)
  min, max = options.roomHeight[1], options.roomHeight[2]
  local height = rng:getUniformInt(min, max)
  if dx == 1 then
    local y2 = y - math.floor(rng:getUniform() * height)
    return Room:new(x + 1, y2, x + width, y2 + height - 1, x, y)
  elseif dx == -1 then
    local y2 = y - math.floor(rng:getUniform() * height)
    return Room:new(x - width, y2, x - 1, y2 + height - 1, x, y)
  elseif dy == 1 then
    local x2 = x - math.floor(rng:getUniform() * width)
    return Room:new(x2, y + 1, x2 + width - 1, y + height, x, y)
  else
    local x2 = x - math.floor(rng:getUniform() * width)
    return Room:new(x2, y - height, x2 + width - 1, y - 1, x, y)
  end
end

-- a room of random size centred on (cx, cy)
function Room.createRandomCenter(cx, cy, options)
  local rng = options.rng or ROT.RNG
  local width = rng:getUniformInt(options.roomWidth[1], options.roomWidth[2])
  local height = rng:getUniformInt(options.roomHeight[1], options.roomHeight[2])
  local x1 = cx - math.floor(rng:getUniform() * width)
  local y1 = cy - math.floor(rng:getUniform() * height)
  return Room:new(x1, y1, x1 + width - 1, y1 + height - 1)
end

-- a room of random size and place inside the map
function Room.createRandom(availWidth, availHeight, options)
  local rng = options.rng or ROT.RNG
  local width = rng:getUniformInt(options.roomWidth[1], options.roomWidth[2])
  local height = rng:getUniformInt(options.roomHeight[1], options.roomHeight[2])
  local left = availWidth - width - 1
  local top = availHeight - height - 1
  local x1 = 1 + math.floor(rng:getUniform() * left)
  local y1 = 1 + math.floor(rng:getUniform() * top)
  return Room:new(x1, y1, x1 + width - 1, y1 + height - 1)
end

function Room:addDoor(x, y)
  self._doors[x .. "," .. y] = 1
  return self
end

function Room:clearDoors()
  self._doors = {}
  return self
end

function Room:getDoors(callback)
  local keys = {}
  for k in pairs(self._doors) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local x, y = k:match("(-?%d+),(-?%d+)")
    callback(tonumber(x), tonumber(y))
  end
  return self
end

function Room:addDoors(isWallCallback)
  local left, right = self._x1 - 1, self._x2 + 1
  local top, bottom = self._y1 - 1, self._y2 + 1
  for x = left, right do
    for y = top, bottom do
      if x == left or x == right or y == top or y == bottom then
        if not isWallCallback(x, y) then self:addDoor(x, y) end
      end
    end
  end
  return self
end

function Room:isValid(isWallCallback, canBeDugCallback)
  local left, right = self._x1 - 1, self._x2 + 1
  local top, bottom = self._y1 - 1, self._y2 + 1
  for x = left, right do
    for y = top, bottom do
      if x == left or x == right or y == top or y == bottom then
        if not isWallCallback(x, y) then return false end
      else
        if not canBeDugCallback(x, y) then return false end
      end
    end
  end
  return true
end

-- digs the inside (0) and walls the border (1); doors stay open
function Room:create(digCallback)
  local left, right = self._x1 - 1, self._x2 + 1
  local top, bottom = self._y1 - 1, self._y2 + 1
  for x = left, right do
    for y = top, bottom do
      local value
      if self._doors[x .. "," .. y] then
        value = 2
      elseif x == left or x == right or y == top or y == bottom then
        value = 1
      else
        value = 0
      end
      digCallback(x, y, value)
    end
  end
end

function Room:getCenter()
  return math.floor((self._x1 + self._x2) / 2), math.floor((self._y1 + self._y2) / 2)
end

function Room:getLeft() return self._x1 end
function Room:getRight() return self._x2 end
function Room:getTop() return self._y1 end
function Room:getBottom() return self._y2 end

local Corridor = Feature:extend("Corridor")
Feature.Corridor = Corridor

function Corridor:init(startX, startY, endX, endY)
  self._startX, self._startY = startX, startY
  self._endX, self._endY = endX, endY
  self._endsWithAWall = true
end

function Corridor.createRandomAt(x, y, dx, dy, options)
  local rng = options.rng or ROT.RNG
  local length = rng:getUniformInt(options.corridorLength[1], options.corridorLength[2])
  return Corridor:new(x, y, x + dx * length, y + dy * length)
end

function Corridor:isValid(isWallCallback, canBeDugCallback)
  local sx, sy = self._startX, self._startY
  local dx, dy = self._endX - sx, self._endY - sy
  local length = 1 + math.max(math.abs(dx), math.abs(dy))
  if dx ~= 0 then dx = dx // math.abs(dx) end
  if dy ~= 0 then dy = dy // math.abs(dy) end
  local nx, ny = dy, -dx
  local ok = true
  for i = 0, length - 1 do
    local x, y = sx + i * dx, sy + i * dy
    if not canBeDugCallback(x, y) then ok = false end
    if not isWallCallback(x + nx, y + ny) then ok = false end
    if not isWallCallback(x - nx, y - ny) then ok = false end
    if not ok then
      length = i
      self._endX, self._endY = x - dx, y - dy
      break
    end
  end
  if length == 0 then return false end
  if length == 1 and isWallCallback(self._endX + dx, self._endY + dy) then return false end
  local firstCornerBad = not isWallCallback(self._endX + dx + nx, self._endY + dy + ny)
  local secondCornerBad = not isWallCallback(self._endX + dx - nx, self._endY + dy - ny)
  self._endsWithAWall = isWallCallback(self._endX + dx, self._endY + dy)
  if (firstCornerBad or secondCornerBad) and self._endsWithAWall then return false end
  return true
end

function Corridor:create(digCallback)
  local sx, sy = self._startX, self._startY
  local dx, dy = self._endX - sx, self._endY - sy
  local length = 1 + math.max(math.abs(dx), math.abs(dy))
  if dx ~= 0 then dx = dx // math.abs(dx) end
  if dy ~= 0 then dy = dy // math.abs(dy) end
  for i = 0, length - 1 do digCallback(sx + i * dx, sy + i * dy, 0) end
  return true
end

-- the walls a digger may continue from at the corridor's end
function Corridor:createPriorityWalls(priorityWallCallback)
  if not self._endsWithAWall then return end
  local sx, sy = self._startX, self._startY
  local dx, dy = self._endX - sx, self._endY - sy
  if dx ~= 0 then dx = dx // math.abs(dx) end
  if dy ~= 0 then dy = dy // math.abs(dy) end
  local nx, ny = dy, -dx
  priorityWallCallback(self._endX + dx, self._endY + dy)
  priorityWallCallback(self._endX + nx, self._endY + ny)
  priorityWallCallback(self._endX - nx, self._endY - ny)
end

return Feature
