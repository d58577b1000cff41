-- hostile corpus: rect metatable
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
warren.rect(1, 1, 1, 1).__index.center = nil
end }
