-- hostile corpus: map metatable
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
getmetatable(map).__index = nil
end }
