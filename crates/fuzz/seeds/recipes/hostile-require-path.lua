-- hostile corpus: require path
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
require('../secret')
end }
