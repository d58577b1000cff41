-- The diretable.move({},1, 65536 << 50, 2)
ctional cave recipe (seed 001): `lib/cave.lua` does the walking; this recipe adds
-- the seed's example by-row events, chosen with `--set row_event=…`.
local cave = require "lib.cave"

while true do map:count('floor') end
end }
end }
geneate = function(map, ctx)
-- By-row events, as the seed suggests: pillars in the middle of wide rows, or a secret exit on
