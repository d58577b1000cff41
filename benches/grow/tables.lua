-- Large Lua tables, measured: each round grows an array to 1 M entries, a hash part to 256 k
-- keys and makes an 8 MiB string, so the Lua heap grows through blocks of 4 MiB and more, which
-- warren faults in itself, a MiB at a time with the clock looked at (docs/limits.md).
return {
  name = "tables",
  params = { width = { default = 16, min = 16 }, height = { default = 16, min = 16 } },
  generate = function(map, ctx)
    for round = 1, 3 do
      local cells = {}
      for i = 1, 1 << 20 do cells[i] = i end
      local names = {}
      for i = 1, 1 << 18 do names["c" .. i] = i end
      local text = string.rep("x", 8 << 20)
      ctx.phase("round " .. round)
    end
  end,
}
