-- A runaway recipe, measured: fields of a 4096² map (64 MiB each) kept until the clock runs out.
-- Each is Rust-side data whose first use (its page faults) no budget point interrupts: a field
-- is refused as over time when it could not be put to use in the time left (docs/limits.md).
-- Run it with `--max-seconds 2 --max-memory 4096`.
return {
  name = "fields",
  params = { width = { default = 4096, min = 16 }, height = { default = 4096, min = 16 } },
  generate = function(map)
    local kept = {}
    for i = 1, 1e9 do kept[i] = warren.toolbox.field(map, i) end
  end,
}
