-- hostile corpus: require absolute
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
require('/etc/passwd')
end }
