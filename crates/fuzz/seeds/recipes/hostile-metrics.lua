-- hostile corpus: metrics
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local s = ('x'):rep(1 << 16) for i = 1, 1e6 do ctx.metric(s .. i, 1) end
end }
