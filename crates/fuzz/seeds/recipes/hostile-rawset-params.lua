-- hostile corpus: rawset on ctx.params (kept between runs)
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
rawset(ctx.params, 'width', 1)
end }
