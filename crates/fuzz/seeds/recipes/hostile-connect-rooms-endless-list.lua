-- hostile corpus: connect_rooms endless list
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
warren.gen.connect_rooms(map, ctx.rng, setmetatable({}, { __index = function() return { x = 1, y = 1, w = 1, h = 1 } end }), { terrain = 'floor' })
end }
