-- hostile corpus: rng:pick endless list
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
ctx.rng:pick(setmetatable({}, { __index = rawlen }))
end }
