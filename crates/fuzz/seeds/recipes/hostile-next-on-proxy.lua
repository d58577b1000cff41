-- hostile corpus: next on proxy
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
assert(next(string) == nil) error('done')
end }
