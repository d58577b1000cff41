-- hostile corpus: room total
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local level = warren.dungeon.init_level(map, { width = 16, height = 16, panel_width = 16, panel_height = 16 }) local r = { name = 'a', weight = 1.7e308, kind = 'normal', floor = 'floor', wall = 'rock wall', door = 'door' } warren.dungeon.draw_rooms(map, ctx.rng, level, { r, r }, { min_width = 4, max_width = 8, min_height = 4, max_height = 8 })
end }
