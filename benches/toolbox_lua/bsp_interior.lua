-- BSP interior in pure Lua: cut the map's inside in two, a one-cell wall between the halves,
-- and each half again; every piece is a room; one door through each cut's wall where both
-- sides are room floor. `split = "longer"` cuts across the longer side at a drawn place until no
-- side is at least twice `min_room` cells and a wall long; `split = "halves"` (the Rust
-- roguelike tutorial's rule) halves across a drawn side while the side just halved can be
-- halved again.
local common = require "common"

local params = { split = { default = "longer", choices = { "longer", "halves" }, doc = "The cutting rule." } }
for k, v in pairs(common.params) do params[k] = v end
params.min_room = { default = 4, min = 2, max = 64, doc = "The smallest room side a cut may leave." }

-- Marks the piece (x, y, w, h) open: a room.
local function room(x, y, w, h, open)
  for yy = y, y + h - 1 do
    local row = open[yy + 1]
    for xx = x, x + w - 1 do row[xx + 1] = true end
  end
  return nil
end

-- The piece (x, y, w, h) cut at `at`, and its halves cut by `again(piece, half's halved side)`.
local function split(x, y, w, h, vertical, at, open, again)
  local node = { x = x, y = y, w = w, h = h, vertical = vertical, at = at }
  if vertical then
    node.a = again(x, y, at - x, h, open, at - x)
    node.b = again(at + 1, y, x + w - at - 1, h, open, x + w - at - 1)
  else
    node.a = again(x, y, w, at - y, open, at - y)
    node.b = again(x, at + 1, w, y + h - at - 1, open, y + h - at - 1)
  end
  return node
end

-- Warren's own rule: across the longer side, at a drawn place, until no side can be cut.
local function longer(min)
  local function cut(x, y, w, h, open)
    local can_x, can_y = w >= 2 * min + 1, h >= 2 * min + 1
    if not can_x and not can_y then return room(x, y, w, h, open) end
    local vertical = common.cut_vertically(can_x, can_y, w, h)
    local start, len = y, h
    if vertical then start, len = x, w end
    return split(x, y, w, h, vertical, start + math.random(min, len - min - 1), open, cut)
  end
  return cut
end

-- The tutorial's rule: a drawn side halved, the halves again while the side just halved can be.
local function halves(min)
  local function halve(x, y, w, h, open, halved)
    if halved < 2 * min + 1 then return room(x, y, w, h, open) end
    local vertical = math.random(2) == 1
    local start, len = y, h
    if vertical then start, len = x, w end
    if len < 2 * min + 1 then return room(x, y, w, h, open) end
    return split(x, y, w, h, vertical, start + (len - 1) // 2, open, halve)
  end
  return halve
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
  params = params,
  generate = function(map, ctx)
    local p = ctx.params
    local w, h = p.width, p.height
    local open = common.grid(w, h, false)
    local cut = (p.split == "halves" and halves or longer)(p.min_room)
    doors(cut(1, 1, w - 2, h - 2, open, math.huge), open)
    common.write(map, open, w, h)
  end,
}
