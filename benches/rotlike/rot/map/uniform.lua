-- Rooms placed at random until enough of the map is dug, then joined one by one, each
-- unconnected room to its nearest connected one (rot.js's Uniform).
local ROT = require "rot"
local Room, Corridor = ROT.Map.Feature.Room, ROT.Map.Feature.Corridor

local Uniform = ROT.Map.Dungeon:extend("Uniform")
ROT.Map.Uniform = Uniform

function Uniform:init(width, height, options)
  Uniform.super.init(self, width, height)
  self._options = {
    roomWidth = { 3, 9 },
    roomHeight = { 3, 5 },
    roomDugPercentage = 0.1,
    timeLimit = 1, -- seconds of os.clock()
  }
  for k, v in pairs(options or {}) do self._options[k] = v end
  self._rng = self._options.rng or ROT.RNG
  self._roomAttempts = 20
  self._corridorAttempts = 20
  self._connected = {}
  self._unconnected = {}
  self._digCallback = function(x, y, value) self:_dig(x, y, value) end
  self._canBeDugCallback = function(x, y) return self:_canBeDug(x, y) end
  self._isWallCallback = function(x, y) return self:_isWall(x, y) end
end

function Uniform:create(callback)
  local t1 = os.clock()
  while true do
    if os.clock() - t1 > self._options.timeLimit then return nil end
    self._map = self:_fillMap(1)
    self._dug = 0
    self._rooms = {}
    self._unconnected = {}
    self:_generateRooms()
    if #self._rooms >= 2 and self:_generateCorridors() then break end
  end
  if callback then self:_emit(self._map, callback) end
  return self
end

function Uniform:_generateRooms()
  local w, h = self._width - 2, self._height - 2
  repeat
    local room = self:_generateRoom()
    if self._dug / (w * h) > self._options.roomDugPercentage then break end
  until not room
end

function Uniform:_generateRoom()
  for _ = 1, self._roomAttempts do
    local room = Room.createRandom(self._width, self._height, self._options)
    if room:isValid(self._isWallCallback, self._canBeDugCallback) then
      room:create(self._digCallback)
      self._rooms[#self._rooms + 1] = room
      return room
    end
  end
  return nil
end

local function indexOf(list, item)
  for i = 1, #list do
    if list[i] == item then return i end
  end
  return nil
end

function Uniform:_generateCorridors()
  for _ = 1, self._corridorAttempts do
    self._corridors = {}
    self._map = self:_fillMap(1)
    for _, room in ipairs(self._rooms) do
      room:clearDoors()
      room:create(self._digCallback)
    end
    self._unconnected = self._rng:shuffle(self._rooms)
    self._connected = {}
    if #self._unconnected > 0 then
      self._connected[1] = table.remove(self._unconnected)
    end
    while true do
      local connected = self._rng:getItem(self._connected)
      if not connected then break end
      local room1 = self:_closestRoom(self._unconnected, connected)
      if not room1 then break end
      local room2 = self:_closestRoom(self._connected, room1)
      if not room2 then break end
      if not self:_connectRooms(room1, room2) then break end
      if #self._unconnected == 0 then return true end
    end
  end
  return false
end

function Uniform:_closestRoom(rooms, room)
  local dist, result = math.huge, nil
  local cx, cy = room:getCenter()
  for _, r in ipairs(rooms) do
    local x, y = r:getCenter()
    local d = (x - cx) ^ 2 + (y - cy) ^ 2
    if d < dist then
      dist = d
      result = r
    end
  end
  return result
end

function Uniform:_connectRooms(room1, room2)
  local c1 = { room1:getCenter() }
  local c2 = { room2:getCenter() }
  local diffX, diffY = c2[1] - c1[1], c2[2] - c1[2]
  local dirIndex1, dirIndex2, min, max, index
  if math.abs(diffX) < math.abs(diffY) then -- north-south walls first
    dirIndex1 = diffY > 0 and 2 or 0
    dirIndex2 = (dirIndex1 + 2) % 4
    min, max, index = room2:getLeft(), room2:getRight(), 1
  else -- east-west walls
    dirIndex1 = diffX > 0 and 1 or 3
    dirIndex2 = (dirIndex1 + 2) % 4
    min, max, index = room2:getTop(), room2:getBottom(), 2
  end
  local other = index % 2 + 1
  local start = self:_placeInWall(room1, dirIndex1)
  if not start then return false end
  local finish
  if start[index] >= min and start[index] <= max then -- a straight line
    finish = { start[1], start[2] }
    local value
    if dirIndex2 == 0 then value = room2:getTop() - 1
    elseif dirIndex2 == 1 then value = room2:getRight() + 1
    elseif dirIndex2 == 2 then value = room2:getBottom() + 1
    else value = room2:getLeft() - 1 end
    finish[other] = value
    self:_digLine { start, finish }
  elseif start[index] < min - 1 or start[index] > max + 1 then -- an L
    local diff = start[index] - c2[index]
    local rotation
    if dirIndex2 == 0 or dirIndex2 == 1 then rotation = diff < 0 and 3 or 1
    else rotation = diff < 0 and 1 or 3 end
    dirIndex2 = (dirIndex2 + rotation) % 4
    finish = self:_placeInWall(room2, dirIndex2)
    if not finish then return false end
    local mid = { 0, 0 }
    mid[index] = start[index]
    mid[other] = finish[other]
    self:_digLine { start, mid, finish }
  else -- an S
    finish = self:_placeInWall(room2, dirIndex2)
    if not finish then return false end
    local mid = math.floor((finish[other] + start[other]) / 2 + 0.5)
    local mid1, mid2 = { 0, 0 }, { 0, 0 }
    mid1[index], mid1[other] = start[index], mid
    mid2[index], mid2[other] = finish[index], mid
    self:_digLine { start, mid1, mid2, finish }
  end
  room1:addDoor(start[1], start[2])
  room2:addDoor(finish[1], finish[2])
  for _, room in ipairs { room1, room2 } do
    local i = indexOf(self._unconnected, room)
    if i then
      table.remove(self._unconnected, i)
      self._connected[#self._connected + 1] = room
    end
  end
  return true
end

function Uniform:_placeInWall(room, dirIndex)
  local start, dir, length
  if dirIndex == 0 then
    dir, start = { 1, 0 }, { room:getLeft(), room:getTop() - 1 }
    length = room:getRight() - room:getLeft() + 1
  elseif dirIndex == 1 then
    dir, start = { 0, 1 }, { room:getRight() + 1, room:getTop() }
    length = room:getBottom() - room:getTop() + 1
  elseif dirIndex == 2 then
    dir, start = { 1, 0 }, { room:getLeft(), room:getBottom() + 1 }
    length = room:getRight() - room:getLeft() + 1
  else
    dir, start = { 0, 1 }, { room:getLeft() - 1, room:getTop() }
    length = room:getBottom() - room:getTop() + 1
  end
  local avail, lastBad = {}, -2
  for i = 0, length - 1 do
    local x, y = start[1] + i * dir[1], start[2] + i * dir[2]
    avail[i] = false
    if self._map[x][y] == 1 then
      if lastBad ~= i - 1 then avail[i] = { x, y } end
    else
      lastBad = i
      if i > 0 then avail[i - 1] = false end
    end
  end
  local list = {}
  for i = 0, length - 1 do
    if avail[i] then list[#list + 1] = avail[i] end
  end
  return self._rng:getItem(list)
end

function Uniform:_digLine(points)
  for i = 2, #points do
    local a, b = points[i - 1], points[i]
    local corridor = Corridor:new(a[1], a[2], b[1], b[2])
    corridor:create(self._digCallback)
    self._corridors[#self._corridors + 1] = corridor
  end
end

function Uniform:_dig(x, y, value)
  self._map[x][y] = value
  if value == 0 then self._dug = self._dug + 1 end
end

function Uniform:_isWall(x, y)
  if x < 0 or y < 0 or x >= self._width or y >= self._height then return false end
  return self._map[x][y] == 1
end

function Uniform:_canBeDug(x, y)
  if x < 1 or y < 1 or x + 1 >= self._width or y + 1 >= self._height then return false end
  return self._map[x][y] == 1
end

return Uniform
