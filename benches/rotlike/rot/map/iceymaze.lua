-- A maze of long corridors carved from random free cells (rot.js's IceyMaze); the higher the
-- regularity, the straighter the corridors.
local ROT = require "rot"

local IceyMaze = ROT.Map:extend("IceyMaze")
ROT.Map.IceyMaze = IceyMaze

function IceyMaze:init(width, height, regularity, rng)
  IceyMaze.super.init(self, width, height, rng)
  self._regularity = regularity or 0
end

local function randomize(rng, dirs)
  for i = 1, 4 do dirs[i][1], dirs[i][2] = 0, 0 end
  local r = math.floor(rng:getUniform() * 4)
  if r == 0 then
    dirs[1][1], dirs[2][1], dirs[3][2], dirs[4][2] = -1, 1, -1, 1
  elseif r == 1 then
    dirs[4][1], dirs[3][1], dirs[2][2], dirs[1][2] = -1, 1, -1, 1
  elseif r == 2 then
    dirs[3][1], dirs[4][1], dirs[1][2], dirs[2][2] = -1, 1, -1, 1
  else
    dirs[2][1], dirs[1][1], dirs[4][2], dirs[3][2] = -1, 1, -1, 1
  end
end

local function isFree(map, x, y, width, height)
  if x < 1 or y < 1 or x >= width or y >= height then return false end
  return map[x][y] == 1
end

function IceyMaze:create(callback)
  local width, height = self._width, self._height
  local map = self:_fillMap(1)
  local rng = self._rng
  width = width - (width % 2 == 1 and 1 or 2)
  height = height - (height % 2 == 1 and 1 or 2)
  local done = 0
  local dirs = { { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } }
  repeat
    local cx = 1 + 2 * math.floor(rng:getUniform() * (width - 1) / 2)
    local cy = 1 + 2 * math.floor(rng:getUniform() * (height - 1) / 2)
    if done == 0 then map[cx][cy] = 0 end
    if map[cx][cy] == 0 then
      randomize(rng, dirs)
      local blocked
      repeat
        if math.floor(rng:getUniform() * (self._regularity + 1)) == 0 then randomize(rng, dirs) end
        blocked = true
        for i = 1, 4 do
          local nx, ny = cx + dirs[i][1] * 2, cy + dirs[i][2] * 2
          if isFree(map, nx, ny, width, height) then
            map[nx][ny] = 0
            map[cx + dirs[i][1]][cy + dirs[i][2]] = 0
            cx, cy = nx, ny
            blocked = false
            done = done + 1
            break
          end
        end
      until blocked
    end
  until done + 1 >= width * height / 4
  self._map = map
  if callback then self:_emit(map, callback) end
  return self
end

return IceyMaze
