-- hostile corpus: empty rep
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
assert(string.rep('', 1 << 62) == '') error('done')
end }
