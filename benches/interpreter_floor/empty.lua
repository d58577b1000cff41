-- An empty generate: what entering a recipe costs (benches/interpreter_floor/run.sh).
return {
  name = "empty",
  description = "Nothing: what entering a recipe costs.",
  params = {
    width = { default = 80, min = 16, max = 80, doc = "Map width in cells." },
    height = { default = 50, min = 16, max = 50, doc = "Map height in cells." },
  },
  generate = function(map, ctx) end,
}
