-- hostile corpus: C stack: __tostring
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local t t = setmetatable({}, { __tostring = function() return tostring(t) end }) tostring(t)
end }
