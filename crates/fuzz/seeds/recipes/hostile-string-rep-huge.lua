-- hostile corpus: string.rep huge
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local s = string.rep('x', 1 << 40)
end }
