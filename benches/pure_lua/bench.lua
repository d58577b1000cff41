-- The pure-Lua benchmark inside warren: runs workload `work` (a module of this directory) once
-- per map, with every budget on, and records its checksum. The workloads are loaded with the
-- recipe, as a library would be.
local works = {
  ca = require "ca", classes = require "classes", digger = require "digger", maze = require "maze",
  strings = require "strings",
}
return {
  name = "pure_lua",
  params = {
    width = { default = 16, min = 16 }, height = { default = 16, min = 16 },
    work = { default = "ca", choices = { "ca", "classes", "digger", "maze", "strings" } },
  },
  generate = function(map, ctx)
    map:tag("checksum", tostring(works[ctx.params.work]()))
  end,
}
