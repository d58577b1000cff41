-- Binary space partition, as the `mapgen` crate and RogueBasin describe it: cut the map in two,
-- and each half again, until the pieces are small; then either put a room in every piece and
-- join the halves of every cut with a corridor ("rooms"), or make every piece a room walled off
-- from its sibling with one door through each wall ("interior").
local warren = require "warren"

return {
  name = "bsp",
  description = "BSP rooms joined along the cuts, or a BSP interior of walls and doors.",
  params = {
    width = { default = 80, min = 8, max = 4096, doc = "Map width in cells." },
    height = { default = 50, min = 8, max = 4096, doc = "Map height in cells." },
    style = { default = "rooms", choices = { "rooms", "interior" }, doc = "Rooms with corridors, or a building's interior." },
    min_leaf = { default = 8, min = 3, max = 256, doc = "rooms: the smallest piece a cut may leave." },
    min_room = { default = 3, min = 1, max = 256, doc = "The smallest room side." },
    max_room = { default = 0, min = 0, max = 256, doc = "rooms: the largest room side (0: as large as the piece allows)." },
    split = {
      default = "longer", choices = { "longer", "halves" },
      doc = "interior: cut each piece across its longer side until none can be cut (rooms of like sides), or halve it across a side drawn at random, as the Rust roguelike tutorial does (long strips).",
    },
  },

  generate = function(map, ctx)
    local p, style = ctx.params, ctx.regions.rooms
    map:fill(style.wall)
    local inside = warren.rect(1, 1, map.width - 2, map.height - 2)
    local rooms
    if p.style == "rooms" then
      rooms = warren.toolbox.bsp_rooms(map, ctx.rng:stream("bsp"), {
        floor = style.floor, corridor = style.corridor,
        min_leaf = p.min_leaf, min_room = p.min_room, rect = inside,
        max_room = p.max_room > 0 and p.max_room or nil,
      })
    else
      rooms = warren.toolbox.bsp_interior(map, ctx.rng:stream("bsp"), {
        floor = style.floor, wall = style.wall, min_room = p.min_room, split = p.split,
        rect = inside,
      })
    end
    -- The entrance in the middle of the first room, the exit at the cell a walker from it
    -- reaches last (the distant exit).
    local first = rooms[1]
    local ux, uy = first.x + first.w // 2, first.y + first.h // 2
    local dx, dy = warren.toolbox.farthest(map, { x = ux, y = uy }, { connectivity = "4" })
    map:set(ux, uy, "up stairs")
    map:add_stair(ux, uy, "up")
    map:set(dx, dy, "down stairs")
    map:add_stair(dx, dy, "down")
  end,
}
