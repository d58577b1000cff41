-- hostile corpus: unpack range
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
table.unpack({}, 1, 1e8)
end }
