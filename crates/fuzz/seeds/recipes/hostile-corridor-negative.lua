-- hostile corpus: corridor negative
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
warren.tunnel.new(map, { dungeon = {}, corridor = { { name = 'a', weight = -1, floor = 'floor', walls = 'rock wall', door = 'door' } } }, {})
end }
