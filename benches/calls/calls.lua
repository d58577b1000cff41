-- The fixed costs of the host (`cargo bench --bench calls`): one operation repeated `n` times
-- inside `generate`, on the smallest map, so that the bench can subtract the empty loop.
return {
  name = "calls",
  description = "Repeats one host operation n times, for benches/calls.rs.",
  params = {
    width = { default = 16, min = 16, max = 16, doc = "Map width (the smallest map)." },
    height = { default = 16, min = 16, max = 16, doc = "Map height (the smallest map)." },
    mode = {
      default = "loop",
      choices = {
        "loop", "method", "get", "field", "table", "rng", "seed", "random", "rect", "set",
        "set_opts", "set_new_opts",
      },
      doc = "What to repeat: nothing, map:priority(1, 1), map:get(1, 1), map.width, a plain table's field, rng:int(1, 6), rng:seed() (a method without a fast path), math.random(1, 6), rect:center() (a method of a warren.rect table), map:set(x, y, t), map:set(x, y, t, opts) with one options table or with a new { force = true } each time.",
    },
    on = {
      default = "map",
      choices = { "map", "above" },
      doc = "The map the map methods are called on: the run's (their fast calls) or ctx.above (their declared bindings; the bench passes a level above).",
    },
    n = { default = 0, min = 0, max = 100000000, doc = "How many times." },
  },

  generate = function(map, ctx)
    local mode, n = ctx.params.mode, ctx.params.n
    -- Nothing to repeat: the bench's "entering a recipe" figure, a generate that does nothing.
    if n == 0 then return end
    local m = ctx.params.on == "above" and ctx.above or map
    if mode == "method" then
      for _ = 1, n do m:priority(1, 1) end
    elseif mode == "get" then
      for _ = 1, n do m:get(1, 1) end
    elseif mode == "field" then
      for _ = 1, n do local _ = map.width end
    elseif mode == "table" then
      local t = { width = 16 }
      for _ = 1, n do local _ = t.width end
    elseif mode == "rng" then
      local r = ctx.rng:stream("bench")
      for _ = 1, n do r:int(1, 6) end
    elseif mode == "random" then
      for _ = 1, n do math.random(1, 6) end
    elseif mode == "seed" then
      local r = ctx.rng:stream("bench")
      for _ = 1, n do r:seed() end
    elseif mode == "set" then
      for i = 1, n do m:set(i & 7, 1, "floor") end
    elseif mode == "set_opts" then
      local force = { force = true }
      for i = 1, n do map:set(i & 7, 0, "floor", force) end
    elseif mode == "set_new_opts" then
      for i = 1, n do map:set(i & 7, 0, "floor", { force = true }) end
    elseif mode == "rect" then
      local r = warren.rect(1, 2, 5, 7)
      for _ = 1, n do r:center() end
    else
      for _ = 1, n do end
    end
  end,
}
