-- hostile corpus: io
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local _ = io.open
end }
