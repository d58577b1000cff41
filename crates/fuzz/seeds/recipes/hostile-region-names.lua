-- hostile corpus: region names
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
for i = 1, 1e9 do map:set(1, 1, 'floor', { region = 'r' .. i }) end
end }
