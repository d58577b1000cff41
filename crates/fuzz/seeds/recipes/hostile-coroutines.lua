-- hostile corpus: coroutines
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local t = {} for i = 1, 1e8 do t[i] = coroutine.create(print) end
end }
