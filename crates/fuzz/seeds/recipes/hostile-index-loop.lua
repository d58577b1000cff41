-- hostile corpus: __index loop
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local t = setmetatable({}, { __index = function() while true do end end }) local _ = t.x
end }
