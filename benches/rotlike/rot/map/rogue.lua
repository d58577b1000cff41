-- The original Rogue's dungeon: a grid of cells, each with a room, connected to neighbours
-- (rot.js's Rogue). Rooms are plain tables with string keys, as in rot.js.
local ROT = require "rot"
local DIRS8 = ROT.DIRS[8]

local Rogue = ROT.Map:extend("Rogue")
ROT.Map.Rogue = Rogue

local function roomSize(size, cell)
  local max = math.floor((size / cell) * 0.8)
  local min = math.floor((size / cell) * 0.25)
  if min < 2 then min = 2 end
  if max < 2 then max = 2 end
  return { min, max }
end

function Rogue:init(width, height, options)
  Rogue.super.init(self, width, height)
  self._options = { cellWidth = 3, cellHeight = 3 }
  for k, v in pairs(options or {}) do self._options[k] = v end
  self._rng = self._options.rng or ROT.RNG
  self._options.roomWidth = self._options.roomWidth or roomSize(self._width, self._options.cellWidth)
  self._options.roomHeight = self._options.roomHeight or roomSize(self._height, self._options.cellHeight)
end

function Rogue:create(callback)
  self.map = self:_fillMap(1)
  self.rooms = {}
  self.connectedCells = {}
  self:_initRooms()
  self:_connectRooms()
  self:_connectUnconnectedRooms()
  self:_createRooms()
  self:_createCorridors()
  if callback then self:_emit(self.map, callback) end
  return self
end

function Rogue:_initRooms()
  for i = 0, self._options.cellWidth - 1 do
    self.rooms[i] = {}
    for j = 0, self._options.cellHeight - 1 do
      self.rooms[i][j] = { x = 0, y = 0, width = 0, height = 0, connections = {}, cellx = i, celly = j }
    end
  end
end

function Rogue:_connectRooms()
  local cw, ch = self._options.cellWidth, self._options.cellHeight
  local cgx, cgy = self._rng:getUniformInt(0, cw - 1), self._rng:getUniformInt(0, ch - 1)
  local dirToCheck
  repeat
    dirToCheck = self._rng:shuffle { 1, 3, 5, 7 }
    local found
    repeat
      found = false
      local idx = table.remove(dirToCheck)
      local ncgx, ncgy = cgx + DIRS8[idx][1], cgy + DIRS8[idx][2]
      if ncgx >= 0 and ncgx < cw and ncgy >= 0 and ncgy < ch then
        local room = self.rooms[cgx][cgy]
        local first = room.connections[1]
        if first and first[1] == ncgx and first[2] == ncgy then break end
        local other = self.rooms[ncgx][ncgy]
        if #other.connections == 0 then
          other.connections[#other.connections + 1] = { cgx, cgy }
          self.connectedCells[#self.connectedCells + 1] = { ncgx, ncgy }
          cgx, cgy = ncgx, ncgy
          found = true
        end
      end
    until #dirToCheck == 0 or found
  until #dirToCheck == 0
end

function Rogue:_connectUnconnectedRooms()
  local cw, ch = self._options.cellWidth, self._options.cellHeight
  self.connectedCells = self._rng:shuffle(self.connectedCells)
  for i = 0, cw - 1 do
    for j = 0, ch - 1 do
      local room = self.rooms[i][j]
      if #room.connections == 0 then
        local directions = self._rng:shuffle { 1, 3, 5, 7 }
        local valid, other = false, nil
        repeat
          local d = table.remove(directions)
          local ni, nj = i + DIRS8[d][1], j + DIRS8[d][2]
          if ni >= 0 and ni < cw and nj >= 0 and nj < ch then
            other = self.rooms[ni][nj]
            valid = true
            if #other.connections == 0 then break end
            for _, c in ipairs(other.connections) do
              if c[1] == i and c[2] == j then
                valid = false
                break
              end
            end
            if valid then break end
          end
        until #directions == 0
        if valid then
          room.connections[#room.connections + 1] = { other.cellx, other.celly }
        end
      end
    end
  end
end

function Rogue:_createRooms()
  local w, h = self._width, self._height
  local cw, ch = self._options.cellWidth, self._options.cellHeight
  local cwp, chp = w // cw, h // ch
  local roomWidth, roomHeight = self._options.roomWidth, self._options.roomHeight
  for i = 0, cw - 1 do
    for j = 0, ch - 1 do
      local sx, sy = cwp * i, chp * j
      if sx == 0 then sx = 1 end
      if sy == 0 then sy = 1 end
      local roomw = self._rng:getUniformInt(roomWidth[1], roomWidth[2])
      local roomh = self._rng:getUniformInt(roomHeight[1], roomHeight[2])
      if j > 0 then
        local other = self.rooms[i][j - 1]
        while sy - (other.y + other.height) < 3 do sy = sy + 1 end
      end
      if i > 0 then
        local other = self.rooms[i - 1][j]
        while sx - (other.x + other.width) < 3 do sx = sx + 1 end
      end
      local sxOffset = math.floor(self._rng:getUniformInt(0, cwp - roomw) / 2 + 0.5)
      local syOffset = math.floor(self._rng:getUniformInt(0, chp - roomh) / 2 + 0.5)
      while sx + sxOffset + roomw >= w do
        if sxOffset > 0 then sxOffset = sxOffset - 1 else roomw = roomw - 1 end
      end
      while sy + syOffset + roomh >= h do
        if syOffset > 0 then syOffset = syOffset - 1 else roomh = roomh - 1 end
      end
      sx, sy = sx + sxOffset, sy + syOffset
      local room = self.rooms[i][j]
      room.x, room.y, room.width, room.height = sx, sy, roomw, roomh
      for ii = sx, sx + roomw - 1 do
        for jj = sy, sy + roomh - 1 do self.map[ii][jj] = 0 end
      end
    end
  end
end

function Rogue:_getWallPosition(room, direction)
  local rx, ry, door
  if direction == 1 or direction == 3 then
    rx = self._rng:getUniformInt(room.x + 1, room.x + room.width - 2)
    if direction == 1 then
      ry = room.y - 2
      door = ry + 1
    else
      ry = room.y + room.height + 1
      door = ry - 1
    end
    self.map[rx][door] = 0
  else
    ry = self._rng:getUniformInt(room.y + 1, room.y + room.height - 2)
    if direction == 2 then
      rx = room.x + room.width + 1
      door = rx - 1
    else
      rx = room.x - 2
      door = rx + 1
    end
    self.map[door][ry] = 0
  end
  return { rx, ry }
end

function Rogue:_drawCorridor(from, to)
  local xOffset, yOffset = to[1] - from[1], to[2] - from[2]
  local xpos, ypos = from[1], from[2]
  local xAbs, yAbs = math.abs(xOffset), math.abs(yOffset)
  local percent = self._rng:getUniform()
  local xDir = xOffset > 0 and 3 or 7
  local yDir = yOffset > 0 and 5 or 1
  local moves = {}
  if xAbs < yAbs then
    moves[#moves + 1] = { yDir, math.ceil(yAbs * percent) }
    moves[#moves + 1] = { xDir, xAbs }
    moves[#moves + 1] = { yDir, math.floor(yAbs * (1 - percent)) }
  else
    moves[#moves + 1] = { xDir, math.ceil(xAbs * percent) }
    moves[#moves + 1] = { yDir, yAbs }
    moves[#moves + 1] = { xDir, math.floor(xAbs * (1 - percent)) }
  end
  self.map[xpos][ypos] = 0
  while #moves > 0 do
    local move = table.remove(moves)
    while move[2] > 0 do
      xpos, ypos = xpos + DIRS8[move[1]][1], ypos + DIRS8[move[1]][2]
      self.map[xpos][ypos] = 0
      move[2] = move[2] - 1
    end
  end
end

function Rogue:_createCorridors()
  local cw, ch = self._options.cellWidth, self._options.cellHeight
  for i = 0, cw - 1 do
    for j = 0, ch - 1 do
      local room = self.rooms[i][j]
      for _, c in ipairs(room.connections) do
        local other = self.rooms[c[1]][c[2]]
        local wall, otherWall
        if other.cellx > room.cellx then wall, otherWall = 2, 4
        elseif other.cellx < room.cellx then wall, otherWall = 4, 2
        elseif other.celly > room.celly then wall, otherWall = 3, 1
        else wall, otherWall = 1, 3 end
        self:_drawCorridor(self:_getWallPosition(room, wall), self:_getWallPosition(other, otherWall))
      end
    end
  end
end

return Rogue
