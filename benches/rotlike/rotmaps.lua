-- The rot library's generators as a warren recipe: the library hands every cell over through a
-- callback, which writes it with `map:set`. With `rng = "module"` (the default, as most games
-- use such a library) every map writes to the library's module table, so every map ends with a
-- reset; with `rng = "own"` it writes to nothing the loading made.
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
  },
  generate = function(map, ctx)
    local p = ctx.params
    generators.make(p.gen, map.width, map.height, ctx.seed + 1, p.rng, function(x, y, value)
      map:set(x, y, value == 0 and "floor" or "rock wall", FORCE)
    end)
  end,
}
