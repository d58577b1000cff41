-- Oracle seed (run == batch): state kept between runs in upvalues, globals and library tables
-- must be put back, or the host loaded again, before the next map.
local made = 0
local seen = {}
counter = 0
return {
  name = "state",
  params = { width = { default = 24, min = 16 }, height = { default = 16, min = 16 } },
  generate = function(map, ctx)
    made = made + 1
    counter = counter + 1
    seen[#seen + 1] = ctx.rng:int(1, 100)
    string.extra = (string.extra or 0) + 1
    map:fill("rock wall")
    for i = 1, made + counter + string.extra do map:set(i, 2, "floor") end
    map:tag("seen", table.concat(seen, ","))
    map:add_layer("made", { rows = { ("!"):rep(made) } })
  end,
}
