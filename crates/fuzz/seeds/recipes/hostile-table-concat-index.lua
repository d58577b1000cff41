-- hostile corpus: table.concat __index
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local t = setmetatable({}, { __index = rawlen }) table.concat(t, '', 1, 1 << 50)
end }
