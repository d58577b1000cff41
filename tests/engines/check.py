#!/usr/bin/env python3
"""warren's exports read by tools that are not warren, each checked against warren's own JSON.

    python3 tests/engines/check.py WARREN_BINARY

Runs the binary for a few recipes and seeds and checks, for each map:
- the JSON against the format 2 schema (crates/core/schema/warren-map-2.schema.json) with
  Python's jsonschema (the Rust tests validate with the `jsonschema` crate as well);
- the Tiled map (.tmx) as pytmx reads it (pygame's usual loader), and as Tiled itself exports it
  to JSON (`tiled --export-map`, Qt's offscreen platform);
- the LDtk project (.ldtk) as ldtkpy parses it (typed from LDtk's JSON schema);
- the animation of `--frames` (animation.gif) as Pillow reads it: one frame per PNG frame, each
  the same pixels as its PNG (read with pypng), shown 0.8 s (the last 3 s), looping;
- the LÖVE loader (examples/love, under xvfb-run): its picture of the map equals warren's PNG;
- the Godot 3 loader (examples/godot, under xvfb-run): its TileMap's cell counts per terrain,
  start and rooms equal the JSON's.

Every tool must be installed (.ci/engines installs them): a missing one is a failure. Prints one
line per check and a closing `N passed, M failed`; exits 1 when any failed.
"""

import collections
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA = os.path.join(ROOT, "crates/core/schema/warren-map-2.schema.json")
TILE = 16  # pixels per cell in the Tiled and LDtk exports
SCALE = 4  # pixels per cell of the PNG the LÖVE picture is compared with
MAPS = [
    ("rooms-7", ["scripts/rooms.lua", "--seed", "7", "--set", "corridor_spawns=true"]),
    ("dungeon-1", ["scripts/dungeon.lua", "--seed", "1", "--levels", "3"]),
    ("townmaze-3", ["scripts/townmaze.lua", "--seed", "3"]),
    ("cave-3", ["scripts/cave.lua", "--seed", "3"]),
]


