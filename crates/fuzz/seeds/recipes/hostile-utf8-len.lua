-- hostile corpus: utf8.len
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local s = ('x'):rep(15 << 20) while true do utf8.len(s) end
end }
