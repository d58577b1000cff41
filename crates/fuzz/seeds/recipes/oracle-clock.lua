-- Oracle seed (run == batch): the clocks a recipe reads go into its map, so a clock that starts
-- differently in a fresh host and a reused one gives a different map.
return {
  name = "clock",
  params = { width = { default = 32, min = 16 }, height = { default = 16, min = 16 } },
  generate = function(map, ctx)
    map:fill("rock wall")
    local spent = 0
    while os.clock() < 0.001 do spent = spent + 1 end
    for x = 1, math.min(spent % 30 + 1, map.width - 2) do map:set(x, 1, "floor") end
    map:tag("clock", tostring(os.clock()))
    map:tag("time", tostring(os.time()))
    map:tag("table", tostring({}))
  end,
}
