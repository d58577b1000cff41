-- hostile corpus: print flood
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
while true do print('flood') end
end }
