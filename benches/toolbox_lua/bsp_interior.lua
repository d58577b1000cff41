-- BSP interior in pure Lua: cut the map's inside in two, a one-cell wall between the halves,
-- until no side is at least twice 6 cells and a wall long; every piece is a room; one door
-- through each cut's wall where both sides are room floor.
local common = require "common"

local MIN_ROOM = 6

-- Cuts the piece (x, y, w, h), marking its rooms open; returns the cut tree.
local function cut(x, y, w, h, open)
  local can_x, can_y = w >= 2 * MIN_ROOM + 1, h >= 2 * MIN_ROOM + 1
  if not can_x and not can_y then
    for yy = y, y + h - 1 do
      local row = open[yy + 1]
      for xx = x, x + w - 1 do row[xx + 1] = true end
    end
    return nil
  end
  local vertical
  if can_x and not can_y then vertical = true
  elseif can_y and not can_x then vertical = false
  elseif w * 4 > h * 5 then vertical = true
  elseif h * 4 > w * 5 then vertical = false
  else vertical = math.random(2) == 1 end
  local node = { x = x, y = y, w = w, h = h, vertical = vertical }
  if vertical then
    local at = x + math.random(MIN_ROOM, w - MIN_ROOM - 1)
    node.at = at
    node.a = cut(x, y, at - x, h, open)
    node.b = cut(at + 1, y, x + w - at - 1, h, open)
  else
    local at = y + math.random(MIN_ROOM, h - MIN_ROOM - 1)
    node.at = at
    node.a = cut(x, y, w, at - y, open)
    node.b = cut(x, at + 1, w, y + h - at - 1, open)
  end
  return node
end

-- One door through every cut's wall, between two floor cells.
local function doors(node, open)
  if not node then return end
  local at, candidates = node.at, {}
  if node.vertical then
    for y = node.y, node.y + node.h - 1 do
      local row = open[y + 1]
      if row[at] and row[at + 2] then candidates[#candidates + 1] = y end
    end
    open[candidates[math.random(#candidates)] + 1][at + 1] = true
  else
    local above, below = open[at], open[at + 2]
    for x = node.x, node.x + node.w - 1 do
      if above[x + 1] and below[x + 1] then candidates[#candidates + 1] = x end
    end
    open[at + 1][candidates[math.random(#candidates)] + 1] = true
  end
  doors(node.a, open)
  doors(node.b, open)
end

return {
  name = "pure-lua bsp interior",
  params = common.params,
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    local open = common.grid(w, h, false)
    doors(cut(1, 1, w - 2, h - 2, open), open)
    common.write(map, open, w, h)
  end,
}
