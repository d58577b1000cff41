//! Tables shared by many calls: rectangles, cells, write options, and what a recipe file is;
//! and the options of the rooms phases, which their bindings and their fast paths
//! (`map/phases.rs`) both read. Tables particular to one call are declared beside it.

use super::decl::{key, key_opt, key_or, Class, Default, Ty};
use warren_core::gen::rooms::Strategy;
use warren_core::map::Adjacency;

/// A rectangle as a table.
pub const RECT_LIKE: Class = Class {
    name: "warren.RectLike",
    parent: None,
    doc: "A rectangle: `{x=, y=, w=, h=}` (a `warren.rect` has the same fields). The old positional form `{x, y, w, h}` is still read, but deprecated.",
    fields: &[
        key("x", Ty::INT, "Left column."),
        key("y", Ty::INT, "Top row."),
        key("w", Ty::int(1, i64::MAX), "Width in cells."),
        key("h", Ty::int(1, i64::MAX), "Height in cells."),
    ],
};

/// A cell as a table.
pub const CELL: Class = Class {
    name: "warren.Cell",
    parent: None,
    doc: "A cell: `{x=, y=}`, 0-based column and row.",
    fields: &[key("x", Ty::INT, "Column."), key("y", Ty::INT, "Row.")],
};

/// How a walker moves, for the connectivity methods.
pub const CONNECTIVITY_OPTIONS: Class = Class {
    name: "warren.ConnectivityOptions",
    parent: None,
    doc: "How a walker moves: the neighbours of a cell it may step to.",
    fields: &[key_or(
        "connectivity",
        Ty::Choice(&warren_core::map::Adjacency::NAMES),
        Default::Str("8"),
        "\"8\": the eight neighbours, diagonals included (Incursion's flood fill); \"4\": north, south, east and west only.",
    )],
};

/// How a write paints cells.
pub const WRITE_OPTIONS: Class = Class {
    name: "warren.WriteOptions",
    parent: None,
    doc: "How a write paints cells.",
    fields: &[
        key_opt("priority", Ty::Priority, "Write priority 0..=255 or a name (\"room_floor\"); the write fails on cells of higher priority. Without it the write is unconditional and leaves the cell's priority as it was."),
        key_or("force", Ty::Bool, Default::Bool(false), "Write even on the map edge and regardless of priority."),
        key_opt("region", Ty::Str, "Region name to stamp on written cells."),
    ],
};

/// Options of a path carve.
pub const PATH_OPTIONS: Class = Class {
    name: "warren.PathOptions",
    parent: Some(&WRITE_OPTIONS),
    doc: "Options of `map:line`.",
    fields: &[key_or(
        "corridor",
        Ty::Bool,
        Default::Bool(false),
        "Record the carved cells as a corridor (with `region` as its region).",
    )],
};

/// Options of `map:dogleg`.
pub const DOGLEG_OPTIONS: Class = Class {
    name: "warren.DoglegOptions",
    parent: Some(&PATH_OPTIONS),
    doc: "Options of `map:dogleg`.",
    fields: &[key_or(
        "first",
        Ty::Choice(&["horizontal", "vertical"]),
        Default::Str("horizontal"),
        "Which leg comes first.",
    )],
};

/// The kind `map:carve_rooms` and `map:add_room` record when none is given.
pub const ROOM_KIND: &str = "room";

/// Options of `map:carve_rooms`.
pub const CARVE_OPTIONS: Class = Class {
    name: "warren.CarveOptions",
    parent: Some(&WRITE_OPTIONS),
    doc: "Options of `map:carve_rooms`.",
    fields: &[key_or(
        "kind",
        Ty::Str,
        Default::Str(ROOM_KIND),
        "Kind recorded for each room.",
    )],
};

/// Options of `warren.gen.scatter_rooms`, read by its binding and its fast path
/// (`map/phases.rs`).
pub const SCATTER_OPTIONS: Class = Class {
    name: "warren.ScatterOptions",
    parent: None,
    doc: "Options of `warren.gen.scatter_rooms`.",
    fields: &[
        // Each attempt is checked against every room placed so far; 20000 attempts keep one
        // call under a second even when tiny rooms fill a large map.
        key_or(
            "attempts",
            Ty::int(0, 20_000),
            Default::Int(30),
            "Placement attempts (the tutorial's MAX_ROOMS).",
        ),
        key_or(
            "min_size",
            Ty::int(1, 4096),
            Default::Int(6),
            "Smallest room side, in floor cells.",
        ),
        key_or(
            "max_size",
            Ty::int(1, 4096),
            Default::Int(10),
            "Largest room side, in floor cells.",
        ),
    ],
};

