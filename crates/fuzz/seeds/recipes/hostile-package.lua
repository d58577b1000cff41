-- hostile corpus: package
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local _ = package.loaded
end }
