-- hostile corpus: plain find
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local s = ('a'):rep(1 << 20) string.find(s, ('a'):rep(1 << 16) .. 'b', 1, true)
end }
