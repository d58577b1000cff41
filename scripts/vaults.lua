-- A vault-studded dungeon, after Dungeon Crawl's vaults: random rooms joined by corridors,
-- then vault templates from the region files (`[[prefab]]` in regions/vaults.toml) fitted
-- into the solid rock between them, each picked by its tags, the level's depth and its weight,
-- turned, mirrored and varied by its substitutions, and joined to the level by a corridor.
-- Last, a few rooms get decorations (templates tagged "decor") laid inside them. A vault never
-- leaves the level in two pieces: a placement that would is taken back and another tried.
local warren = require "warren"
local toolbox = warren.toolbox

return {
  name = "vaults",
  description = "Rooms and corridors studded with vault templates placed by tag, depth and weight.",
  params = {
    width = { default = 80, min = 24, max = 4096, doc = "Map width in cells." },
    height = { default = 50, min = 16, max = 4096, doc = "Map height in cells." },
    rooms = { default = 12, min = 1, max = 10000, doc = "Room placement attempts." },
    vaults = { default = 4, min = 0, max = 100, doc = "Vaults to fit into the rock between rooms." },
    decor = { default = 3, min = 0, max = 100, doc = "Rooms to decorate with a template laid inside them." },
    tags = { default = "", doc = "Only vaults with this tag (e.g. treasure); empty for any but decor." },
  },

  generate = function(map, ctx)
    local p, style = ctx.params, ctx.regions.rooms
    local tags = p.tags ~= "" and { p.tags } or nil

    -- 1. Rooms and corridors in solid rock (the tutorial's rooms, joined nearest first).
    map:fill(style.wall)
    local rooms = warren.gen.scatter_rooms(map, ctx.rng:stream("rooms"), {
      attempts = p.rooms, min_size = 5, max_size = 9,
    })
    if #rooms == 0 then error("no room fits the map") end
    map:carve_rooms(rooms, style.floor, { kind = "room" })
    rooms:sort("leftmost")
    warren.gen.connect_rooms(map, ctx.rng:stream("corridors"), rooms, {
      strategy = "nearest", terrain = style.corridor,
    })
    map:snapshot("rooms")

    -- 2. Vaults in the rock, by tag and depth; each is recorded as a room of kind "vault".
    local vaults = toolbox.place_vaults(map, ctx.rng:stream("vaults"), {
      floor = style.floor, wall = style.wall, door = "door", depth = ctx.depth,
      tags = tags, exclude = { "decor" }, count = p.vaults,
    })
    for _, v in ipairs(vaults) do map:add_room(v, "vault") end
    map:snapshot("vaults")

    -- 3. Decorations inside rooms other than the first and the last (the stairs go there).
    local decorate = ctx.rng:stream("decor")
    for i = 2, math.min(#rooms - 1, p.decor + 1) do
      toolbox.place_vaults(map, decorate, {
        floor = style.floor, wall = style.wall, depth = ctx.depth,
        tags = { "decor" }, fit = "inside", rect = rooms[i],
      })
    end

    -- 4. The start in the first room, the stairs down in the last.
    warren.gen.start_and_stairs(map, rooms)
  end,
}
