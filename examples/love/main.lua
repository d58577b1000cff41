-- A LÖVE 11 loader for warren's JSON (format 2): reads a map, draws level 1 one square per cell
-- in its legend colours, writes the picture as a PNG and quits. A game would keep the level and
-- draw it every frame; the terrain of any cell is level.terrains[level.terrain_rows[y][x] + 1].
--
--   love examples/love MAP.json OUT.png [SCALE]      (under xvfb-run where there is no display)
--
-- The picture equals `warren run … --out FILE.png --scale SCALE` of the same map, pixel for pixel.
local json = require "json"

local function read(path)
  local f, err = io.open(path, "rb")
  if not f then error(err, 0) end
  local text = f:read("*a")
  f:close()
  return text
end

local function write(path, bytes)
  local f, err = io.open(path, "wb")
  if not f then error(err, 0) end
  f:write(bytes)
  f:close()
end

-- "#rrggbb" as LÖVE's 0..1 components.
local function rgb(hex)
  return tonumber(hex:sub(2, 3), 16) / 255, tonumber(hex:sub(4, 5), 16) / 255, tonumber(hex:sub(6, 7), 16) / 255
end

-- The level drawn to a canvas, `scale` pixels per cell.
local function draw(level, scale)
  local canvas = love.graphics.newCanvas(level.width * scale, level.height * scale)
  love.graphics.setCanvas(canvas)
  love.graphics.clear(0, 0, 0, 1)
  for y, row in ipairs(level.rows) do
    local x = 0
    for glyph in row:gmatch("[%z\1-\127\194-\244][\128-\191]*") do
      love.graphics.setColor(rgb(level.legend[glyph].color))
      love.graphics.rectangle("fill", x * scale, (y - 1) * scale, scale, scale)
      x = x + 1
    end
  end
  love.graphics.setCanvas()
  return canvas
end

-- An error ends the program with a message and a non-zero status (LÖVE's own handler would
-- show it in the window and wait).
function love.errorhandler(message)
  io.stderr:write(debug.traceback("error: " .. tostring(message), 3), "\n")
  os.exit(1)
end

function love.load(args)
  local input, output, scale = args[1], args[2], tonumber(args[3] or "4")
  if not (input and output) then error("usage: love examples/love MAP.json OUT.png [SCALE]", 0) end
  local doc = json.decode(read(input))
  if doc.format ~= 2 then error(("%s: format %s, this loader reads 2"):format(input, tostring(doc.format)), 0) end
  local level = doc.levels[1]
  local canvas = draw(level, scale)
  write(output, canvas:newImageData():encode("png"):getString())
  local start = level.start and level.start ~= json.null and ("(%d, %d)"):format(level.start.x, level.start.y) or "none"
  print(("%s seed %s: %dx%d, %d rooms, %d doors, start %s; wrote %s"):format(
    doc.recipe, doc.seed, level.width, level.height, #level.rooms, #level.doors, start, output))
  love.event.quit(0)
end
