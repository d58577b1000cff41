-- hostile corpus: shuffle read-only
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
ctx.rng:shuffle(ctx.regions.spawn)
end }
