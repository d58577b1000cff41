-- hostile corpus: while
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
while true do end
end }
