-- hostile corpus: table.sort repeated
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local t = {} for i = 1, 1e5 do t[i] = -i end while true do table.sort(t) end
end }
