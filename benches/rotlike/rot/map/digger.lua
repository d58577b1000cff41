-- A dungeon dug feature by feature from a first room: a wall next to the dug space is picked,
-- and a room or corridor that fits there is dug, until enough of the map is dug or the time is
-- up (rot.js's Digger). Walls are kept in a table keyed by "x,y" strings, as rot.js keeps them.
local ROT = require "rot"
local Feature = ROT.Map.Feature

local Digger = ROT.Map.Dungeon:extend("Digger")
ROT.Map.Digger = Digger

function Digger:init(width, height, options)
  Digger.super.init(self, width, height)
  self._options = {
    roomWidth = { 3, 9 },
    roomHeight = { 3, 5 },
    corridorLength = { 3, 10 },
    dugPercentage = 0.2,
    timeLimit = 1, -- seconds of os.clock()
  }
  for k, v in pairs(options or {}) do self._options[k] = v end
  self._rng = self._options.rng or ROT.RNG
  self._features = { Room = 4, Corridor = 4 }
  self._featureAttempts = 20
  self._walls = {}
  self._digCallback = function(x, y, value) self:_dig(x, y, value) end
  self._canBeDugCallback = function(x, y) return self:_canBeDug(x, y) end
  self._isWallCallback = function(x, y) return self:_isWall(x, y) end
  self._priorityWallCallback = function(x, y) self._walls[x .. "," .. y] = 2 end
end

function Digger:create(callback)
  self._rooms = {}
  self._corridors = {}
  self._map = self:_fillMap(1)
  self._walls = {}
  self._dug = 0
  local area = (self._width - 2) * (self._height - 2)
  self:_firstRoom()
  local t1 = os.clock()
  local priorityWalls
  repeat
    priorityWalls = 0
    if os.clock() - t1 > self._options.timeLimit then break end
    local wall = self:_findWall()
    if not wall then break end
    local x, y = wall:match("(-?%d+),(-?%d+)")
    x, y = tonumber(x), tonumber(y)
    local dir = self:_getDiggingDirection(x, y)
    if dir then
      for _ = 1, self._featureAttempts do
        if self:_tryFeature(x, y, dir[1], dir[2]) then
          self:_removeSurroundingWalls(x, y)
          self:_removeSurroundingWalls(x - dir[1], y - dir[2])
          break
        end
      end
      for _, kind in pairs(self._walls) do
        if kind == 2 then priorityWalls = priorityWalls + 1 end
      end
    end
  until self._dug / area > self._options.dugPercentage and priorityWalls == 0
  self:_addDoors()
  if callback then self:_emit(self._map, callback) end
  self._walls = {}
  return self
end

function Digger:_dig(x, y, value)
  if value == 0 or value == 2 then
    self._map[x][y] = 0
    self._dug = self._dug + 1
  else
    self._walls[x .. "," .. y] = 1
  end
end

function Digger:_isWall(x, y)
  if x < 0 or y < 0 or x >= self._width or y >= self._height then return false end
  return self._map[x][y] == 1
end

function Digger:_canBeDug(x, y)
  if x < 1 or y < 1 or x + 1 >= self._width or y + 1 >= self._height then return false end
  return self._map[x][y] == 1
end

function Digger:_firstRoom()
  local cx, cy = self._width // 2, self._height // 2
  local room = Feature.Room.createRandomCenter(cx, cy, self._options)
  self._rooms[#self._rooms + 1] = room
  room:create(self._digCallback)
end

function Digger:_findWall()
  local prio1, prio2 = {}, {}
  for id, kind in pairs(self._walls) do
    if kind == 2 then prio2[#prio2 + 1] = id else prio1[#prio1 + 1] = id end
  end
  local list = #prio2 > 0 and prio2 or prio1
  if #list == 0 then return nil end
  table.sort(list)
  local id = self._rng:getItem(list)
  self._walls[id] = nil
  return id
end

function Digger:_tryFeature(x, y, dx, dy)
  local name = self._rng:getWeightedValue(self._features)
  local feature = Feature[name].createRandomAt(x, y, dx, dy, self._options)
  if not feature:isValid(self._isWallCallback, self._canBeDugCallback) then return false end
  feature:create(self._digCallback)
  if feature:is(Feature.Room) then
    self._rooms[#self._rooms + 1] = feature
  else
    self._corridors[#self._corridors + 1] = feature
    feature:createPriorityWalls(self._priorityWallCallback)
  end
  return true
end

function Digger:_removeSurroundingWalls(cx, cy)
  for _, d in ipairs(ROT.DIRS[4]) do
    self._walls[(cx + d[1]) .. "," .. (cy + d[2])] = nil
    self._walls[(cx + 2 * d[1]) .. "," .. (cy + 2 * d[2])] = nil
  end
end

-- the direction to dig from wall (cx, cy): away from its one dug neighbour
function Digger:_getDiggingDirection(cx, cy)
  if cx <= 0 or cy <= 0 or cx >= self._width - 1 or cy >= self._height - 1 then return nil end
  local result
  for _, d in ipairs(ROT.DIRS[4]) do
    if self._map[cx + d[1]][cy + d[2]] == 0 then
      if result then return nil end
      result = d
    end
  end
  if not result then return nil end
  return { -result[1], -result[2] }
end

function Digger:_addDoors()
  for _, room in ipairs(self._rooms) do
    room:clearDoors()
    room:addDoors(self._isWallCallback)
  end
end

return Digger
