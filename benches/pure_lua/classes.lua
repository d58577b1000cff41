-- Class-style objects, the way class libraries are written: a base class and subclasses whose
-- methods are found through __index chains, vectors with __add/__sub/__mul/__eq/__len, and many
-- small tables with metatables made and dropped (particles stepped, spawned and culled).
return function(n, steps)
  n, steps = n or 600, steps or 40
  local seed = 4242
  local function rand()
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  end

  local Vec = {}
  Vec.__index = Vec
  local function vec(x, y) return setmetatable({ x = x, y = y }, Vec) end
  Vec.__add = function(a, b) return vec(a.x + b.x, a.y + b.y) end
  Vec.__sub = function(a, b) return vec(a.x - b.x, a.y - b.y) end
  Vec.__mul = function(a, k) return vec(a.x * k, a.y * k) end
  Vec.__eq = function(a, b) return a.x == b.x and a.y == b.y end
  Vec.__len = function(a) return math.sqrt(a.x * a.x + a.y * a.y) end
  function Vec:dot(o) return self.x * o.x + self.y * o.y end

  local function class(parent)
    local c = {}
    c.__index = c
    if parent then setmetatable(c, { __index = parent }) end
    c.new = function(...)
      local o = setmetatable({}, c)
      o:init(...)
      return o
    end
    return c
  end

  local Entity = class()
  function Entity:init(x, y) self.pos, self.vel, self.age = vec(x, y), vec(0, 0), 0 end
  function Entity:step(dt)
    self.pos = self.pos + self.vel * dt
    self.age = self.age + 1
  end
  function Entity:alive() return self.age < 30 end
  function Entity:kind() return "entity" end

  local Particle = class(Entity)
  function Particle:init(x, y)
    Entity.init(self, x, y)
    self.vel = vec(rand() - 0.5, rand() - 0.5)
  end
  function Particle:kind() return "particle" end

  local Spark = class(Particle)
  function Spark:init(x, y)
    Particle.init(self, x, y)
    self.heat = 1
  end
  function Spark:step(dt)
    Particle.step(self, dt)
    self.heat = self.heat * 0.9
  end
  function Spark:alive() return self.heat > 0.05 and Entity.alive(self) end

  local kinds = { Entity, Particle, Spark }
  local things = {}
  for i = 1, n do things[i] = kinds[i % 3 + 1].new(rand() * 100, rand() * 100) end
  local origin, sum, same = vec(0, 0), 0, 0
  for _ = 1, steps do
    local kept = {}
    for i = 1, #things do
      local t = things[i]
      t:step(0.5)
      if t:alive() then
        kept[#kept + 1] = t
        sum = sum + #(t.pos - origin) + t.pos:dot(t.vel)
        if t.pos == origin then same = same + 1 end
      else
        kept[#kept + 1] = kinds[i % 3 + 1].new(rand() * 100, rand() * 100)
      end
    end
    things = kept
  end
  return math.floor(sum) + same
end
