-- hostile corpus: numeric for
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
for i = 1, math.huge do end
end }
