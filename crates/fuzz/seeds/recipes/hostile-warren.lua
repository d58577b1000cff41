-- hostile corpus: warren
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
warren.gen.fill = print
end }
