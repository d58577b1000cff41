-- hostile corpus: __index loop chain
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local t = {} setmetatable(t, { __index = t }) local _ = t.x
end }
