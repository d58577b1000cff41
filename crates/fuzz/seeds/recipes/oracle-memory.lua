-- Oracle seed (memory): Rust-side lists kept by the thousand, then a big string; the account
-- must stop the run at its line with the process's peak within the limit + 48 MiB.
local warren = require "warren"
return {
  name = "memory",
  params = { width = { default = 64, min = 16 }, height = { default = 48, min = 16 } },
  generate = function(map, ctx)
    map:fill("rock wall")
    local kept = {}
    for i = 1, 100000 do
      kept[i] = warren.gen.scatter_rooms(map, ctx.rng, { attempts = 20 })
    end
    local s = string.rep("x", 1 << 24)
    map:tag("n", #kept + #s)
  end,
}
