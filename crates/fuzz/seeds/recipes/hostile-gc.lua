-- hostile corpus: __gc
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
setmetatable({}, { __gc = function() end })
end }
