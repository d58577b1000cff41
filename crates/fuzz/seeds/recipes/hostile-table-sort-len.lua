-- hostile corpus: table.sort __len
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local t = setmetatable({}, { __len = function() return (1 << 31) - 2 end, __index = rawlen, __newindex = function() end }) table.sort(t)
end }
