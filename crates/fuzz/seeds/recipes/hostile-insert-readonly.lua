-- hostile corpus: table.insert into a read-only list
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
table.insert(ctx.regions.spawn, 1, 'x')
end }
