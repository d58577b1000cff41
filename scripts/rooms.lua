-- Rooms and corridors, after the Rust roguelike tutorial's "Improved corridors" chapter
-- (seed 004): random non-overlapping rooms, sorted leftmost-first, joined by one of four
-- corridor strategies; every corridor's cells are recorded, and a corridor spawner may place
-- monsters and items inside them.
local warren = require "warren"

-- The tutorial's `random_room_builder` rolls its corridors with `rng.roll_dice(1, 4)`.
local ROLLED = { "dogleg", "nearest", "lines", "bsp" }

return {
  name = "rooms",
  description = "Random rooms joined by nearest-neighbour, straight-line, dog-leg or BSP corridors.",
  params = {
    width = { default = 80, min = 16, max = 4096, doc = "Map width in cells." },
    height = { default = 50, min = 16, max = 4096, doc = "Map height in cells." },
    max_rooms = { default = 30, min = 1, max = 10000, doc = "Room placement attempts." },
    min_size = { default = 6, min = 1, max = 100, doc = "Smallest room side." },
    max_size = { default = 10, min = 1, max = 100, doc = "Largest room side." },
    corridors = {
      default = "nearest",
      choices = { "nearest", "lines", "dogleg", "bsp", "random" },
      doc = "Corridor strategy; random rolls one of the four per map, evenly, as the tutorial's random builder does (the map's corridors tag says which).",
    },
    connectivity = {
      default = "8", choices = { "8", "4" },
      doc = "How a walker moves: 8 (diagonals too) or 4; every open cell is reachable that way (straight-line corridors step orthogonally under 4).",
    },
    corridor_spawns = { default = false, doc = "Spawn monsters and items inside corridors." },
    max_spawns = { default = 4, min = 0, max = 100, doc = "The spawner's MAX_MONSTERS per corridor." },
  },

  generate = function(map, ctx)
    local p, style = ctx.params, ctx.regions.rooms
    if p.min_size > p.max_size then
      error(("min_size = %d exceeds max_size = %d"):format(p.min_size, p.max_size))
    end

    -- 1. Solid map; random rooms that neither overlap nor touch (SimpleMapBuilder), each
    --    carved and recorded as a room (carve_rooms' usual kind).
    map:fill(style.wall)
    local rooms = warren.gen.scatter_rooms(map, ctx.rng:stream("rooms"), {
      attempts = p.max_rooms, min_size = p.min_size, max_size = p.max_size,
    })
    local n = #rooms
    if n == 0 then
      error(("no room fits a %dx%d map with min_size = %d"):format(map.width, map.height, p.min_size))
    end
    map:carve_rooms(rooms, style.floor)
    map:snapshot("rooms")

    -- 2. RoomSorter LEFTMOST: dog-leg and BSP corridors join rooms in this order.
    rooms:sort("leftmost")

    -- 3. Corridors, each recorded as the cells it carved. Every room is joined to a later one
    --    (nearest pairing) or to the next (dog-leg, BSP), so the rooms form one area, in the
    --    chosen connectivity; the tag says which, for statistics and JSON.
    local strategy = p.corridors
    if strategy == "random" then
      strategy = ROLLED[ctx.rng:stream("builder"):int(1, #ROLLED)]
      map:tag("corridors", strategy)
    end
    warren.gen.connect_rooms(map, ctx.rng:stream("corridors"), rooms, {
      strategy = strategy, terrain = style.corridor, connectivity = p.connectivity,
    })
    map:tag("connectivity", p.connectivity)
    map:snapshot("corridors")

    -- 4. CorridorSpawner: things that live in hallways. The tutorial's chain also always runs a
    --    RoomBasedSpawner, from earlier chapters whose code and spawn tables the source does not
    --    give; the rooms are recorded for a game to fill (docs/departures.md).
    if p.corridor_spawns then
      warren.gen.spawn_in_corridors(map, ctx.rng:stream("spawns"), {
        table = ctx.regions.spawn, max_per_area = p.max_spawns, depth = ctx.depth,
      })
    end

    -- 5. RoomBasedStartingPosition and RoomBasedStairs: the player starts at the centre of the
    --    first room, the stairs down (terrain "down stairs") are at the centre of the last.
    warren.gen.start_and_stairs(map, rooms)
  end,
}
