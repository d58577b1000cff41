-- hostile corpus: load size
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
assert(load(('-'):rep(2 << 20)))
end }
