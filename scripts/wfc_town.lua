-- A town by wave function collapse (Maxim Gumin's overlapping model): take every 3×3 window of
-- a small sample map of houses and streets (`[[sample]] "town houses"` in regions/samples.toml),
-- then fill the map so that each of its 3×3 windows is one of them, choosing the least
-- certain cell first.
local warren = require "warren"

return {
  name = "wfc_town",
  description = "A town of houses and streets by wave function collapse from a sample in regions/samples.toml.",
  params = {
    width = { default = 64, min = 8, max = 512, doc = "Map width in cells." },
    height = { default = 40, min = 8, max = 512, doc = "Map height in cells." },
    sample = { default = "town houses", doc = "The [[sample]] of the region files to copy." },
    n = { default = 3, min = 2, max = 3, doc = "Window side: 3 copies whole walls and doors, 2 only their edges." },
    rotate = { default = false, doc = "Also use the sample's windows turned." },
    reflect = { default = true, doc = "Also use the sample's windows mirrored." },
  },

  generate = function(map, ctx)
    local p = ctx.params
    map:fill("town wall")
    local inside = warren.rect(1, 1, map.width - 2, map.height - 2)
    local town = warren.toolbox.wfc(map, ctx.rng:stream("wfc"), {
      sample = p.sample, n = p.n, rotate = p.rotate, reflect = p.reflect, rect = inside,
    })
    map:tag("attempts", town.attempts)
  end,
}
