-- hostile corpus: os
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
os.exit(1)
end }
