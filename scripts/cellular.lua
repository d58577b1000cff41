-- A cellular automaton cave (RogueBasin's "Cellular Automata Method"): fill the map with
-- random rock, let the rule B5678/S45678 smooth it into caverns, keep the largest cavern, and
-- put the stairs at its distant exit.
local warren = require "warren"
local toolbox = warren.toolbox

return {
  name = "cellular",
  description = "A cellular automaton cave: random fill, a birth/survival rule, one cavern kept, stairs at the far end.",
  params = {
    width = { default = 80, min = 8, max = 4096, doc = "Map width in cells." },
    height = { default = 50, min = 8, max = 4096, doc = "Map height in cells." },
    fill = { default = 45, min = 0, max = 100, doc = "Percent of cells that start as rock." },
    rule = { default = "B5678/S45678", doc = "Birth/survival rule (B: neighbour counts that make rock, S: that keep it)." },
    generations = { default = 4, min = 0, max = 50, doc = "How many times the rule runs." },
  },

  generate = function(map, ctx)
    local p, cave = ctx.params, ctx.regions.cave
    map:fill(cave.wall)
    -- 1. Random fill, then the rule, inside the map's edge.
    local inside = warren.rect(1, 1, map.width - 2, map.height - 2)
    toolbox.cave(map, ctx.rng:stream("cave"), {
      wall = cave.wall, floor = cave.floor, fill = p.fill,
      rule = p.rule, generations = p.generations, rect = inside,
    })
    -- 2. Keep the largest cavern: the others become rock.
    local largest = nil
    for _, c in ipairs(map:components()) do
      if not largest or c.size > largest.size then largest = c end
    end
    if not largest then return end
    local start = { x = largest.x, y = largest.y }
    toolbox.cull(map, { start }, { terrain = cave.wall })
    -- 3. The entrance where the cavern begins, the exit as far from it as a walker can get.
    local ex, ey = toolbox.farthest(map, start)
    map:set(start.x, start.y, cave.entrance)
    map:add_stair(start.x, start.y, "up")
    map:set(ex, ey, cave.exit)
    map:add_stair(ex, ey, "down")
  end,
}
