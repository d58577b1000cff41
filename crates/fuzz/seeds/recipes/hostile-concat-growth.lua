-- hostile corpus: concat growth
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local t = {} for i = 1, 64 do t[i] = ('x'):rep(1 << 20) end local s = table.concat(t)
end }
