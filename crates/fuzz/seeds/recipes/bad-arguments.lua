-- Bindings called with arguments of the wrong type (each refused at its line).
return { params = { width = { default = 16 }, height = { default = 16 } },
generate = function(map, ctx)
  pcall(ctx.rng.pick, ctx.rng, 5)
  pcall(warren.town.new, 5)
  pcall(map.add_layer, map, 1, 2)
  pcall(ctx.metric, {}, 1)
  pcall(warren.status_lists, { cells = -1, statuses = {} })
  ctx.rng:weighted("x")
end }
