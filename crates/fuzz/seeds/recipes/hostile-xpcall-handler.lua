-- hostile corpus: xpcall handler
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
xpcall(error, function() while true do end end)
end }
