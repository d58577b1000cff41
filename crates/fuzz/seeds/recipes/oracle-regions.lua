-- Oracle seed (regions beside a recipe): the part after the --@regions line is a region file
-- loaded beside the shipped ones, read by the recipe through ctx.regions.
return {
  name = "with-regions",
  params = { width = { default = 24, min = 16 }, height = { default = 16, min = 16 } },
  generate = function(map, ctx)
    map:fill("rock wall")
    local t = ctx.regions.terrain
    map:set(2, 2, "fuzzed floor")
    map:tag("terrains", #t)
  end,
}
--@regions
[[terrain]]
name = "fuzzed floor"
glyph = "_"
color = "#123456"
solid = false
