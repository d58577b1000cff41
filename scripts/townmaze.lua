-- TownMaze (1991, seed 002): a town like the upper level of Bard's Tale I. Rows of rooms stand
-- back to back, every room has one door on a street, and every street is joined to the others.
-- The steps below follow townmain.c; warren.town does the work of each step in Rust.
local warren = require "warren"

local town_api = warren.town
-- The largest counts any town accepts. Each count's real limit depends on the size and is
-- checked by warren.town.new, which reports every broken rule at once.
local MOST = town_api.capacity(town_api.MAX_SIDE, town_api.MAX_SIDE)

-- The last step to run: stop early to watch the town grow, e.g. with --set show=debug.
local STEPS = { "fill", "unused", "gates", "courts", "connect", "alleys", "doors", "close_gates", "cleanup" }

return {
  name = "townmaze",
  description = "TownMaze: back-to-back rooms, one door each, on streets that all join; gates in the town wall.",
  params = {
    height = {
      default = 23, min = town_api.MIN_SIDE, max = town_api.MAX_SIDE,
      doc = "Town height in characters (-h); odd: walls on even rows, rooms on odd ones.",
    },
    width = {
      default = 77, min = town_api.MIN_SIDE, max = town_api.MAX_SIDE,
      doc = "Town width in characters (-w); odd.",
    },
    gates = {
      default = 4, min = 0, max = MOST.gates,
      doc = "Gates seeded in the town wall (-g); at most 2*((height-6)/7) + 2*((width-6)/7).",
    },
    leftgates = {
      default = 2, min = 0, max = MOST.gates,
      doc = "Gates still open at the end (-l); at most gates.",
    },
    courts = {
      default = 0, min = 0, max = MOST.courts,
      doc = "Courtyards: streets seeded inside the town (-c); at most ((height-5)/6)*((width-5)/6).",
    },
    unused = {
      default = 0, min = 0, max = MOST.unused,
      doc = "Solid blocks inside the town (-u); at most ((height-1)/14)*((width-1)/14).",
    },
    straightness = {
      default = 750, min = 0, max = town_api.MAX_STRAIGHTNESS,
      doc = "Chance in 1000 that a street refuses to bend (-s); 0 never straightens.",
    },
    dead_streets = {
      default = "freely", choices = { "freely", "sparingly" },
      doc = "Joining streets through rooms that already have a street: freely (TownMaze; can raze rooms in dense towns) or sparingly (one at a time, the other strategies first).",
    },
    connectivity = {
      default = "8", choices = { "8", "4" },
      doc = "How a walker moves. Towns are joined orthogonally, so every street and room is reachable either way; this only sets how statistics count areas.",
    },
    show = {
      default = "map", choices = { "map", "debug" },
      doc = "map: the town; debug: each cell's status (I L D U) or street direction (^ > v <).",
    },
    stop_after = {
      default = "cleanup", choices = STEPS,
      doc = "The last step to run (fill, unused, gates, courts, connect, alleys, doors, close_gates, cleanup).",
    },
  },

  generate = function(map, ctx)
    local p, rng = ctx.params, ctx.rng

    -- 1) accept the parameters: every getargs sanity check, all broken rules reported at once;
    -- 2) allocate the town.
    local town = warren.town.new {
      height = p.height, width = p.width, gates = p.gates, leftgates = p.leftgates,
      courts = p.courts, unused = p.unused, straightness = p.straightness,
    }

    -- The remaining steps in townmain.c's order; stop_after may end the run early.
    local steps = {
      -- 3) fill: a solid block of doorless rooms, the four corners unused.
      fill = function() town:fill() end,
      -- 4a) solid blocks inside the town, each in a wide band of isolated rooms.
      unused = function() town:make_unused(rng) end,
      -- 4b) gates: streets starting at the town wall.
      gates = function() town:make_gates(rng) end,
      -- 4c) courtyards: streets starting inside the town.
      courts = function() town:make_courts(rng) end,
      -- 5) extend the streets until they are all one street.
      connect = function() town:connect_streets(rng, { dead_streets = p.dead_streets }) end,
      -- 6) run alleys until no room is isolated.
      alleys = function() town:finish_alleys(rng) end,
      -- 7) every room keeps one door.
      doors = function() town:close_doors(rng) end,
      -- 8) wall up gates until leftgates remain.
      close_gates = function() town:close_gates(rng) end,
      -- 9) remove lone pillars left standing among streets.
      cleanup = function() town:cleanup_map() end,
    }
    -- Each step before the last is a snapshot (`warren run --frames`, the steps of `warren
    -- serve`), drawn as the town would be if it stopped there; the map itself is written once,
    -- below.
    local look = { view = p.show }
    for _, step in ipairs(STEPS) do
      steps[step]()
      if step == p.stop_after then break end
      town:snapshot(map, step, look)
    end

    -- 10) show the town: terrain from [town] in the region files, rooms, gates and streets
    -- recorded for JSON. (11, free, and 12, exit, are the host's business.)
    local drawn = town:write(map, { view = p.show })
    map:tag("connectivity", p.connectivity)
    ctx.metric("rooms", drawn.rooms)
    ctx.metric("gates", drawn.gates)
    ctx.metric("street_cells", drawn.street_cells)
  end,
}
