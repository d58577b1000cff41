-- hostile corpus: table.sort comparator
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local t = {} for i = 1, 100 do t[i] = i end table.sort(t, function() while true do end end)
end }
