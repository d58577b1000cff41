-- hostile corpus: balanced
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local s = ('('):rep(1 << 20) for i = 1, 1e6 do s:find('%b()') end
end }