/// Options of `warren.gen.connect_rooms`, read by its binding and its fast path.
pub const CONNECT_OPTIONS: Class = Class {
    name: "warren.ConnectOptions",
    parent: Some(&WRITE_OPTIONS),
    doc: "Options of `warren.gen.connect_rooms`.",
    fields: &[
        key("terrain", Ty::Terrain, "Corridor floor terrain."),
        key_or("strategy", Ty::Choice(&Strategy::NAMES), Default::Str("nearest"), "How rooms are paired: each to its nearest (`nearest`, drawn as dog-legs; `lines`, drawn as Bresenham lines), or consecutive rooms (`dogleg`, a random bend; `bsp`, between random cells)."),
        key_or("connectivity", Ty::Choice(&Adjacency::NAMES), Default::Str("8"), "How a walker moves: with \"4\", straight-line corridors step orthogonally, so they join their rooms for a walker that cannot step diagonally."),
    ],
};

/// Options of `warren.gen.start_and_stairs`, read by its binding and its fast path.
pub const STAIRS_OPTIONS: Class = Class {
    name: "warren.StairsOptions",
    parent: None,
    doc: "Options of `warren.gen.start_and_stairs`.",
    fields: &[
        key_opt(
            "start",
            Ty::int(1, i64::MAX),
            "Index of the room the player starts in (default 1).",
        ),
        key_opt(
            "down",
            Ty::int(1, i64::MAX),
            "Index of the room with the stairs down (default the last).",
        ),
        key_or(
            "terrain",
            Ty::Terrain,
            Default::Str("down stairs"),
            "Terrain written under the stairs.",
        ),
    ],
};

/// Options of the bulk writes (`map:set_row`, `map:blit`).
pub const BLIT_OPTIONS: Class = Class {
    name: "warren.BlitOptions",
    parent: Some(&WRITE_OPTIONS),
    doc: "Options of `map:set_row` and `map:blit`.",
    fields: &[key_opt(
        "legend",
        Ty::AnyTable,
        "When rows are strings: the terrain each character stands for (`{ [\"#\"] = \"rock wall\", [\".\"] = \"floor\" }`); a character without an entry (and a space) leaves its cell alone.",
    )],
};

/// A debug layer drawn as text.
pub const LAYER_SPEC: Class = Class {
    name: "warren.LayerSpec",
    parent: None,
    doc: "A debug layer drawn as text.",
    fields: &[
        key(
            "rows",
            Ty::Strings,
            "One string per map row, one character per cell; a space leaves the cell unmarked.",
        ),
        key_opt(
            "colors",
            Ty::AnyTable,
            "Colour `\"#rrggbb\"` per glyph: `{ [\"!\"] = \"#ff0000\" }` (default white).",
        ),
    ],
};

/// A room as `map:rooms()` returns it.
pub const ROOM_RECORD: Class = Class {
    name: "warren.RoomRecord",
    parent: Some(&RECT_LIKE),
    doc: "A room recorded on the map.",
    fields: &[
        key("kind", Ty::Str, "The room's kind."),
        key("doors", Ty::Cells, "Its doors."),
    ],
};

/// A connected area as `map:components()` returns it.
pub const COMPONENT: Class = Class {
    name: "warren.Component",
    parent: Some(&CELL),
    doc: "A separate open area: its first cell in row-major order (`x`, `y`) and its size.",
    fields: &[key("size", Ty::int(1, i64::MAX), "Cells in the area.")],
};

/// A recipe parameter declaration.
pub const PARAM: Class = Class {
    name: "warren.Param",
    parent: None,
    doc: "A recipe parameter declaration.",
    fields: &[
        key(
            "default",
            Ty::Any,
            "Default value (integer, number, boolean or string); its type is the parameter's type.",
        ),
        key_opt(
            "min",
            Ty::Num {
                min: f64::MIN,
                max: f64::MAX,
            },
            "Smallest allowed value (numbers).",
        ),
        key_opt(
            "max",
            Ty::Num {
                min: f64::MIN,
                max: f64::MAX,
            },
            "Largest allowed value (numbers).",
        ),
        key_opt("choices", Ty::Strings, "Allowed values (strings)."),
        key_opt("doc", Ty::Str, "One-line description for `--list-params`."),
    ],
};

/// What a recipe file returns.
pub const RECIPE: Class = Class {
    name: "warren.Recipe",
    parent: None,
    doc: "What a recipe file returns. Annotate it with `---@type warren.Recipe`.",
    fields: &[
        key_opt("name", Ty::Str, "Recipe name (default: the file name)."),
        key_opt("description", Ty::Str, "One-line description."),
        key("params", Ty::AnyTable, "Declared parameters (`table<string, warren.Param>`); `width` and `height` (integers) are required."),
        key("generate", Ty::Function, "`fun(map: warren.Map, ctx: warren.Ctx)`: builds the map."),
    ],
};
