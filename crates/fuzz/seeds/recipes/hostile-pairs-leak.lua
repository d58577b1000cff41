-- hostile corpus: pairs leak
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local _, t = pairs(string) t.find = nil
end }
