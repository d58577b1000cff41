//! The toolbox's generators and filters: cellular automata (a cave from a random fill, or a
//! smoothing pass over what the map holds), the drunkard's walk and its usual variants, BSP
//! rooms and BSP interiors, and mazes (five algorithms, with braiding).

use super::area::{self, AREA_WRITE_OPTIONS};
use crate::api::call::{Call, Extra, Opts, This};
use crate::api::classes::CELL;
use crate::api::cost;
use crate::api::decl::{arg, key, key_opt, key_or, Class, Decl, Default, Owner::Toolbox as T, Ty};
use crate::api::map::LuaMap;
use crate::api::meter::LuaMeter;
use crate::api::rng::LuaRng;
use crate::api::shapes::{self, brush};
use crate::state::charge_bytes;
use mlua::{AnyUserData, Lua, Table, Value};
use warren_core::gen::bsp::{self, BspInterior, BspRooms, InteriorBrushes, RoomBrushes, Split};
use warren_core::gen::cellular::{self, Paint, Rule, MAX_GENERATIONS};
use warren_core::gen::drunkard::{self, Drunkard, Spawn, Symmetry};
use warren_core::gen::maze::{self, Algorithm, MazeBrushes};
use warren_core::gen::tool_error::ToolError;
use warren_core::map::{Brush, Map, Rect};

const RULE: crate::api::decl::Field = key_or(
    "rule",
    Ty::Str,
    Default::Str("B5678/S45678"),
    "Birth/survival rule: B then the live-neighbour counts that make a cell wall, / S then those that keep it wall (RogueBasin's cave rule by default).",
);
const WALL: crate::api::decl::Field = key("wall", Ty::Terrain, "What live cells become.");
const FLOOR: crate::api::decl::Field = key("floor", Ty::Terrain, "What dead cells become.");

/// What `warren.toolbox.cave` takes.
pub const CAVE_OPTIONS: Class = Class {
    name: "warren.CaveOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `warren.toolbox.cave`.",
    fields: &[
        WALL,
        FLOOR,
        key_or(
            "fill",
            Ty::int(0, 100),
            Default::Int(45),
            "Percent of cells that start as wall.",
        ),
        RULE,
        key_or(
            "generations",
            Ty::int(0, MAX_GENERATIONS as i64),
            Default::Int(4),
            "How many times the rule runs.",
        ),
    ],
};

/// What `warren.toolbox.smooth` takes.
pub const SMOOTH_OPTIONS: Class = Class {
    name: "warren.SmoothOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `warren.toolbox.smooth`.",
    fields: &[
        WALL,
        FLOOR,
        RULE,
        key_or(
            "generations",
            Ty::int(0, MAX_GENERATIONS as i64),
            Default::Int(1),
            "How many times the rule runs.",
        ),
    ],
};

/// The drunkard's walk variants of the `mapgen` crate, by name.
const VARIANTS: [&str; 5] = [
    "open_area",
    "open_halls",
    "winding_passages",
    "fat_passages",
    "fearful_symmetry",
];

/// What `warren.toolbox.drunkard` takes.
pub const DRUNKARD_OPTIONS: Class = Class {
    name: "warren.DrunkardOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `warren.toolbox.drunkard`: a variant, and any of its settings changed.",
    fields: &[
        key("terrain", Ty::Terrain, "What the walkers carve."),
        key_or(
            "variant",
            Ty::Choice(&VARIANTS),
            Default::Str("open_area"),
            "The `mapgen` variant whose settings are the defaults: open_area (every walker from the start, half open), open_halls (later walkers from a random open cell), winding_passages (random, 40% open), fat_passages (random, 40%, 2-wide), fearful_symmetry (random, 40%, mirrored both ways).",
        ),
        key_opt(
            "spawn",
            Ty::Choice(&["start", "random"]),
            "Where each later walker starts: the start cell, or a random open cell (so the cave stays in one piece).",
        ),
        key_opt("lifetime", Ty::int(1, 100_000), "Steps each walker takes."),
        key_opt(
            "floor_percent",
            Ty::int(1, 100),
            "Walk until this percent of the area is open.",
        ),
        key_opt(
            "brush",
            Ty::int(1, 9),
            "Side of the square each step carves.",
        ),
        key_opt(
            "symmetry",
            Ty::Choice(&Symmetry::NAMES),
            "Mirror every carved cell about the area's centre.",
        ),
        key_opt(
            "start",
            Ty::Table(&CELL),
            "The first walker's cell (default the centre of the area's bounding rectangle).",
        ),
    ],
};

