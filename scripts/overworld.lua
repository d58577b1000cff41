-- A noise overworld: fractal Perlin noise as a height map, cut into sea, grass, hills and
-- mountains at fixed heights; then rivers, each found by a distance field: every cell's
-- cheapest walk to the sea (hills and mountains cost more to cross, by their `move_cost` in
-- regions/overworld.toml), walked downhill from a spring in the hills.
local warren = require "warren"
local toolbox = warren.toolbox

-- Terrains (regions/terrain.toml and regions/overworld.toml).
local SEA, GRASS, HILLS, MOUNTAIN = "water", "grass", "hills", "mountain"

return {
  name = "overworld",
  description = "A noise overworld: sea, grass, hills and mountains from a height map, with rivers running down to the sea.",
  params = {
    width = { default = 96, min = 16, max = 4096, doc = "Map width in cells." },
    height = { default = 64, min = 16, max = 4096, doc = "Map height in cells." },
    scale = { default = 24, min = 2, max = 1024, doc = "Size of a landmass's features, in cells." },
    octaves = { default = 5, min = 1, max = 12, doc = "Octaves of noise summed (more: rougher coasts)." },
    sea_level = { default = 0.45, min = 0, max = 1, doc = "Heights below this are sea (heights span 0..1)." },
    hills = { default = 0.62, min = 0, max = 1, doc = "Heights from this up are hills." },
    mountains = { default = 0.76, min = 0, max = 1, doc = "Heights from this up are mountains." },
    rivers = { default = 6, min = 0, max = 100, doc = "Springs to try; each river runs from one down to the sea." },
  },

  generate = function(map, ctx)
    local p = ctx.params
    -- 1. The height map: fractal noise, stretched over 0..1.
    local height = toolbox.noise(map, ctx.rng:stream("height"), {
      kind = "perlin", frequency = 1 / p.scale, octaves = p.octaves,
    })
    height:normalize()
    -- 2. Bands of height become terrain.
    local function band(lo, hi, terrain)
      height:threshold(map, lo, hi, { terrain = terrain, force = true })
    end
    band(-math.huge, p.sea_level, SEA)
    band(p.sea_level, p.hills, GRASS)
    band(p.hills, p.mountains, HILLS)
    band(p.mountains, math.huge, MOUNTAIN)
    -- 3. How far every cell is from the sea, walking (hills and mountains cost more).
    local sea = height:mask(-math.huge, p.sea_level)
    if not sea:range() or select(2, sea:range()) == 0 then return end
    local to_sea = toolbox.distance(map, nil, { source_mask = sea, connectivity = "4" })
    to_sea:show(map, "to_sea")
    -- 4. Rivers: from springs in the hills, down the distance field to the sea.
    local rng = ctx.rng:stream("rivers")
    local flowing = 0
    for _ = 1, p.rivers do
      local x, y = rng:int(0, map.width - 1), rng:int(0, map.height - 1)
      if map:get(x, y) == HILLS then
        local river = toolbox.descend(to_sea, { x = x, y = y }, { connectivity = "4" })
        if river then
          for _, c in ipairs(river) do map:set(c.x, c.y, SEA, { force = true }) end
          flowing = flowing + 1
        end
      end
    end
    map:tag("rivers", flowing)
  end,
}
