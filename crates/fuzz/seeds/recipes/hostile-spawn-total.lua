-- hostile corpus: spawn total
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
warren.gen.spawn_in_corridors(map, ctx.rng, { table = { { name = 'a', weight = 1.7e308 }, { name = 'b', weight = 1.7e308 } } })
end }
