-- hostile corpus: load depth
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
assert(load('return ' .. ('{'):rep(1000) .. ('}'):rep(1000)))
end }
