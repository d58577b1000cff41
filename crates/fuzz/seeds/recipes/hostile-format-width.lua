-- hostile corpus: format width
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
string.format('%99999d', 1)
end }
