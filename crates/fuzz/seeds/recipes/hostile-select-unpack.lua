-- hostile corpus: select unpack
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
select('#', table.unpack({}, 1, 1e8))
end }
