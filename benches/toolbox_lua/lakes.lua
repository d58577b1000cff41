-- Brogue's lakes in pure Lua (`designLakes` and `lakeDisruptsPassability`, as warren's primitive
-- reads them) on the bench's cave: four lakes of 10 to 60 cells, each a blob (an 11 × 11 grid,
-- 45% rock, smoothed by the cave rule four times, its largest 4-connected hole cut to 60 cells
-- in breadth-first order; drawn again, ten times at most, while under 10 cells), tried at up to
-- 20 positions; a position is taken when the lake covers an open cell and, counted as blocking,
-- splits no area of the open cells (8-way) nor covers one whole. The lake's terrain (`lake`,
-- water by default) is written on it, shallow water on the open cells round it. Tags `lakes`
-- with the lakes placed.
local common = require "common"

local SIDE, MIN_SIZE, MAX_SIZE, TRIES = 11, 10, 60, 20

-- Whether a walker may stand on the terrain called `name`: neither solid nor a hazard.
local function passable(ctx, name)
  for _, t in ipairs(ctx.regions.terrain) do
    if t.name == name then return not t.solid and not t.hazard end
  end
  return false
end

-- A blob's cells as offsets { dx, dy } in row order, or nil after ten draws under MIN_SIZE.
local function blob()
  for _ = 1, 10 do
    -- rock[y][x], 1-based; a neighbour off the grid counts as rock.
    local rock = {}
    for y = 1, SIDE do
      local row = {}
      for x = 1, SIDE do row[x] = math.random(100) <= 45 end
      rock[y] = row
    end
    for _ = 1, 4 do
      local next = {}
      for y = 1, SIDE do
        local row = {}
        for x = 1, SIDE do
          local n = 0
          for dy = -1, 1 do
            for dx = -1, 1 do
              if dx ~= 0 or dy ~= 0 then
                local r = rock[y + dy]
                if not r or r[x + dx] ~= false then n = n + 1 end
              end
            end
          end
          -- B5678/S45678
          row[x] = n >= 5 or (rock[y][x] and n == 4)
        end
        next[y] = row
      end
      rock = next
    end
    -- The largest hole, breadth-first from its first cell in row order.
    local seen, best = {}, {}
    for y = 1, SIDE do
      for x = 1, SIDE do
        local k = x + y * SIDE
        if not seen[k] and not rock[y][x] then
          seen[k] = true
          local hole, head = { { x, y } }, 1
          while head <= #hole do
            local c = hole[head]
            head = head + 1
            for _, d in ipairs({ { 0, -1 }, { -1, 0 }, { 1, 0 }, { 0, 1 } }) do
              local nx, ny = c[1] + d[1], c[2] + d[2]
              local kk = nx + ny * SIDE
              if nx >= 1 and ny >= 1 and nx <= SIDE and ny <= SIDE
                and not seen[kk] and not rock[ny][nx] then
                seen[kk] = true
                hole[#hole + 1] = { nx, ny }
              end
            end
          end
          if #hole > #best then best = hole end
        end
      end
    end
    if #best >= MIN_SIZE then
      local cells = {}
      for k = 1, math.min(#best, MAX_SIZE) do
        cells[k] = { best[k][1] - 1, best[k][2] - 1 }
      end
      table.sort(cells, function(a, b) return a[2] < b[2] or (a[2] == b[2] and a[1] < b[1]) end)
      return cells
    end
  end
  return nil
end

return {
  name = "pure-lua lakes",
  params = {
    width = common.analysis_params.width,
    height = common.analysis_params.height,
    analyse = common.analysis_params.analyse,
    lake = { default = "water", choices = { "water", "chasm" }, doc = "The lakes' terrain." },
  },
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    local open = common.cave_to_analyse(map, ctx)
    if not open then return end
    local lake_open = passable(ctx, ctx.params.lake)
    local placed = 0
    for _ = 1, 4 do
      local cells = blob()
      if cells and SIDE <= w and SIDE <= h then
        local before, areas = common.label8(open, {}, w, h)
        for _ = 1, TRIES do
          local ox, oy = math.random(0, w - SIDE), math.random(0, h - SIDE)
          local lake, wet = {}, false
          for k, c in ipairs(cells) do
            local i = (c[1] + ox) + (c[2] + oy) * w + 1
            lake[k] = i
            wet = wet or open[i]
          end
          if wet then
            local blocked = {}
            for _, i in ipairs(lake) do blocked[i] = true end
            local _, firsts = common.label8(open, blocked, w, h)
            local owners, split = {}, false
            for _, i in ipairs(firsts) do
              local o = before[i]
              if owners[o] then split = true end
              owners[o] = true
            end
            if not split and #firsts >= #areas then
              for _, i in ipairs(lake) do
                local x, y = (i - 1) % w, (i - 1) // w
                if map:set(x, y, ctx.params.lake) then open[i] = lake_open end
              end
              for _, i in ipairs(lake) do
                local x, y = (i - 1) % w, (i - 1) // w
                for yy = y - 1, y + 1 do
                  for xx = x - 1, x + 1 do
                    local j = xx + yy * w + 1
                    if xx >= 0 and yy >= 0 and xx < w and yy < h and not blocked[j] and open[j] then
                      map:set(xx, yy, "shallow water")
                    end
                  end
                end
              end
              placed = placed + 1
              break
            end
          end
        end
      end
    end
    map:tag("lakes", placed)
  end,
}