/// What `warren.toolbox.drunkard` returns.
pub const WALKED: Class = Class {
    name: "warren.Walked",
    parent: None,
    doc: "What a drunkard's walk did.",
    fields: &[
        key("walkers", Ty::INT, "Walkers sent."),
        key("open", Ty::INT, "Open cells in the area at the end."),
        key(
            "wanted",
            Ty::INT,
            "Open cells wanted (more than `open` when writes lost to higher priorities).",
        ),
    ],
};

/// What `warren.toolbox.bsp_rooms` takes.
pub const BSP_ROOMS_OPTIONS: Class = Class {
    name: "warren.BspRoomsOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `warren.toolbox.bsp_rooms`.",
    fields: &[
        key("floor", Ty::Terrain, "Room floors."),
        key("corridor", Ty::Terrain, "Corridor floors."),
        key_or(
            "min_leaf",
            Ty::int(3, 256),
            Default::Int(8),
            "The smallest piece a cut may leave (walls included).",
        ),
        key_or(
            "min_room",
            Ty::int(1, 254),
            Default::Int(3),
            "The smallest room side (at most min_leaf - 2).",
        ),
        key_opt(
            "max_room",
            Ty::int(1, 65536),
            "The largest room side (at least min_room); if absent, as large as the piece allows. Large pieces with a small cap leave more rock between the rooms.",
        ),
    ],
};

/// What `warren.toolbox.bsp_interior` takes.
pub const BSP_INTERIOR_OPTIONS: Class = Class {
    name: "warren.BspInteriorOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `warren.toolbox.bsp_interior`.",
    fields: &[
        key("floor", Ty::Terrain, "Room floors."),
        key("wall", Ty::Terrain, "The walls on the cuts."),
        key_opt(
            "door",
            Ty::Terrain,
            "The doors through the cuts (default: the floor, an opening).",
        ),
        key_or(
            "min_room",
            Ty::int(2, 256),
            Default::Int(4),
            "The smallest room side a cut may leave.",
        ),
        key_or(
            "split",
            Ty::Choice(&Split::NAMES),
            Default::Str("longer"),
            "longer (each piece cut across its longer side at a drawn place until no side can be cut: rooms of like sides) or halves (the Rust roguelike tutorial's rule: halved across a side a coin draws while the side just halved can be halved again: long strips).",
        ),
    ],
};

/// What `warren.toolbox.maze` takes.
pub const MAZE_OPTIONS: Class = Class {
    name: "warren.MazeOptions",
    parent: Some(&AREA_WRITE_OPTIONS),
    doc: "Options of `warren.toolbox.maze`.",
    fields: &[
        key("passage", Ty::Terrain, "The maze's passages."),
        key_opt(
            "wall",
            Ty::Terrain,
            "Its walls (default: the walls are left as the map holds them).",
        ),
        key_or(
            "algorithm",
            Ty::Choice(&Algorithm::NAMES),
            Default::Str("backtracker"),
            "backtracker (long winding corridors), prim (many short dead ends), kruskal (even texture), eller (row by row; a rectangle only), division (recursive division, long straight walls; a rectangle only).",
        ),
        key_or(
            "braid",
            Ty::int(0, 100),
            Default::Int(0),
            "Percent of dead ends opened into loops (0: a perfect maze, 100: none left).",
        ),
    ],
};

/// What `warren.toolbox.maze` returns.
pub const CARVED: Class = Class {
    name: "warren.Carved",
    parent: None,
    doc: "What a maze carved.",
    fields: &[
        key(
            "cells",
            Ty::INT,
            "Maze cells (junctions two map cells apart).",
        ),
        key("passages", Ty::INT, "Passages between them."),
        key("braided", Ty::INT, "Dead ends opened into loops."),
    ],
};

const MAP: crate::api::decl::Arg = arg("map", Ty::Map);
const RNG: crate::api::decl::Arg = arg("rng", Ty::Rng);

