-- hostile corpus: string.rep separator
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local s = string.rep('x', 1 << 30, ', ')
end }
