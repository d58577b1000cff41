-- hostile corpus: weighted key total
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
ctx.rng:weighted({ { w = 1e308 }, { w = 0 }, { w = 1e308 } }, 'w')
end }
