-- hostile corpus: load reader
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
assert(load(function() return ('x'):rep(1000) end))
end }
