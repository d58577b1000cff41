-- hostile corpus: load bytecode
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
assert(load('\27Lua'))
end }
