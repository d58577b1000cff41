-- hostile corpus: C stack: coroutines
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local function nest() return coroutine.wrap(nest)() end nest()
end }
