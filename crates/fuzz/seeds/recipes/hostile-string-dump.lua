-- hostile corpus: string.dump
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
string.dump(print)
end }