const CAVE: Decl = Decl::function(
    T,
    "cave",
    "Cellular automaton cave: each cell of the area starts as wall with `fill` percent chance, the rule runs `generations` times (neighbours off the map count as wall), and the result is written; returns the cells written.",
)
.args(&[MAP, RNG, arg("opts", Ty::Table(&CAVE_OPTIONS))])
.returns(&["integer"]);
const SMOOTH: Decl = Decl::function(
    T,
    "smooth",
    "Smooths what the map holds with a cellular rule (solid cells are alive) and writes the cells whose solidity changed; returns how many.",
)
.args(&[MAP, arg("opts", Ty::Table(&SMOOTH_OPTIONS))])
.returns(&["integer"]);
const DRUNKARD: Decl = Decl::function(
    T,
    "drunkard",
    "Drunkard's walk: walkers stagger one orthogonal step at a time, carving, until `floor_percent` of the area is open (or a hundred steps per cell were taken).",
)
.args(&[MAP, RNG, arg("opts", Ty::Table(&DRUNKARD_OPTIONS))])
.returns(&["warren.Walked"]);
const BSP_ROOMS: Decl = Decl::function(
    T,
    "bsp_rooms",
    "BSP rooms: cuts the area's rectangle, puts a room in every piece (rooms never touch), joins the halves of every cut with a dog-leg corridor, and records rooms (kind `bsp`) and corridors; returns the rooms.",
)
.args(&[MAP, RNG, arg("opts", Ty::Table(&BSP_ROOMS_OPTIONS))])
.returns(&["warren.RectList"]);
const BSP_INTERIOR: Decl = Decl::function(
    T,
    "bsp_interior",
    "BSP interior: cuts the area's rectangle with one-cell walls, every piece a room (kind `interior`), and opens one door through each cut (the doors form a tree); returns the rooms.",
)
.args(&[MAP, RNG, arg("opts", Ty::Table(&BSP_INTERIOR_OPTIONS))])
.returns(&["warren.RectList"]);
const MAZE: Decl = Decl::function(
    T,
    "maze",
    "A perfect maze in the area (cells two map cells apart inside its bounding rectangle; its outer ring stays wall), then `braid` percent of its dead ends opened into loops.",
)
.args(&[MAP, RNG, arg("opts", Ty::Table(&MAZE_OPTIONS))])
.returns(&["warren.Carved"]);

functions! {
    /// The generators and filters.
    pub DECLS, register {
        CAVE => cave,
        SMOOTH => smooth,
        DRUNKARD => drunkard_walk,
        BSP_ROOMS => bsp_rooms,
        BSP_INTERIOR => bsp_interior,
        MAZE => maze_carve,
    }
}

/// The option and report classes of these calls.
pub const CLASSES: &[&Class] = &[
    &CAVE_OPTIONS,
    &SMOOTH_OPTIONS,
    &DRUNKARD_OPTIONS,
    &WALKED,
    &BSP_ROOMS_OPTIONS,
    &BSP_INTERIOR_OPTIONS,
    &MAZE_OPTIONS,
    &CARVED,
];

/// A brush of the terrain option `key`, with the options' priority, force and region.
fn brush_of(o: &Opts, map: &mut Map, key: &str) -> mlua::Result<Brush> {
    let terrain = o.terrain(key, map)?;
    brush(o, map, terrain)
}

/// A brush of the terrain option `key` when the options name one.
fn opt_brush_of(o: &Opts, map: &mut Map, key: &str) -> mlua::Result<Option<Brush>> {
    o.opt_terrain(key, map)?
        .map(|terrain| brush(o, map, terrain))
        .transpose()
}

/// The rule and generations of cellular options.
fn rule(c: &Call, o: &Opts) -> mlua::Result<(Rule, u32)> {
    let rule = Rule::parse(&o.str("rule")?).map_err(|e| c.fail(e))?;
    Ok((rule, o.int("generations")? as u32))
}

