-- hostile corpus: table growth
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local t = {} local i = 0 while true do i = i + 1 t[i] = { i } end
end }
