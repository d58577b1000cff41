-- hostile corpus: compare
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local a, b = ('x'):rep(8 << 20), ('x'):rep((8 << 20) - 1) .. 'y' while true do local _ = a < b end
end }
