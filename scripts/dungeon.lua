-- Incursion's level generator (Map::Generate, seed 003) as a recipe. Each phase below is one
-- step of the original. The work on cells is done in Rust, one call per phase or per panel
-- (warren.dungeon, warren.tunnel); the choices -- which streamer, vault or room, by weight and
-- depth -- are made here, from the region files (regions/dungeon.toml). A snapshot after each
-- phase lets `warren run --frames` and `warren serve` replay the level as it is built (free
-- otherwise: snapshots are only kept when asked for).
local warren = require "warren"

-- The entries of a region list allowed at `depth` (their min_depth..max_depth holds it) and
-- passing `also`, if given.
local function allowed(list, depth, also)
  local out = {}
  for _, e in ipairs(list) do
    local deep_enough = depth >= (e.min_depth or 1)
    local shallow_enough = e.max_depth == nil or depth <= e.max_depth
    if deep_enough and shallow_enough and (also == nil or also(e)) then
      out[#out + 1] = e
    end
  end
  return out
end

-- Names (or another field) of the streamers of the given kinds.
local function streamer_field(streamers, field, kinds)
  local out = {}
  for _, s in ipairs(streamers) do
    if kinds[s.kind] then out[#out + 1] = s[field] end
  end
  return out
end

return {
  name = "dungeon",
  description = "Incursion-style levels: streamers, vaults, one room per panel, tunnels between "
    .. "panels, fix-up connectivity, and stairs that line up from level to level.",
  params = {
    width = {
      default = 0, min = 0, max = 4096,
      doc = "Level width; 0 uses [dungeon] level_width. Must be a multiple of panel_width.",
    },
    height = {
      default = 0, min = 0, max = 4096,
      doc = "Level height; 0 uses [dungeon] level_height. Must be a multiple of panel_height.",
    },
    connectivity = {
      default = "8", choices = { "8", "4" },
      doc = "How a walker moves: 8 (diagonals too, as Incursion) or 4; every passable cell is reachable from every other that way.",
    },
    stairs = {
      default = "rooms", choices = { "rooms", "anywhere" },
      doc = "Where down stairs go: in rooms, or anywhere on open floor (Incursion's rule: 43% land outside rooms on level 1, 24% on deeper levels).",
    },
  },

  generate = function(map, ctx)
    local d, regions, depth, p = ctx.regions.dungeon, ctx.regions, ctx.depth, ctx.params

    -- Step 1: rock inside the map's edge, cut into panels ([dungeon] sizes unless the width
    -- and height parameters say otherwise). The corridor regions, constants and doors go into a
    -- tunnel context that every tunnel of this level shares.
    local level = warren.dungeon.init_level(map, {
      width = p.width > 0 and p.width or nil,
      height = p.height > 0 and p.height or nil,
    })
    local tunnels = warren.tunnel.new(map)

    -- Step 2: streamers, by weight among those allowed at this depth; 4 in 10 repeat the one
    -- before ("second streamer same"). How many: drawn evenly from [dungeon] min_streamers to
    -- max_streamers, or with streamer_chance as Incursion counts them (the minimum, then one
    -- more for each success in a row). Chasms of the level above continue here.
    local rng = ctx.rng:stream("streamers")
    local streamers = allowed(regions.streamer, depth, function(s)
      if s.kind == "river" then return depth >= d.min_river_depth end
      if s.kind == "chasm" then return depth >= d.min_chasm_depth end
      return true
    end)
    local count
    if d.streamer_chance then
      count = d.min_streamers
      while count < d.max_streamers and rng:chance(d.streamer_chance) do count = count + 1 end
    else
      count = rng:int(d.min_streamers, d.max_streamers)
    end
    local last
    for _ = 1, count do
      local s = (last and rng:below(10) > 5) and last or rng:weighted(streamers)
      if not s then break end
      warren.dungeon.draw_streamer(map, rng, s)
      last = s
    end
    if ctx.above then
      warren.dungeon.carry_chasms(map, ctx.above, {
        chasms = streamer_field(regions.streamer, "name", { chasm = true }),
        narrow = rng:chance(d.reduce_chasm_chance),
      })
    end
    map:snapshot("streamers")

    -- Step 3: vaults, each in a block of panels of its own, never over the cells where the
    -- level above has its down stairs.
    rng = ctx.rng:stream("vaults")
    local vaults = allowed(regions.vault, depth)
    for _ = 1, d.max_vaults do
      if rng:chance(d.vault_chance) then
        local vault = rng:weighted(vaults)
        if vault then warren.dungeon.place_vault(map, rng, level, vault, { above = ctx.above }) end
      end
    end
    map:snapshot("vaults")

    -- Step 4: a room in every panel no vault took, its region chosen by weight among those
    -- allowed at this depth, its size within [dungeon]'s room_* limits; mazes deeper than 3 get
    -- secret doors (warren.dungeon.draw_room draws a single one, for recipes that choose panel
    -- by panel).
    warren.dungeon.draw_rooms(map, ctx.rng:stream("rooms"), level, allowed(regions.room, depth),
      { depth = depth })
    map:snapshot("rooms")

    -- Step 5: a tunnel between the closest edge cells of every two neighbouring panels.
    warren.dungeon.connect_panels(map, ctx.rng:stream("tunnels"), level, tunnels, {
      flags = { "direct", "wander" },
    })

    -- Up stairs exactly where the level above has its down stairs ([dungeon] up_stairs, in a
    -- pocket walled like the level's corridor region); the fix-up joins them.
    if ctx.above then
      warren.dungeon.place_up_stairs(map, ctx.above)
    end
    map:snapshot("tunnels")

    -- Step 5b: flood fill from the first passable cell and tunnel to every area it missed, until
    -- the level is one area for a walker moving the chosen way (an error naming the seed after
    -- [dungeon] fixup_trials trials). Chasms and magma are hazards: where they cut the level, a
    -- bridge.
    local report = tunnels:fixup(map, ctx.rng:stream("fixup"), {
      connectivity = p.connectivity, bridge = d.bridge,
    })
    ctx.metric("areas_before_fixup", report.areas_before)
    ctx.metric("fixup_tunnels", #report.tunnels)
    map:snapshot("fix-up")

    -- Step 6: down stairs on dry open floor (in rooms, or anywhere as Incursion does), no two
    -- in the same room while another is free.
    -- (rng:int includes max_stairs; Incursion's MIN + random(MAX - MIN) never reaches it.)
    rng = ctx.rng:stream("stairs")
    warren.dungeon.place_down_stairs(map, rng, {
      count = rng:int(d.min_stairs, d.max_stairs),
      avoid = streamer_field(regions.streamer, "terrain", { river = true, chasm = true, lava = true }),
      place = p.stairs,
    })
    map:snapshot("stairs")

    -- Last, Incursion's door pass: doors not between two walls (or touching another door)
    -- become broken doorways, the rest are closed, open, locked or secret by the [[door]]
    -- weights, no secret door stays near the up stairs of a shallow level, and every door is
    -- drawn in its state.
    warren.dungeon.finish_doors(map, ctx.rng:stream("doors"), {
      depth = depth,
      reveal_depth = d.secret_door_reveal_depth,
      reveal_radius = d.secret_door_reveal_radius,
    })
  end,
}
