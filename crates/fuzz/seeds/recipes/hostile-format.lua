-- hostile corpus: format
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local s = ('x'):rep(10 << 20) local t = ('%s%s'):format(s, s)
end }
