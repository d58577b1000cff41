-- hostile corpus: doubling
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local s = 'x' while true do s = s .. s end
end }
