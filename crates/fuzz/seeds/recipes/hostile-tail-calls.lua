-- hostile corpus: tail calls
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local function f() return f() end f()
end }
