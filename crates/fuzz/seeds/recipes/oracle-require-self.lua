-- Oracle seed (every stop within budget + 100 ms): the recipe requires itself, a require cycle
-- through the C boundary that must stop within the clock budget.
local me = require "fuzz"
return {
  name = "cycle",
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx) map:fill("floor") end,
}
