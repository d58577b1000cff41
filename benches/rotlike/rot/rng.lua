-- The random number generator, as rot.js and its Lua ports have it: Alea, a lagged
-- multiply-with-carry generator on doubles. The module table is the default generator and
-- keeps its state in its own fields, so `setSeed` and every draw write the module table;
-- `clone()` makes another generator (the generators take one as `options.rng`).
local RNG = {
  _seed = 0,
  _s0 = 0, _s1 = 0, _s2 = 0, _c = 0,
}
RNG.__index = RNG
local FRAC = 2.3283064365386963e-10 -- 2^-32
local floor = math.floor

local function u32(n) return floor(n) % 4294967296 end

function RNG:getSeed() return self._seed end

function RNG:setSeed(seed)
  seed = (seed < 1) and (1 / seed) or seed
  self._seed = seed
  self._s0 = u32(seed) * FRAC
  seed = u32(seed * 69069 + 1)
  self._s1 = seed * FRAC
  seed = u32(seed * 69069 + 1)
  self._s2 = seed * FRAC
  self._c = 1
  return self
end

-- a float in [0, 1)
function RNG:getUniform()
  local t = 2091639 * self._s0 + self._c * FRAC
  self._s0 = self._s1
  self._s1 = self._s2
  self._c = floor(t)
  self._s2 = t - self._c
  return self._s2
end

-- an integer in [lo, hi]
function RNG:getUniformInt(lo, hi)
  local max = math.max(lo, hi)
  local min = math.min(lo, hi)
  return floor(self:getUniform() * (max - min + 1)) + min
end

-- normally distributed, by the polar method
function RNG:getNormal(mean, stddev)
  mean, stddev = mean or 0, stddev or 1
  local u, v, r
  repeat
    u = 2 * self:getUniform() - 1
    v = 2 * self:getUniform() - 1
    r = u * u + v * v
  until r <= 1 and r ~= 0
  local gauss = u * math.sqrt(-2 * math.log(r) / r)
  return mean + gauss * stddev
end

-- an integer in [1, 100]
function RNG:getPercentage() return 1 + floor(self:getUniform() * 100) end

function RNG:getItem(list)
  if #list == 0 then return nil end
  return list[floor(self:getUniform() * #list) + 1]
end

-- a shuffled copy
function RNG:shuffle(list)
  local result, clone = {}, {}
  for i = 1, #list do clone[i] = list[i] end
  while #clone > 0 do
    local index = floor(self:getUniform() * #clone) + 1
    result[#result + 1] = table.remove(clone, index)
  end
  return result
end

-- a key of `weights`, drawn by weight (keys are visited in sorted order: deterministic)
function RNG:getWeightedValue(weights)
  local keys, total = {}, 0
  for k, w in pairs(weights) do
    keys[#keys + 1] = k
    total = total + w
  end
  table.sort(keys)
  local r = self:getUniform() * total
  local part = 0
  for _, k in ipairs(keys) do
    part = part + weights[k]
    if r < part then return k end
  end
  return keys[#keys]
end

function RNG:getState() return { self._s0, self._s1, self._s2, self._c } end

function RNG:setState(state)
  self._s0, self._s1, self._s2, self._c = state[1], state[2], state[3], state[4]
  return self
end

-- another generator, in this one's state
function RNG:clone()
  local other = setmetatable({}, RNG)
  other._seed = self._seed
  return other:setState(self:getState())
end

return RNG
