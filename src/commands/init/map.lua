-- A recipe to start from: rooms scattered over a solid map, joined by corridors, with the
-- player's start and the stairs down in two of them. Change it and see the map change:
--   warren watch scripts/map.lua
-- Every call is in warren's Lua API reference (docs/lua-api.md); your editor completes them
-- from scripts/types/warren.d.lua.
local warren = require "warren"

return {
  name = "map",
  description = "Rooms joined by corridors: a first recipe to change.",
  params = {
    width = { default = 60, min = 16, max = 1024, doc = "Map width in cells." },
    height = { default = 30, min = 16, max = 1024, doc = "Map height in cells." },
    rooms = { default = 20, min = 1, max = 1000, doc = "Room placement attempts." },
  },

  generate = function(map, ctx)
    -- The terrains come from [rooms] in regions/rooms.toml.
    local style = ctx.regions.rooms
    map:fill(style.wall)
    local rooms = warren.gen.scatter_rooms(map, ctx.rng:stream("rooms"), {
      attempts = ctx.params.rooms,
    })
    map:carve_rooms(rooms, style.floor)
    warren.gen.connect_rooms(map, ctx.rng:stream("corridors"), rooms, {
      terrain = style.corridor,
    })
    warren.gen.start_and_stairs(map, rooms)
  end,
}
