-- Bulk map access, measured: a Lua grid handed over row by row (set_row) and whole (blit), then read back (get_rect).
return {
  name = "bulk",
  params = { width = { default = 1024, min = 16, max = 4096 }, height = { default = 1024, min = 16, max = 4096 } },
  generate = function(map, ctx)
    local w, h = map.width, map.height
    local row = {}
    for x = 1, w do row[x] = (x % 3 == 0) and "floor" or "rock" end
    ctx.phase("prepare")
    for y = 0, h - 1 do map:set_row(0, y, row) end
    ctx.phase("set_row")
    local lines = {}
    local line = string.rep("#.", w // 2)
    for y = 1, h do lines[y] = line end
    ctx.phase("prepare blit")
    map:blit(0, 0, lines, { legend = { ["#"] = "rock", ["."] = "floor" } })
    ctx.phase("blit")
    local got = map:get_rect({ x = 0, y = 0, w = w, h = h })
    ctx.phase("get_rect")
  end,
}
