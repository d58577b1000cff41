-- A recipe using every kind of parameter declaration.
local warren = require "warren"
return {
  name = "shapes",
  description = "every kind of parameter",
  params = {
    width = { default = 24, min = 16, max = 4096, doc = "Map width in cells." },
    height = { default = 16, min = 16, max = 4096, doc = "Map height in cells." },
    corridors = { default = "nearest", choices = { "nearest", "lines", "dogleg", "bsp" } },
    ratio = { default = 0.5, min = 0, max = 1 },
    spawns = { default = true },
  },
  generate = function(map, ctx)
    map:fill(ctx.regions.rooms.wall)
    local rooms = warren.gen.scatter_rooms(map, ctx.rng:stream("rooms"), { attempts = 10 })
    map:carve_rooms(rooms, ctx.regions.rooms.floor)
    warren.gen.connect_rooms(map, ctx.rng, rooms, { terrain = "floor", style = ctx.params.corridors })
    local pick = ctx.rng:weighted(ctx.regions.spawn)
    if pick and ctx.params.spawns then map:add_spawn(1, 1, pick.name) end
    map:add_layer("marks", { rows = { "!" }, colors = { ["!"] = "#ff0000" } })
    map:snapshot("done")
    ctx.metric("rooms", #rooms)
  end,
}
