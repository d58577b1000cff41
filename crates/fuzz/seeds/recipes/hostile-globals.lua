-- hostile corpus: globals
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
_G.x = 1
end }
