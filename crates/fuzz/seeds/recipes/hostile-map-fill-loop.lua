-- hostile corpus: map:fill loop
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
while true do map:fill('floor') end
end }
