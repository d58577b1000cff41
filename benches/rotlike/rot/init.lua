-- rot: a roguelike toolkit in the style of rot.js's Lua ports. `require "rot"` gives the module
-- table; the generators live in `ROT.Map`, each a class whose `create(callback)` calls
-- `callback(x, y, value)` for every cell (0 open, 1 wall; x and y from 0).
local ROT = {
  Class = require "rot.class",
  RNG = require "rot.rng",
  DIRS = {
    [4] = { { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 } },
    [8] = { { 0, -1 }, { 1, -1 }, { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 }, { -1, 0 }, { -1, -1 } },
  },
}
package.loaded.rot = ROT
ROT.Map = require "rot.map.map"
require "rot.map.features"
require "rot.map.arena"
require "rot.map.dungeon"
require "rot.map.uniform"
require "rot.map.digger"
require "rot.map.rogue"
require "rot.map.cellular"
require "rot.map.dividedmaze"
require "rot.map.iceymaze"
require "rot.map.ellermaze"
return ROT
