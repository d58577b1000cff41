-- hostile corpus: star backtracking
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
string.find(('a'):rep(5000), ('a*'):rep(40) .. 'b')
end }
