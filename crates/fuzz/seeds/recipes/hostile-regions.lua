-- hostile corpus: regions
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
ctx.regions.rooms.floor = 'lava'
end }
