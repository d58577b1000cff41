-- hostile corpus: coroutine.close
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
while true do local co = coroutine.create(function() coroutine.yield() end) coroutine.resume(co) coroutine.close(co) end
end }
