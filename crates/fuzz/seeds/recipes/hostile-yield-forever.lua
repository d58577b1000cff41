-- hostile corpus: yield forever
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end
end }
