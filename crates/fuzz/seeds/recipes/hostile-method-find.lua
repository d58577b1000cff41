-- hostile corpus: method find
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local s = ('a'):rep(30) s:find(('a-'):rep(30) .. 'b')
end }
