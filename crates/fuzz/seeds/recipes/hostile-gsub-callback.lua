-- hostile corpus: gsub callback
return { name = 't', params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
string.gsub('abc', '%w', function() while true do end end)
end }
