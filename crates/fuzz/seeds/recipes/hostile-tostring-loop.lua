-- hostile corpus: __tostring loop
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
tostring(setmetatable({}, { __tostring = function() while true do end end }))
end }
