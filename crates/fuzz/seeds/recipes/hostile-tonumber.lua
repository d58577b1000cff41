-- hostile corpus: tonumber
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local s = ('1'):rep(15 << 20) while true do tonumber(s) end
end }