fn cave(
    lua: &Lua,
    (map, rng, opts, extra): (This<LuaMap>, This<LuaRng>, Value, Extra),
) -> mlua::Result<usize> {
    let c = Call::new(lua, &CAVE, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let o = c.options(2, &opts)?;
    let (wall, floor) = (
        brush_of(&o, &mut m, "wall")?,
        brush_of(&o, &mut m, "floor")?,
    );
    let how = rule(&c, &o)?;
    let fill = o.int("fill")? as u32;
    let at = area::read(&o)?;
    let _grid = area::reserve_search(&c, &m)?;
    let mut meter = LuaMeter::new(lua);
    let paint = Paint {
        wall: &wall,
        floor: &floor,
    };
    cellular::cave(&mut m, at.area(), fill, how, &mut r, paint, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))
}

fn smooth(lua: &Lua, (map, opts, extra): (This<LuaMap>, Value, Extra)) -> mlua::Result<usize> {
    let c = Call::new(lua, &SMOOTH, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let o = c.options(1, &opts)?;
    let (wall, floor) = (
        brush_of(&o, &mut m, "wall")?,
        brush_of(&o, &mut m, "floor")?,
    );
    let (rule, generations) = rule(&c, &o)?;
    let at = area::read(&o)?;
    let _grid = area::reserve_search(&c, &m)?;
    let mut meter = LuaMeter::new(lua);
    let paint = Paint {
        wall: &wall,
        floor: &floor,
    };
    cellular::smooth(&mut m, at.area(), rule, generations, paint, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))
}

/// The settings of a `mapgen` drunkard variant.
fn variant(index: usize) -> Drunkard {
    let random = Drunkard {
        spawn: Spawn::Random,
        ..Drunkard::default()
    };
    match VARIANTS[index] {
        "open_halls" => random,
        "winding_passages" => Drunkard {
            floor_percent: 40,
            ..random
        },
        "fat_passages" => Drunkard {
            floor_percent: 40,
            brush: 2,
            ..random
        },
        "fearful_symmetry" => Drunkard {
            floor_percent: 40,
            symmetry: Symmetry::Both,
            ..random
        },
        _ => Drunkard::default(),
    }
}

