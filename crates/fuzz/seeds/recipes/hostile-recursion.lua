-- hostile corpus: recursion
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local function r(n) return r(n + 1) + 1 end while true do pcall(r, 1) end
end }
