-- The base of the generators that make rooms and corridors: the rooms and corridors they made.
local ROT = require "rot"

local Dungeon = ROT.Map:extend("Dungeon")
ROT.Map.Dungeon = Dungeon

function Dungeon:init(width, height, rng)
  Dungeon.super.init(self, width, height, rng)
  self._rooms = {}
  self._corridors = {}
end

function Dungeon:getRooms() return self._rooms end
function Dungeon:getCorridors() return self._corridors end

return Dungeon
