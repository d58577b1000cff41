-- hostile corpus: coroutine.wrap
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local f = coroutine.wrap(function() while true do end end) while true do pcall(f) end
end }
