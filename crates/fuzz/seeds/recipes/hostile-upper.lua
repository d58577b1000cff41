-- hostile corpus: upper
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local s = ('x'):rep(4 << 20) while true do local _ = s:upper() end
end }
