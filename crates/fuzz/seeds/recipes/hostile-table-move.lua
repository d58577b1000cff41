-- hostile corpus: table.move
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
table.move({}, 1, 1 << 50, 2)
end }
