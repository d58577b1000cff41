-- Thirty calls of a method that does almost nothing (`map:snapshot`, which keeps no copy
-- outside --frames): what one call from Lua into the host costs, less empty.lua, divided by 30
-- (benches/interpreter_floor/run.sh).
return {
  name = "snapshots",
  description = "Thirty map:snapshot calls: what one call into the host costs.",
  params = {
    width = { default = 80, min = 16, max = 80, doc = "Map width in cells." },
    height = { default = 50, min = 16, max = 50, doc = "Map height in cells." },
  },
  generate = function(map, ctx)
    for _ = 1, 30 do map:snapshot("rooms") end
  end,
}
