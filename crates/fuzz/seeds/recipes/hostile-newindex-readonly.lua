-- hostile corpus: a __newindex chain into a read-only table
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
setmetatable({}, { __newindex = warren.gen }).fill = print
end }
