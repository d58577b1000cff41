-- A digger with a wall list: pick a random wall next to the dug area, dig it, add its
-- neighbours; walls are removed with table.remove (swap-free, as many libraries do).
return function(w, h)
  w, h = w or 120, h or 80
  local seed = 777
  local function rand(n)
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n + 1
  end
  local dug, walls, inlist = {}, {}, {}
  local function key(x, y) return y * 1000 + x end
  local function add(x, y)
    if x > 1 and y > 1 and x < w and y < h then
      local k = key(x, y)
      if not dug[k] and not inlist[k] then
        inlist[k] = true
        table.insert(walls, { x, y })
      end
    end
  end
  local sx, sy = w // 2, h // 2
  dug[key(sx, sy)] = true
  add(sx + 1, sy) add(sx - 1, sy) add(sx, sy + 1) add(sx, sy - 1)
  local target, count = (w * h) // 3, 1
  while count < target and #walls > 0 do
    local i = rand(#walls)
    local c = table.remove(walls, i)
    local x, y = c[1], c[2]
    inlist[key(x, y)] = nil
    dug[key(x, y)] = true
    count = count + 1
    add(x + 1, y) add(x - 1, y) add(x, y + 1) add(x, y - 1)
  end
  return count + #walls
end
