-- LÖVE 11 configuration for the warren map loader: graphics only (no sound), a small window
-- (the map is drawn to a canvas of its own size).
function love.conf(t)
  t.identity = "warren-loader"
  t.version = "11.4"
  t.window.title = "warren map"
  t.window.width = 320
  t.window.height = 200
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
