-- hostile corpus: xpcall
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
while true do xpcall(function() while true do end end, function(e) return e end) end
end }
