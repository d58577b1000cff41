-- An empty room with walls around: every cell is handed over and nothing else is done.
local ROT = require "rot"

local Arena = ROT.Map:extend("Arena")
ROT.Map.Arena = Arena

function Arena:create(callback)
  local w, h = self._width - 1, self._height - 1
  for y = 0, h do
    for x = 0, w do
      local empty = x > 0 and y > 0 and x < w and y < h
      callback(x, y, empty and 0 or 1)
    end
  end
  return self
end

return Arena
