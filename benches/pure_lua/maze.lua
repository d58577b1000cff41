-- A maze by recursive backtracking whose cells keep their open sides in small hash tables,
-- visited with pairs.
return function(w, h)
  w, h = w or 60, h or 60
  local seed = 4242
  local function rand(n)
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n + 1
  end
  local cells = {}
  for y = 1, h do
    for x = 1, w do cells[y * 1000 + x] = { x = x, y = y, open = {} } end
  end
  local dirs = { n = { 0, -1, "s" }, s = { 0, 1, "n" }, e = { 1, 0, "w" }, w = { -1, 0, "e" } }
  local stack, seen = { cells[1001] }, { [cells[1001]] = true }
  while #stack > 0 do
    local c = stack[#stack]
    local options = {}
    for name, d in pairs(dirs) do
      local n = cells[(c.y + d[2]) * 1000 + c.x + d[1]]
      if n and not seen[n] then options[#options + 1] = { name, n, d[3] } end
    end
    table.sort(options, function(a, b) return a[1] < b[1] end)
    if #options == 0 then
      stack[#stack] = nil
    else
      local o = options[rand(#options)]
      c.open[o[1]] = true
      o[2].open[o[3]] = true
      seen[o[2]] = true
      stack[#stack + 1] = o[2]
    end
  end
  local total = 0
  for _ = 1, 20 do
    for _, c in pairs(cells) do
      for side in pairs(c.open) do total = total + #side end
    end
  end
  return total
end
