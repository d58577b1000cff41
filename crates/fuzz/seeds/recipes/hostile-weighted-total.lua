-- hostile corpus: weighted total
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
ctx.rng:weighted({ { weight = 1.7e308 }, { weight = 1.7e308 } })
end }
