-- hostile corpus: load <close>
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
assert(load('local x <close> = nil'))
end }
