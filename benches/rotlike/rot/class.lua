-- A small class library in the style of the ones roguelike ports ship (middleclass, 30log,
-- rotLove's own): classes are tables that are their instances' metatables, `extend` makes a
-- subclass, `new` makes an instance and calls `init`.
local Class = { name = "Class" }
Class.__index = Class

function Class:extend(name)
  local cls = {}
  for k, v in pairs(self) do
    if k:find("^__") then cls[k] = v end
  end
  cls.name = name or (self.name .. "?")
  cls.super = self
  cls.__index = cls
  return setmetatable(cls, { __index = self, __tostring = function() return "class " .. cls.name end })
end

function Class:new(...)
  local obj = setmetatable({}, self)
  obj:init(...)
  return obj
end

function Class:init() end

function Class:is(cls)
  local c = getmetatable(self)
  while c do
    if c == cls then return true end
    c = c.super
  end
  return false
end

return Class
