-- hostile corpus: load'ed loop
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
load('while true do end')()
end }
