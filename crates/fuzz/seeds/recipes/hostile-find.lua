-- hostile corpus: find
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
string.find(('a'):rep(30), ('a-'):rep(30) .. 'b')
end }
