-- hostile corpus: string metatable
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
getmetatable('').__index = {}
end }
