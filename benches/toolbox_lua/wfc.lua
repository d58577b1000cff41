-- Wave function collapse, the overlapping model, in pure Lua (Gumin's reference algorithm, as
-- warren's primitive follows it): the 3 × 3 windows of an 8 × 8 sample of a house (tiling, each
-- window mirrored too), counted; a wave of pattern positions over the map; the undecided
-- position of least entropy (ties by a random number drawn per position) collapses to a pattern
-- drawn by weight, and bans propagate by counting each pattern's supports per direction. On a
-- contradiction the attempt starts again, 100 times at most.
local common = require "common"

local N = 3
local SAMPLE = { ",,,,,,,,", ",#####,,", ",#...#,,", ",#...+,,", ",#...#,,", ",##+##,,", ",,,,,,,,",
  ",,,,,,,," }
local LEGEND = { [","] = "street", ["#"] = "brick wall", ["."] = "worn floor", ["+"] = "open door" }
-- West, south, east, north, and the direction opposite each.
local DIRS = { { -1, 0 }, { 0, 1 }, { 1, 0 }, { 0, -1 } }
local OPPOSITE = { 3, 4, 1, 2 }

-- The patterns (strings of N * N glyphs), their weights and fits[d][p] (the patterns that may
-- stand in direction d of pattern p).
local function extract()
  local w, h = #SAMPLE[1], #SAMPLE
  local cells, index, weights = {}, {}, {}
  local function add(p)
    local i = index[p]
    if not i then
      i = #cells + 1
      cells[i], index[p], weights[i] = p, i, 0
    end
    weights[i] = weights[i] + 1
  end
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      local window, mirrored = {}, {}
      for k = 0, N * N - 1 do
        local cx, cy = (x + k % N) % w, (y + k // N) % h
        window[k + 1] = SAMPLE[cy + 1]:sub(cx + 1, cx + 1)
      end
      for k = 0, N * N - 1 do
        mirrored[k + 1] = window[(k // N) * N + (N - 1 - k % N) + 1]
      end
      add(table.concat(window))
      add(table.concat(mirrored))
    end
  end
  local function agree(p, q, dx, dy)
    for y = math.max(dy, 0), math.min(N + dy, N) - 1 do
      for x = math.max(dx, 0), math.min(N + dx, N) - 1 do
        local a, b = x + y * N + 1, (x - dx) + (y - dy) * N + 1
        if p:sub(a, a) ~= q:sub(b, b) then return false end
      end
    end
    return true
  end
  local fits = {}
  for d = 1, 4 do
    fits[d] = {}
    for p = 1, #cells do
      local list = {}
      for q = 1, #cells do
        if agree(cells[p], cells[q], DIRS[d][1], DIRS[d][2]) then list[#list + 1] = q end
      end
      fits[d][p] = list
    end
  end
  return cells, weights, fits
end

local CELLS, WEIGHTS, FITS = extract()
local COUNT = #CELLS
local WEIGHT_LOGS, TOTAL, TOTAL_LOGS = {}, 0, 0
for p = 1, COUNT do
  WEIGHT_LOGS[p] = WEIGHTS[p] * math.log(WEIGHTS[p])
  TOTAL, TOTAL_LOGS = TOTAL + WEIGHTS[p], TOTAL_LOGS + WEIGHT_LOGS[p]
end

-- A binary heap of { entropy, noise, position }, least first.
local function less(a, b)
  if a[1] ~= b[1] then return a[1] < b[1] end
  if a[2] ~= b[2] then return a[2] < b[2] end
  return a[3] < b[3]
end
local function push(heap, item)
  local i = #heap + 1
  heap[i] = item
  while i > 1 do
    local parent = i // 2
    if not less(heap[i], heap[parent]) then break end
    heap[i], heap[parent] = heap[parent], heap[i]
    i = parent
  end
end
local function pop(heap)
  local top, n = heap[1], #heap
  local last = heap[n]
  heap[n] = nil
  n = n - 1
  if n == 0 then return top end
  heap[1] = last
  local i = 1
  while true do
    local l, r, least = 2 * i, 2 * i + 1, i
    if l <= n and less(heap[l], heap[least]) then least = l end
    if r <= n and less(heap[r], heap[least]) then least = r end
    if least == i then break end
    heap[i], heap[least] = heap[least], heap[i]
    i = least
  end
  return top
end

-- One attempt over a w × h grid of positions: the pattern chosen at each, or nil on a
-- contradiction.
local function attempt(w, h)
  local positions = w * h
  local possible, support, left, sums, sum_logs, entropy = {}, {}, {}, {}, {}, {}
  local banned, touched, is_touched = {}, {}, {}
  local start_entropy = math.log(TOTAL) - TOTAL_LOGS / TOTAL
  for i = 0, positions - 1 do
    local row, sup = {}, {}
    for p = 1, COUNT do
      row[p] = true
      sup[p] = { #FITS[1][p], #FITS[2][p], #FITS[3][p], #FITS[4][p] }
    end
    possible[i], support[i] = row, sup
    left[i], sums[i], sum_logs[i], entropy[i] = COUNT, TOTAL, TOTAL_LOGS, start_entropy
  end
  local function ban(i, p)
    possible[i][p] = false
    local s = support[i][p]
    s[1], s[2], s[3], s[4] = 0, 0, 0, 0
    banned[#banned + 1] = { i, p }
    left[i] = left[i] - 1
    sums[i] = sums[i] - WEIGHTS[p]
    sum_logs[i] = sum_logs[i] - WEIGHT_LOGS[p]
    entropy[i] = math.log(sums[i]) - sum_logs[i] / sums[i]
    if not is_touched[i] then
      is_touched[i] = true
      touched[#touched + 1] = i
    end
  end
  local function propagate()
    while #banned > 0 do
      local b = table.remove(banned)
      local i, p = b[1], b[2]
      if left[i] == 0 then return false end
      local x, y = i % w, i // w
      for d = 1, 4 do
        local nx, ny = x + DIRS[d][1], y + DIRS[d][2]
        if nx >= 0 and ny >= 0 and nx < w and ny < h then
          local j = nx + ny * w
          local from, sup = OPPOSITE[d], support[j]
          for _, q in ipairs(FITS[d][p]) do
            local s = sup[q][from]
            if s > 0 then
              sup[q][from] = s - 1
              if s == 1 then
                ban(j, q)
                if left[j] == 0 then return false end
              end
            end
          end
        end
      end
    end
    return true
  end
  local noise = {}
  for i = 0, positions - 1 do noise[i] = math.random(0, 0xffffffff) end
  -- Patterns nothing fits beside, where the position has a neighbour in that direction.
  for i = 0, positions - 1 do
    local x, y = i % w, i // w
    for p = 1, COUNT do
      for d = 1, 4 do
        local nx, ny = x + DIRS[d][1], y + DIRS[d][2]
        if nx >= 0 and ny >= 0 and nx < w and ny < h and #FITS[d][p] == 0 and possible[i][p] then
          ban(i, p)
          break
        end
      end
    end
  end
  if not propagate() then return nil end
  touched, is_touched = {}, {}
  local heap = {}
  for i = 0, positions - 1 do
    if left[i] > 1 then push(heap, { entropy[i], noise[i], i }) end
  end
  while #heap > 0 do
    local c = pop(heap)
    local i = c[3]
    if left[i] > 1 and c[1] == entropy[i] then
      -- Collapse: one pattern drawn by weight, the others banned.
      local roll, chosen = math.random() * sums[i], nil
      for p = 1, COUNT do
        if possible[i][p] then
          chosen = p
          if roll < WEIGHTS[p] then break end
          roll = roll - WEIGHTS[p]
        end
      end
      for p = 1, COUNT do
        if p ~= chosen and possible[i][p] then ban(i, p) end
      end
      if not propagate() then return nil end
      for _, t in ipairs(touched) do
        is_touched[t] = false
        if left[t] > 1 then push(heap, { entropy[t], noise[t], t }) end
      end
      touched = {}
    end
  end
  local chosen = {}
  for i = 0, positions - 1 do
    for p = 1, COUNT do
      if possible[i][p] then chosen[i] = p break end
    end
  end
  return chosen
end

return {
  name = "pure-lua wfc",
  params = common.params,
  generate = function(map, ctx)
    local w, h = ctx.params.width, ctx.params.height
    local pw, ph = w - N + 1, h - N + 1
    for _ = 1, 101 do
      local chosen = attempt(pw, ph)
      if chosen then
        local rows = {}
        for y = 0, h - 1 do
          local row = {}
          for x = 0, w - 1 do
            local px, py = math.min(x, pw - 1), math.min(y, ph - 1)
            local k = (x - px) + (y - py) * N + 1
            row[x + 1] = CELLS[chosen[px + py * pw]]:sub(k, k)
          end
          rows[y + 1] = table.concat(row)
        end
        map:blit(0, 0, rows, { legend = LEGEND })
        return
      end
    end
    error("the house sample contradicted itself 101 times")
  end,
}
