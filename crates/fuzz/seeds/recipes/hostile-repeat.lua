-- hostile corpus: repeat
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
repeat until false
end }
