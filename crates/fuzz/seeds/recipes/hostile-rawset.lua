-- hostile corpus: rawset
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
rawset(_G, 'x', 1)
end }
