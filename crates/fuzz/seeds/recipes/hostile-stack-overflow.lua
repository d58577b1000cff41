-- hostile corpus: stack overflow
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local function r() return 1 + r() end r()
end }
