-- BSP rooms in pure Lua: cut the map's inside in two until pieces are under twice 8 cells, a
-- room in each piece, a dog-leg corridor between a room of each half of every cut. Maps wider
-- than 80 cells take the options the primitive's bench gives them there (pieces of 24, rooms
-- of at most 12: about the open fraction of `mapgen`'s BSP rooms).
local common = require "common"

local MIN_LEAF, MIN_ROOM, MAX_ROOM = 8, 3, math.huge

local function cut(x, y, w, h, leaves)
  local can_x, can_y = w >= 2 * MIN_LEAF, h >= 2 * MIN_LEAF
  if not can_x and not can_y then
    leaves[#leaves + 1] = { x = x, y = y, w = w, h = h }
    return { leaf = #leaves }
  end
  local node = {}
  if common.cut_vertically(can_x, can_y, w, h) then
    local at = math.random(MIN_LEAF, w - MIN_LEAF)
    node.a, node.b = cut(x, y, at, h, leaves), cut(x + at, y, w - at, h, leaves)
  else
    local at = math.random(MIN_LEAF, h - MIN_LEAF)
    node.a, node.b = cut(x, y, w, at, leaves), cut(x, y + at, w, h - at, leaves)
  end
  return node
end

local function some_room(node, rooms)
  while not node.leaf do
    node = math.random(2) == 1 and node.a or node.b
  end
  return rooms[node.leaf]
end

local function carve(open, x1, y1, x2, y2)
  local sx = x2 >= x1 and 1 or -1
  for x = x1, x2, sx do open[y1 + 1][x + 1] = true end
  local sy = y2 >= y1 and 1 or -1
  for y = y1, y2, sy do open[y + 1][x2 + 1] = true end
end

local function join(node, rooms, open)
  if node.leaf then return end
  join(node.a, rooms, open)
  join(node.b, rooms, open)
  local a, b = some_room(node.a, rooms), some_room(node.b, rooms)
  carve(open, a.x + (a.w - 1) // 2, a.y + (a.h - 1) // 2, b.x + (b.w - 1) // 2, b.y + (b.h - 1) // 2)
end

return {
  name = "pure-lua bsp",
  params = common.params,
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    if w > 80 then MIN_LEAF, MAX_ROOM = 24, 12 end
    local open = common.grid(w, h, false)
    local leaves = {}
    local tree = cut(1, 1, w - 2, h - 2, leaves)
    local rooms = {}
    for i, l in ipairs(leaves) do
      local rw = math.random(MIN_ROOM, math.min(l.w - 2, MAX_ROOM))
      local rh = math.random(MIN_ROOM, math.min(l.h - 2, MAX_ROOM))
      local rx = math.random(l.x + 1, l.x + l.w - 1 - rw)
      local ry = math.random(l.y + 1, l.y + l.h - 1 - rh)
      rooms[i] = { x = rx, y = ry, w = rw, h = rh }
      for y = ry, ry + rh - 1 do
        local row = open[y + 1]
        for x = rx, rx + rw - 1 do row[x + 1] = true end
      end
    end
    join(tree, rooms, open)
    common.write(map, open, w, h)
  end,
}
