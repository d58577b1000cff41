-- hostile corpus: nested pcall
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
local function n(d) if d == 0 then while true do end end pcall(n, d - 1) end while true do n(150) end
end }
