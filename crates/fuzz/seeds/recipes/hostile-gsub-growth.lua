-- hostile corpus: gsub growth
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local s = ('x'):rep(1 << 20) local t = s:gsub('x', ('y'):rep(64))
end }
