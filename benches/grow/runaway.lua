-- A runaway recipe, measured: closures kept in a table until the clock runs out. Its table's
-- array grows through blocks of hundreds of MiB, whose first use no budget point interrupts
-- unless warren faults them in itself (docs/limits.md). Run it with `--max-seconds 2`.
return {
  name = "runaway",
  params = { width = { default = 16, min = 16 }, height = { default = 16, min = 16 } },
  generate = function(map)
    local kept = {}
    for i = 1, 1e9 do kept[i] = function() return i end end
  end,
}
