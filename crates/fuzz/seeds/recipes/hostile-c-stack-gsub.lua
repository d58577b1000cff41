-- hostile corpus: C stack: gsub
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local function f(s) return (s:gsub('.', f)) end f('abc')
end }
