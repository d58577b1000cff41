-- The directional cave recipe (seed 001): `lib/cave.lua` does the walking; this recipe adds
-- the seed's example by-row events, chosen with `--set row_event=…`.
local cave = require "lib.cave"

-- By-row events, as the seed suggests: pillars in the middle of wide rows, or a secret exit on
-- the left- or right-most wall.
local ROW_EVENTS = {
  none = nil,
  pillars = function(map, ctx, row)
    if row.width >= 7 and row.rng:chance(ctx.params.event_chance) then
      local x, y = row.rect:center()
      map:set(x, y, ctx.regions.cave.pillar)
    end
  end,
  secret_exit = function(map, ctx, row)
    if row.rng:chance(ctx.params.event_chance) then
      local r = row.rect
      local x, y = r.x, r.y
      if row.rng:chance(50) then x, y = r:x2(), r:y2() end
      map:add_spawn(x, y, "secret exit")
    end
  end,
}

local params = {}
for k, v in pairs(cave.params) do params[k] = v end
params.row_event = {
  default = "none",
  choices = { "none", "pillars", "secret_exit" },
  doc = "What may happen on each row.",
}
params.event_chance = { default = 5, min = 0, max = 100, doc = "Percent chance of the row event per row." }

return {
  name = "cave",
  description = "A directional cave: winding, roughly-edged passages from an entrance to an exit.",
  params = params,
  generate = function(map, ctx)
    cave.generate(map, ctx, { on_row = ROW_EVENTS[ctx.params.row_event] })
  end,
}