fn drunkard_walk(
    lua: &Lua,
    (map, rng, opts, extra): (This<LuaMap>, This<LuaRng>, Value, Extra),
) -> mlua::Result<Table> {
    let c = Call::new(lua, &DRUNKARD, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let o = c.options(2, &opts)?;
    let floor = brush_of(&o, &mut m, "terrain")?;
    let mut d = variant(o.choice("variant")?);
    if o.has("spawn") {
        d.spawn = [Spawn::Start, Spawn::Random][o.choice("spawn")?];
    }
    if let Some(n) = o.opt_int("lifetime")? {
        d.lifetime = n as u32;
    }
    if let Some(n) = o.opt_int("floor_percent")? {
        d.floor_percent = n as u32;
    }
    if let Some(n) = o.opt_int("brush")? {
        d.brush = n as u32;
    }
    if o.has("symmetry") {
        d.symmetry = Symmetry::from_name(Symmetry::NAMES[o.choice("symmetry")?])
            .expect("declared choices are symmetries");
    }
    if let Some(t) = o.opt_table("start")? {
        d.start = Some(shapes::cell_from(&c, &m, &Value::Table(t), "opts.start")?);
    }
    let at = area::read(&o)?;
    let mut meter = LuaMeter::new(lua);
    let walked = drunkard::walk(&mut m, at.area(), &d, &mut r, &floor, &mut meter)
        .map_err(|e| area::error(&c, &mut meter, e))?;
    let out = lua.create_table_with_capacity(0, 3)?;
    out.raw_set("walkers", walked.walkers)?;
    out.raw_set("open", walked.open)?;
    out.raw_set("wanted", walked.wanted)?;
    Ok(out)
}

/// Runs `place`, a generator that lays out rooms on `map`, charges what it recorded and the
/// rectangles it returns to the memory budget, and hands the rectangles to Lua as a rect list.
fn place_rooms(
    lua: &Lua,
    c: &Call,
    map: &mut Map,
    place: impl FnOnce(&mut Map, &mut LuaMeter) -> Result<Vec<Rect>, ToolError>,
) -> mlua::Result<AnyUserData> {
    let (rooms, corridors) = (map.notes.rooms.len(), map.notes.corridors.len());
    let mut meter = LuaMeter::new(lua);
    let placed = place(map, &mut meter).map_err(|e| area::error(c, &mut meter, e))?;
    charge_notes(lua, map, rooms, corridors)?;
    charge_bytes(lua, placed.len() * std::mem::size_of::<Rect>())?;
    crate::api::fast::new_pointing(lua, placed)
}

/// Charges the rooms and corridors `map` recorded past `rooms` and `corridors`.
fn charge_notes(lua: &Lua, map: &Map, rooms: usize, corridors: usize) -> mlua::Result<()> {
    let added: usize = map.notes.rooms[rooms..]
        .iter()
        .map(cost::room)
        .sum::<usize>()
        + map.notes.corridors[corridors..]
            .iter()
            .map(cost::corridor)
            .sum::<usize>();
    charge_bytes(lua, added)
}

fn bsp_rooms(
    lua: &Lua,
    (map, rng, opts, extra): (This<LuaMap>, This<LuaRng>, Value, Extra),
) -> mlua::Result<AnyUserData> {
    let c = Call::new(lua, &BSP_ROOMS, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let o = c.options(2, &opts)?;
    let floor = brush_of(&o, &mut m, "floor")?;
    let corridor = brush_of(&o, &mut m, "corridor")?;
    let (min_room, max_room) = (o.int("min_room")?, o.opt_int("max_room")?);
    if let Some(max_room) = max_room {
        c.check_order(("min_room", min_room), ("max_room", max_room))?;
    }
    let options = BspRooms {
        min_leaf: o.int("min_leaf")? as i32,
        min_room: min_room as i32,
        max_room: max_room.map(|v| v as i32),
    };
    let at = area::read(&o)?;
    let brushes = RoomBrushes {
        floor: &floor,
        corridor: &corridor,
    };
    place_rooms(lua, &c, &mut m, |m, meter| {
        bsp::rooms(m, at.area(), &options, &mut r, brushes, meter)
    })
}

fn bsp_interior(
    lua: &Lua,
    (map, rng, opts, extra): (This<LuaMap>, This<LuaRng>, Value, Extra),
) -> mlua::Result<AnyUserData> {
    let c = Call::new(lua, &BSP_INTERIOR, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let o = c.options(2, &opts)?;
    let floor = brush_of(&o, &mut m, "floor")?;
    let wall = brush_of(&o, &mut m, "wall")?;
    let door = opt_brush_of(&o, &mut m, "door")?;
    let options = BspInterior {
        min_room: o.int("min_room")? as i32,
        split: Split::from_name(Split::NAMES[o.choice("split")?])
            .expect("declared choices are split rules"),
    };
    let at = area::read(&o)?;
    let brushes = InteriorBrushes {
        floor: &floor,
        wall: &wall,
        door: door.as_ref(),
    };
    place_rooms(lua, &c, &mut m, |m, meter| {
        bsp::interior(m, at.area(), &options, &mut r, brushes, meter)
    })
}

fn maze_carve(
    lua: &Lua,
    (map, rng, opts, extra): (This<LuaMap>, This<LuaRng>, Value, Extra),
) -> mlua::Result<Table> {
    let c = Call::new(lua, &MAZE, &extra)?;
    let mut m = c.arg_held_mut(0, map)?;
    let mut r = c.arg_held_mut(1, rng)?;
    let o = c.options(2, &opts)?;
    let passage = brush_of(&o, &mut m, "passage")?;
    let wall = opt_brush_of(&o, &mut m, "wall")?;
    let algorithm = Algorithm::from_name(Algorithm::NAMES[o.choice("algorithm")?])
        .expect("declared choices are maze algorithms");
    let braid = o.int("braid")? as u32;
    let at = area::read(&o)?;
    let _grid = area::reserve_search(&c, &m)?;
    let mut meter = LuaMeter::new(lua);
    let brushes = MazeBrushes {
        passage: &passage,
        wall: wall.as_ref(),
    };
    let carved = maze::maze(
        &mut m,
        at.area(),
        algorithm,
        braid,
        &mut r,
        brushes,
        &mut meter,
    )
    .map_err(|e| area::error(&c, &mut meter, e))?;
    let out = lua.create_table_with_capacity(0, 3)?;
    out.raw_set("cells", carved.cells)?;
    out.raw_set("passages", carved.passages)?;
    out.raw_set("braided", carved.braided)?;
    Ok(out)
}
