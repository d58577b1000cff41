-- hostile corpus: corridor total
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local c = { name = 'a', weight = 1.7e308, floor = 'floor', walls = 'rock wall', door = 'door' } warren.tunnel.new(map, { dungeon = {}, corridor = { c, { name = 'b', weight = 1.7e308, floor = 'floor', walls = 'rock wall', door = 'door' } } }, {})
end }
