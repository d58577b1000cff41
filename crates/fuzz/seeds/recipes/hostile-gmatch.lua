-- hostile corpus: gmatch
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
for _ in (('a'):rep(30)):gmatch(('a-'):rep(30) .. 'b') do end
end }