class Failed(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Failed(what)


def run(args, **kw):
    done = subprocess.run(args, capture_output=True, text=True, timeout=300, **kw)
    if done.returncode != 0:
        raise Failed(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr[-2000:]}")
    return done


def cells(level):
    """(x, y, terrain id, region name) of every cell of a JSON level."""
    regions = level["regions"]
    for y, (trow, rrow) in enumerate(zip(level["terrain_rows"], level["region_rows"])):
        for x, (t, r) in enumerate(zip(trow, rrow)):
            yield x, y, t, regions[r]


def at(obj):
    return (obj["x"], obj["y"])


# --- JSON -----------------------------------------------------------------------------------

def check_schema(doc, _files):
    import jsonschema

    with open(SCHEMA) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(doc)


# --- Tiled ----------------------------------------------------------------------------------

def check_pytmx(doc, files):
    import pytmx

    tmx = pytmx.TiledMap(files["tmx"])
    expect(tmx.properties["recipe"] == doc["recipe"], "recipe")
    expect(tmx.properties["seed"] == doc["seed"], "seed")
    for name, value in doc["params"].items():
        expect(tmx.properties[f"param.{name}"] == value, f"param {name}")
    # pytmx lists the group layers, then every tile layer, then every object layer, each in
    # document order: level i has the i-th of each.
    groups = [layer for layer in tmx.layers if isinstance(layer, pytmx.pytmx.TiledGroupLayer)]
    expect(len(groups) == len(doc["levels"]), "one group per level")
    tile_layers = [layer for layer in tmx.layers if isinstance(layer, pytmx.TiledTileLayer)]
    object_layers = collections.defaultdict(list)
    for layer in tmx.layers:
        if isinstance(layer, pytmx.TiledObjectGroup):
            object_layers[layer.name].append(layer)
    for index, level in enumerate(doc["levels"]):
        group = groups[index]
        expect(group.name == f"level {level['depth']}", "group name")
        expect(group.properties["depth"] == level["depth"], "depth")
        expect(group.properties["seed"] == level["seed"], "level seed")
        terrain = tile_layers[index]
        expect(terrain.name == "terrain", "the terrain tile layer")
        names = [t["name"] for t in level["terrains"]]
        for x, y, t, _ in cells(level):
            props = tmx.get_tile_properties(x, y, tmx.layers.index(terrain))
            expect(props["terrain"] == names[t], f"terrain at ({x}, {y})")
        objects = {name: list(object_layers[name][index]) for name in
                   ["rooms", "doors", "entrances", "corridors", "stairs", "spawns", "start"]}
        for o in sum(objects.values(), []):
            expect(o.type in {"room", "door", "entrance", "corridor", "stairs", "spawn", "start"},
                   f"object type {o.type}")
        rooms = objects["rooms"]
        expect(len(rooms) == len(level["rooms"]), "rooms")
        for o, room in zip(rooms, level["rooms"]):
            p = o.properties
            expect((p["cell_x"], p["cell_y"], p["cell_w"], p["cell_h"]) ==
                   (room["x"], room["y"], room["w"], room["h"]), "room cells")
            expect((o.x, o.y, o.width, o.height) ==
                   (room["x"] * TILE, room["y"] * TILE, room["w"] * TILE, room["h"] * TILE),
                   "room rectangle")
            expect(p["kind"] == room["kind"] and p.get("region") == room["region"], "room fields")
        doors = objects["doors"]
        expect([(o.properties["cell_x"], o.properties["cell_y"], o.properties["state"])
                for o in doors] == [(d["x"], d["y"], d["state"]) for d in level["doors"]],
               "doors")
        room_ids = {o.id: i for i, o in enumerate(rooms)}
        door_ids = {o.id: o for o in doors}
        entrances = collections.defaultdict(list)
        for o in objects["entrances"]:
            cell = (o.properties["cell_x"], o.properties["cell_y"])
            entrances[room_ids[o.properties["room"]]].append(cell)
            if "door" in o.properties:
                d = door_ids[o.properties["door"]]
                expect((d.properties["cell_x"], d.properties["cell_y"]) == cell, "entrance door")
        for i, room in enumerate(level["rooms"]):
            expect(entrances[i] == [at(d) for d in room["doors"]], f"room {i + 1}'s entrances")
        corridors = objects["corridors"]
        expect(len(corridors) == len(level["corridors"]), "corridors")
        for o, c in zip(corridors, level["corridors"]):
            expect(o.properties["cells"] == len(c["cells"]), "corridor length")
            if c["cells"]:
                points = [(int(px) // TILE, int(py) // TILE) for px, py in o.points]
                expect(points == [at(p) for p in c["cells"]], "corridor polyline")
        stairs = [(o.properties["direction"], o.properties["cell_x"], o.properties["cell_y"])
                  for o in objects["stairs"]]
        expect(stairs == [(d, *at(s)) for d in ["up", "down"] for s in level["stairs"][d]],
               "stairs")
        spawns = [(o.properties["what"], o.properties["cell_x"], o.properties["cell_y"])
                  for o in objects["spawns"]]
        expect(spawns == [(s["what"], *at(s)) for s in level["spawns"]], "spawns")
        start = [(o.properties["cell_x"], o.properties["cell_y"]) for o in objects["start"]]
        expect(start == ([at(level["start"])] if level["start"] else []), "start")
        for o in sum(objects.values(), []):
            if o.type != "corridor" or o.properties["cells"] > 0:
                px, py = o.properties["cell_x"], o.properties["cell_y"]
                expect(int(o.x) // TILE == px and int(o.y) // TILE == py, f"{o.type} on its cell")


def check_tiled_itself(doc, files):
    out = files["tmx"] + ".tiled.json"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = run(["tiled", "--export-map", "json", files["tmx"], out], env=env)
    noise = [line for line in done.stderr.splitlines()
             if line.strip() and "XDG_RUNTIME_DIR" not in line]
    expect(not noise, f"Tiled warned: {noise}")
    with open(out) as f:
        exported = json.load(f)
    expect(exported["width"] == doc["levels"][0]["width"], "width")
    groups = exported["layers"]
    expect([g["name"] for g in groups] == [f"level {l['depth']}" for l in doc["levels"]],
           "level groups")
    for group, level in zip(groups, doc["levels"]):
        layers = {layer["name"]: layer for layer in group["layers"]}
        data = layers["terrain"]["data"]
        expect(data == [t + 1 for _, _, t, _ in cells(level)], "every cell's tile")
        counts = {name: len(layers[name]["objects"]) for name in layers if name != "terrain"}
        expect(counts["rooms"] == len(level["rooms"]), "rooms")
        expect(counts["doors"] == len(level["doors"]), "doors")
        expect(counts["entrances"] == sum(len(r["doors"]) for r in level["rooms"]), "entrances")
        expect(counts["corridors"] == len(level["corridors"]), "corridors")
        expect(counts["spawns"] == len(level["spawns"]), "spawns")


# --- LDtk -----------------------------------------------------------------------------------

def check_ldtkpy(doc, files):
    from ldtkpy.api import ldtk_json_from_dict

    with open(files["ldtk"]) as f:
        raw = json.load(f)
    project = ldtk_json_from_dict(raw)
    terrain_def = next(l for l in project.defs.layers if l.identifier == "Terrain")
    region_def = next(l for l in project.defs.layers if l.identifier == "Regions")
    # Region values number the levels' region names in order of first appearance.
    union = []
    for level in doc["levels"]:
        union += [r for r in level["regions"][1:] if r not in union]
    expect(len(region_def.int_grid_values) == len(union), "one IntGrid value per region")
    expect(len(project.levels) == len(doc["levels"]), "one LDtk level per level")
    expect(len(terrain_def.int_grid_values) == len(doc["levels"][0]["terrains"]),
           "one IntGrid value per terrain")
    for ldtk_level, level in zip(project.levels, doc["levels"]):
        expect(ldtk_level.world_depth == level["depth"] - 1, "world depth")
        expect((ldtk_level.px_wid, ldtk_level.px_hei) ==
               (level["width"] * TILE, level["height"] * TILE), "level size")
        fields = {f.identifier: f.value for f in ldtk_level.field_instances}
        expect(fields["seed"] == level["seed"] and fields["depth"] == level["depth"], "fields")
        expect(fields["recipe"] == doc["recipe"], "recipe field")
        for name, value in doc["params"].items():
            expect(fields[f"param_{name}"] == value, f"param {name}")
        layers = {l.identifier: l for l in ldtk_level.layer_instances}
        terrain = layers["Terrain"].int_grid_csv
        regions = layers["Regions"].int_grid_csv
        for x, y, t, region in cells(level):
            i = x + y * level["width"]
            expect(terrain[i] == t + 1, f"terrain at ({x}, {y})")
            expect((union[regions[i] - 1] if regions[i] else "") == region,
                   f"region at ({x}, {y})")
        entities = collections.defaultdict(list)
        for e in layers["Entities"].entity_instances:
            entities[e.identifier].append(e)
        field = lambda e, name: next(f.value for f in e.field_instances if f.identifier == name)
        rooms = entities["Room"]
        expect([(r.grid[0], r.grid[1], r.width // TILE, r.height // TILE) for r in rooms] ==
               [(r["x"], r["y"], r["w"], r["h"]) for r in level["rooms"]], "rooms")
        expect([[(p["cx"], p["cy"]) for p in field(r, "doors")] for r in rooms] ==
               [[at(d) for d in r["doors"]] for r in level["rooms"]], "room doors")
        expect([field(r, "region") for r in rooms] == [r["region"] for r in level["rooms"]],
               "room regions")
        expect([(tuple(d.grid), field(d, "state")) for d in entities["Door"]] ==
               [(at(d), d["state"]) for d in level["doors"]], "doors")
        expect([(field(s, "direction"), tuple(s.grid)) for s in entities["Stairs"]] ==
               [(d, at(s)) for d in ["up", "down"] for s in level["stairs"][d]], "stairs")
        expect([(field(s, "what"), tuple(s.grid)) for s in entities["Spawn"]] ==
               [(s["what"], at(s)) for s in level["spawns"]], "spawns")
        expect([tuple(s.grid) for s in entities["Start"]] ==
               ([at(level["start"])] if level["start"] else []), "start")
        expect([[(p["cx"], p["cy"]) for p in field(c, "cells")] for c in entities["Corridor"]] ==
               [[at(p) for p in c["cells"]] for c in level["corridors"]], "corridors")


# --- images ------------------------------------------------------------------------------------

def check_pillow_gif(doc, files):
    import png
    from PIL import Image, ImageSequence

    frames = sorted(f for f in os.listdir(files["frames"]) if f.endswith(".png"))
    with Image.open(os.path.join(files["frames"], "animation.gif")) as gif:
        expect(gif.format == "GIF" and gif.info.get("loop") == 0, "a looping GIF")
        shown = [(frame.info.get("duration"), frame.convert("RGB").tobytes())
                 for frame in ImageSequence.Iterator(gif)]
    expect(len(shown) == len(frames), f"{len(shown)} frames against {len(frames)} PNGs")
    for i, (name, (duration, pixels)) in enumerate(zip(frames, shown)):
        expect(duration == (3000 if i + 1 == len(frames) else 800), f"{name}: shown {duration} ms")
        width, height, rows, _ = png.Reader(filename=os.path.join(files["frames"], name)).asRGB8()
        expect(gif.size == (width, height), f"{name}: {gif.size} against {width}x{height}")
        expect(pixels == b"".join(map(bytes, rows)), f"{name}: the GIF's frame differs")


# --- engines --------------------------------------------------------------------------------

def check_love(doc, files):
    import png

    picture = files["json"] + ".love.png"
    run(["xvfb-run", "-a", "love", os.path.join(ROOT, "examples/love"), files["json"], picture,
         str(SCALE)])
    ours = png.Reader(filename=picture).asRGB8()
    warren = png.Reader(filename=files["png"]).asRGB8()
    expect(ours[:2] == warren[:2], f"size {ours[:2]} against {warren[:2]}")
    differ = sum(a != b for a, b in zip(map(bytes, ours[2]), map(bytes, warren[2])))
    expect(differ == 0, f"{differ} pixel rows differ from warren's PNG")


def check_godot(doc, files):
    env = dict(os.environ, WARREN_MAP=files["json"], LC_ALL="C.UTF-8")
    done = run(["xvfb-run", "-a", "godot3", "--path", os.path.join(ROOT, "examples/godot"),
                "-s", "loader.gd", "--audio-driver", "Dummy"], env=env)
    lines = [line for line in done.stdout.splitlines()
             if line.split(" ")[0] in {"level", "terrain", "start", "rooms", "done"}]
    expected = []
    for level in doc["levels"]:
        expected.append(f"level {level['depth']} {level['width']}x{level['height']}")
        counts = collections.Counter(t for _, _, t, _ in cells(level))
        for i, t in enumerate(level["terrains"]):
            if counts[i]:
                expected.append(f"terrain {i} {t['name']} {counts[i]}")
        start = level["start"]
        expected.append(f"start {start['x']} {start['y']}" if start else "start none")
        expected.append(f"rooms {len(level['rooms'])}")
    expected.append("done")
    expect(lines == expected, "Godot's TileMap:\n" + "\n".join(lines))


CHECKS = [
    ("json schema", check_schema, None),
    ("tiled: pytmx", check_pytmx, None),
    ("tiled: Tiled --export-map", check_tiled_itself, None),
    ("ldtk: ldtkpy", check_ldtkpy, None),
    ("gif: Pillow", check_pillow_gif, {"rooms-7", "townmaze-3", "cave-3"}),
    ("love loader", check_love, {"rooms-7"}),
    ("godot loader", check_godot, {"dungeon-1", "rooms-7"}),
]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    warren = os.path.abspath(sys.argv[1])
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in MAPS:
            base = os.path.join(tmp, name)
            files = {"json": base + ".json", "tmx": base + ".tmx", "ldtk": base + ".ldtk",
                     "png": base + ".png"}
            for kind, path in files.items():
                extra = ["--scale", str(SCALE)] if kind == "png" else []
                run([warren, "run", *args, "--out", path, *extra], cwd=ROOT)
            files["frames"] = base + "-frames"
            run([warren, "run", *args, "--frames", files["frames"], "--scale", "2",
                 "--out", base + "-frames.txt"], cwd=ROOT)
            with open(files["json"]) as f:
                doc = json.load(f)
            for check, fn, only in CHECKS:
                if only is not None and name not in only:
                    continue
                started = time.monotonic()
                try:
                    fn(doc, files)
                    passed += 1
                    print(f"ok   {check}: {name} ({time.monotonic() - started:.1f} s)")
                except Exception as e:  # every failure is reported, then the next check runs
                    failed += 1
                    detail = str(e) if isinstance(e, Failed) else traceback.format_exc()
                    print(f"FAIL {check}: {name}: {detail}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
