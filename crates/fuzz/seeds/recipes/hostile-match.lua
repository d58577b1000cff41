-- hostile corpus: match
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
string.match(('a'):rep(30), ('a-'):rep(30) .. 'b')
end }
