-- The rot library's generators as a warren recipe: the library hands every cell over through a
-- callback. With `write = "set"` (the default) the callback writes each cell with `map:set`;
-- with `write = "blit"` it stores the cell in a grid of rows, as a game stores cells in its own
-- array, and the recipe writes the grid with one `map:blit`; with `write = "none"` it does
-- nothing: the library's own time, every cell handed to Lua and none to the map. With
-- `rng = "module"` (the default, as most games use such a library) every map writes to the
-- library's module table, so every map ends with a reset; with `rng = "own"` it writes to
-- nothing the loading made.
local generators = require "generators"
local FORCE = { force = true }
return {
  name = "rot",
  description = "rot.js-style generators from a Lua library, cell by cell.",
  params = {
    width = { default = 80, min = 8, max = 1024 },
    height = { default = 50, min = 8, max = 1024 },
    gen = { default = "digger", choices = generators.names },
    rng = { default = "module", choices = { "module", "own" } },
    write = { default = "set", choices = { "set", "blit", "none" } },
  },
  generate = function(map, ctx)
    local p = ctx.params
    if p.write == "set" then
      generators.make(p.gen, map.width, map.height, ctx.seed + 1, p.rng, function(x, y, value)
        map:set(x, y, value == 0 and "floor" or "rock wall", FORCE)
      end)
      return
    end
    if p.write == "none" then
      generators.make(p.gen, map.width, map.height, ctx.seed + 1, p.rng, function() end)
      return
    end
    local rows = {}
    for y = 1, map.height do rows[y] = {} end
    generators.make(p.gen, map.width, map.height, ctx.seed + 1, p.rng, function(x, y, value)
      rows[y + 1][x + 1] = value == 0 and "floor" or "rock wall"
    end)
    map:blit(0, 0, rows, FORCE)
  end,
}
