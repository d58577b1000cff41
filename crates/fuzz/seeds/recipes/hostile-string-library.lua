-- hostile corpus: string library
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
string.find = nil
end }
