# A Godot 3 loader for warren's JSON (format 2): reads a map into a TileMap, one tile per
# terrain of the run (a square of its colour), every level's cells set from `terrain_rows`,
# then prints what the TileMap holds so that it can be checked against the JSON:
#
#   WARREN_MAP=map.json godot3 --path examples/godot -s loader.gd --audio-driver Dummy
#
# prints, for each level, `level DEPTH WIDTHxHEIGHT`, one `terrain ID NAME COUNT` line per
# terrain the level uses (cells the TileMap has with that tile), `start X Y` (or `start none`)
# and `rooms N`, then `done`. A game would add the TileMap to its scene instead of printing.
extends SceneTree

const TILE = 16


# A TileSet with tile `i` for terrain `i`: a TILE-pixel square of the terrain's colour.
func tileset_of(terrains):
	var tiles = TileSet.new()
	for i in range(terrains.size()):
		var image = Image.new()
		image.create(TILE, TILE, false, Image.FORMAT_RGB8)
		image.fill(Color(terrains[i]["color"]))
		var texture = ImageTexture.new()
		texture.create_from_image(image, 0)
		tiles.create_tile(i)
		tiles.tile_set_name(i, terrains[i]["name"])
		tiles.tile_set_texture(i, texture)
		tiles.tile_set_region(i, Rect2(0, 0, TILE, TILE))
	return tiles


# The level as a TileMap.
func tilemap_of(level, tiles):
	var map = TileMap.new()
	map.tile_set = tiles
	map.cell_size = Vector2(TILE, TILE)
	var rows = level["terrain_rows"]
	for y in range(rows.size()):
		var row = rows[y]
		for x in range(row.size()):
			map.set_cell(x, y, int(row[x]))
	return map


func fail(message):
	printerr("error: ", message)
	quit(1)


func _init():
	var path = OS.get_environment("WARREN_MAP")
	if path == "":
		return fail("set WARREN_MAP to a warren JSON map")
	var file = File.new()
	if file.open(path, File.READ) != OK:
		return fail("cannot open " + path)
	var parsed = JSON.parse(file.get_as_text())
	file.close()
	if parsed.error != OK:
		return fail("%s:%d: %s" % [path, parsed.error_line, parsed.error_string])
	var doc = parsed.result
	if int(doc["format"]) != 2:
		return fail("%s: format %s, this loader reads 2" % [path, str(doc["format"])])
	for level in doc["levels"]:
		var terrains = level["terrains"]
		var map = tilemap_of(level, tileset_of(terrains))
		print("level %d %dx%d" % [int(level["depth"]), int(level["width"]), int(level["height"])])
		for i in range(terrains.size()):
			var count = map.get_used_cells_by_id(i).size()
			if count > 0:
				print("terrain %d %s %d" % [i, terrains[i]["name"], count])
		var start = level.get("start")
		if start == null:
			print("start none")
		else:
			print("start %d %d" % [int(start["x"]), int(start["y"])])
		print("rooms %d" % level["rooms"].size())
		map.free()
	print("done")
	quit(0)
