-- String building: rows rendered with table.concat, string.format, gsub and rep.
return function(n)
  n = n or 3000
  local total = 0
  for i = 1, n do
    local parts = {}
    for j = 1, 40 do
      parts[j] = string.format("%d:%s", (i * j) % 97, ("#"):rep(j % 7))
    end
    local row = table.concat(parts, ",")
    local dots = row:gsub("#", ".")
    local words = 0
    for _ in dots:gmatch("[^,]+") do words = words + 1 end
    total = total + #dots + words + (row:find("5:", 1, true) or 0)
  end
  return total
end
