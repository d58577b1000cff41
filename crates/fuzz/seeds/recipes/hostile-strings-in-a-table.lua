-- hostile corpus: strings in a table
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local t, s = {}, ('x'):rep(1 << 20) for i = 1, 1e6 do t[i] = s .. i end
end }
