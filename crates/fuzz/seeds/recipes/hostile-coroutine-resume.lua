-- hostile corpus: coroutine.resume
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local co = coroutine.create(function() while true do end end) while true do coroutine.resume(co) end
end }
