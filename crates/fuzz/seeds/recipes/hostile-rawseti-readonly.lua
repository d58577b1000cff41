-- hostile corpus: rawset of a list item of a read-only table
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
rawset(ctx.regions.spawn, 1, false)
end }
