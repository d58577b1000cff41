//! **The Lua API reference**: every function, method and field recipes can use, and the tables
//! they take. Adding a binding means adding its entry here (a test fails until both exist);
//! `warren stubs --out scripts/types/warren.d.lua` then refreshes the editor stubs.

use super::spec::{field, function, method, Class, Entry, Owner::*};

/// Every function, method and field of the Lua API.
pub const ENTRIES: &[Entry] = &[
    // ── map ──────────────────────────────────────────────────────────────────────────────
    field(Map, "width", "integer", "Map width in cells."),
    field(Map, "height", "integer", "Map height in cells."),
    method(Map, "in_bounds", "(x: integer, y: integer): boolean", "Whether (x, y) is on the map."),
    method(Map, "is_edge", "(x: integer, y: integer): boolean", "Whether (x, y) is on the map's outer ring."),
    method(Map, "get", "(x: integer, y: integer): string", "The terrain name at (x, y)."),
    method(Map, "priority", "(x: integer, y: integer): integer", "The priority (0..=255) of the last successful write at (x, y)."),
    method(Map, "region", "(x: integer, y: integer): string?", "The region stamped at (x, y), or nil."),
    method(Map, "is_solid", "(x: integer, y: integer): boolean", "Whether the terrain at (x, y) blocks movement."),
    method(Map, "set", "(x: integer, y: integer, terrain: warren.Terrain, opts?: warren.WriteOptions): boolean", "Writes one cell; returns whether the priority rule let the write through."),
    method(Map, "fill", "(terrain: warren.Terrain, opts?: warren.WriteOptions): integer", "Writes every cell (the edge only with `force`); returns how many were written."),
    method(Map, "fill_rect", "(rect: warren.RectLike, terrain: warren.Terrain, opts?: warren.WriteOptions): integer", "Writes every cell of a rectangle; returns how many were written."),
    method(Map, "outline_rect", "(rect: warren.RectLike, terrain: warren.Terrain, opts?: warren.WriteOptions): integer", "Writes the border cells of a rectangle; returns how many were written."),
    method(Map, "write_edge", "(terrain?: warren.Terrain)", "Writes the map's outer ring with force (default: the regions' `[map] edge`)."),
    method(Map, "line", "(x1: integer, y1: integer, x2: integer, y2: integer, terrain: warren.Terrain, opts?: warren.PathOptions): integer", "Carves a Bresenham line; returns how many cells changed."),
    method(Map, "dogleg", "(x1: integer, y1: integer, x2: integer, y2: integer, terrain: warren.Terrain, opts?: warren.DoglegOptions): integer", "Carves a one-bend path; returns how many cells changed."),
    method(Map, "carve_rooms", "(rooms: warren.RectList|warren.RectLike[], terrain: warren.Terrain, opts?: warren.CarveOptions): integer", "Fills every room of a list and records each as a room of `opts.kind` (default \"room\"); returns how many."),
    method(Map, "add_room", "(rect: warren.RectLike, kind?: string): integer", "Records a room (default kind \"room\"); returns its 1-based index."),
    method(Map, "add_door", "(x: integer, y: integer, room?: integer)", "Records a door, optionally belonging to room number `room`."),
    method(Map, "add_stair", "(x: integer, y: integer, dir: \"up\"|\"down\")", "Records a staircase."),
    method(Map, "add_spawn", "(x: integer, y: integer, what: string)", "Records a spawn point."),
    method(Map, "add_corridor", "(cells: warren.Cell[], region?: string): integer", "Records a corridor's cells; returns its 1-based index."),
    method(Map, "tag", "(key: string, value: boolean|number|string)", "Sets a free-form tag, exported in JSON."),
    method(Map, "rooms", "(): warren.RoomRecord[]", "The rooms recorded so far."),
    method(Map, "corridors", "(): warren.Cell[][]", "The corridors recorded so far, as lists of cells."),
    method(Map, "count", "(terrain: warren.Terrain): integer", "How many cells hold this terrain."),
    method(Map, "open_count", "(): integer", "How many cells do not block movement."),
    method(Map, "snapshot", "(label: string)", "Records the map as it is now; `warren run --frames DIR` writes one PNG per snapshot. Free when frames are not asked for."),
    method(Map, "add_layer", "(name: string, layer: warren.LayerSpec)", "Attaches a debug layer, shown with `--layer NAME` (replaces a layer of the same name)."),
    // ── rng ──────────────────────────────────────────────────────────────────────────────
    method(Rng, "int", "(lo: integer, hi: integer): integer", "A uniform integer in lo..=hi."),
    method(Rng, "below", "(n: integer): integer", "A uniform integer in 0..n (Incursion's random(n)); n ≥ 1."),
    method(Rng, "chance", "(percent: integer): boolean", "True with the given percent chance."),
    method(Rng, "float", "(): number", "A uniform number in [0, 1)."),
    method(Rng, "pick", "(list: any[]): any, integer", "A uniform random item of a non-empty list, and its index."),
    method(Rng, "weighted", "(list: table[], key?: string): any, integer?", "An item picked by its `weight` (or `key`) field, and its index; nil when every weight is 0."),
    method(Rng, "shuffle", "(list: any[]): any[]", "Shuffles a list in place and returns it."),
    method(Rng, "stream", "(name: string): warren.Rng", "An independent generator derived from this one's seed and `name`."),
    method(Rng, "seed", "(): integer", "This generator's seed."),
    // ── rect (warren.rect) ───────────────────────────────────────────────────────────────
    field(Rect, "x", "integer", "Left column."),
    field(Rect, "y", "integer", "Top row."),
    field(Rect, "w", "integer", "Width in cells."),
    field(Rect, "h", "integer", "Height in cells."),
    method(Rect, "x2", "(): integer", "Right column (inclusive)."),
    method(Rect, "y2", "(): integer", "Bottom row (inclusive)."),
    method(Rect, "center", "(): integer, integer", "The centre cell (rounded towards the top left)."),
    method(Rect, "contains", "(x: integer, y: integer): boolean", "Whether the cell lies inside."),
    method(Rect, "intersects", "(other: warren.RectLike, margin?: integer): boolean", "Whether the rectangles overlap, or come within `margin` cells."),
    // ── ctx ──────────────────────────────────────────────────────────────────────────────
    field(Ctx, "rng", "warren.Rng", "The run's seeded generator; `math.random` draws from it too."),
    field(Ctx, "seed", "integer", "The level's seed."),
    field(Ctx, "depth", "integer", "1-based depth of the level."),
    field(Ctx, "params", "table<string, integer|number|boolean|string>", "Parameter values (read-only), as declared in the recipe's `params`."),
    field(Ctx, "regions", "warren.Regions", "The region files' data (read-only)."),
    field(Ctx, "above", "warren.Map?", "The level above in a multi-level run (`--levels N`), else nil."),
    function(Ctx, "log", "(...: any)", "Prints to stderr as `[recipe] …` (like `print`)."),
    function(Ctx, "metric", "(name: string, value: number)", "Records a statistic, exported in JSON `stats`."),
    // ── warren ───────────────────────────────────────────────────────────────────────────
    field(Warren, "version", "string", "warren's version."),
    field(Warren, "prio", "warren.Prio", "Incursion's write priorities by name."),
    field(Warren, "gen", "warren.gen", "Whole generation phases implemented in Rust."),
    field(Warren, "town", "warren.TownModule", "TownMaze as phases (seed 002)."),
    function(Warren, "status_lists", "(opts: {cells: integer, statuses: string[], initial?: string}): warren.StatusLists", "Status lists for any \"grow until every cell is served\" generator."),
    function(Warren, "rect", "(x: integer|warren.RectLike, y?: integer, w?: integer, h?: integer): warren.Rect", "A rectangle with helper methods, from four numbers or a `{x=, y=, w=, h=}` table."),
    // ── warren.gen ───────────────────────────────────────────────────────────────────────
    function(Gen, "scatter_rooms", "(map: warren.Map, rng: warren.Rng, opts?: warren.ScatterOptions): warren.RectList", "Random room floors that neither overlap nor touch (nothing is written), as a rectangle list held in Rust."),
    function(Gen, "connect_rooms", "(map: warren.Map, rng: warren.Rng, rooms: warren.RectList|warren.RectLike[], opts: warren.ConnectOptions): integer", "Joins rooms with corridors by a strategy and records them; returns how many corridors were drawn."),
    function(Gen, "spawn_in_corridors", "(map: warren.Map, rng: warren.Rng, opts: warren.SpawnOptions): integer", "Places spawns on recorded corridors' cells; returns how many."),
    function(Gen, "join_areas", "(map: warren.Map, rng: warren.Rng, opts: warren.JoinOptions): warren.JoinReport", "Joins every separate open area to the first with one-bend tunnels."),
];

/// The tables the API takes and returns.
pub const CLASSES: &[Class] = &[
    Class {
        name: "warren.RectLike",
        doc: "A rectangle as a table: `{x=, y=, w=, h=}` (or `{x, y, w, h}`).",
        fields: &[
            ("x", "integer", "Left column."),
            ("y", "integer", "Top row."),
            ("w", "integer", "Width in cells (≥ 1)."),
            ("h", "integer", "Height in cells (≥ 1)."),
        ],
    },
    Class {
        name: "warren.RectList",
        doc: "Rectangles held in Rust (from `warren.gen.scatter_rooms`): `#list`, `list[i]` (a `warren.RectLike` table), `list:sort(\"leftmost\"|\"topmost\"|\"largest\")`, `list:list()` (plain Lua tables). Passed to phase calls without conversion.",
        fields: &[],
    },
    Class {
        name: "warren.CarveOptions : warren.WriteOptions",
        doc: "Options of `map:carve_rooms`.",
        fields: &[("kind?", "string", "Kind recorded for each room (default \"room\").")],
    },
    Class {
        name: "warren.Cell",
        doc: "A cell as a table `{x=, y=}`.",
        fields: &[("x", "integer", "Column."), ("y", "integer", "Row.")],
    },
    Class {
        name: "warren.WriteOptions",
        doc: "How a write paints cells.",
        fields: &[
            ("priority?", "integer|string", "Write priority 0..=255 or a name (\"room_floor\"); the write fails on cells of higher priority. Without it the write is unconditional."),
            ("force?", "boolean", "Write even on the map edge and regardless of priority."),
            ("region?", "string", "Region name to stamp on written cells."),
        ],
    },
    Class {
        name: "warren.PathOptions : warren.WriteOptions",
        doc: "Options of `map:line`.",
        fields: &[("corridor?", "boolean", "Record the carved cells as a corridor.")],
    },
    Class {
        name: "warren.DoglegOptions : warren.PathOptions",
        doc: "Options of `map:dogleg`.",
        fields: &[("first?", "\"horizontal\"|\"vertical\"", "Which leg comes first (default horizontal).")],
    },
    Class {
        name: "warren.LayerSpec",
        doc: "A debug layer drawn as text.",
        fields: &[
            ("rows", "string[]", "One string per map row, one character per cell; a space leaves the cell unmarked."),
            ("colors?", "table<string, string>", "Colour `\"#rrggbb\"` per glyph (default white)."),
        ],
    },
    Class {
        name: "warren.RoomRecord : warren.RectLike",
        doc: "A room recorded with `map:add_room`.",
        fields: &[
            ("kind", "string", "The room's kind."),
            ("doors", "warren.Cell[]", "Its doors."),
        ],
    },
    Class {
        name: "warren.ScatterOptions",
        doc: "Options of `warren.gen.scatter_rooms`.",
        fields: &[
            ("attempts?", "integer", "Placement attempts, 0..=100000 (default 30)."),
            ("min_size?", "integer", "Smallest room side, 1..=4096 (default 6)."),
            ("max_size?", "integer", "Largest room side, 1..=4096 (default 10)."),
        ],
    },
    Class {
        name: "warren.ConnectOptions : warren.WriteOptions",
        doc: "Options of `warren.gen.connect_rooms`.",
        fields: &[
            ("terrain", "warren.Terrain", "Corridor floor terrain."),
            ("strategy?", "\"nearest\"|\"lines\"|\"dogleg\"|\"bsp\"", "How rooms are paired (default nearest)."),
        ],
    },
    Class {
        name: "warren.SpawnOptions",
        doc: "Options of `warren.gen.spawn_in_corridors`.",
        fields: &[
            ("table", "{name: string, weight?: number}[]", "What may spawn, by weight (e.g. `ctx.regions.spawn`)."),
            ("max_per_area?", "integer", "The spawner's MAX_MONSTERS, 0..=1000 (default 4)."),
            ("depth?", "integer", "Level depth, 1..=1000 (default 1)."),
        ],
    },
    Class {
        name: "warren.JoinOptions : warren.WriteOptions",
        doc: "Options of `warren.gen.join_areas`.",
        fields: &[
            ("terrain", "warren.Terrain", "Tunnel floor terrain."),
            ("trials?", "integer", "Fix-up rounds, 1..=100000 (default 64)."),
        ],
    },
    Class {
        name: "warren.JoinReport",
        doc: "What `warren.gen.join_areas` did.",
        fields: &[
            ("areas_before", "integer", "Separate open areas before joining."),
            ("tunnels", "integer", "Tunnels dug."),
        ],
    },
    Class {
        name: "warren.Regions",
        doc: "`ctx.regions`: the region files' data; keys as in src/region/schema.rs.",
        fields: &[
            ("terrain", "{name: string, glyph: string, color: string, solid: boolean, description: string}[]", "Every `[[terrain]]`."),
            ("dungeon", "{turn_chance: integer, stubborn_corridor: integer, segment_minlen: integer, segment_maxlen: integer}", "`[dungeon]` constants."),
            ("corridor", "{name: string, weight: number, floor: string, walls: string, door: string, staple: boolean, constants: table}[]", "Every `[[corridor]]` region."),
            ("rooms?", "{floor: string, corridor: string, wall: string}", "`[rooms]`, if declared."),
            ("cave?", "{floor: string, wall: string, entrance: string, exit: string, pillar: string}", "`[cave]`, if declared."),
            ("spawn", "{name: string, weight: number}[]", "Every `[[spawn]]`."),
            ("town?", "table", "`[town]` terrains (and the optional `[town.debug]`), if declared."),
        ],
    },
    Class {
        name: "warren.TownModule",
        doc: "`warren.town`: TownMaze (seed 002) as phases.",
        fields: &[
            ("new", "fun(params: {height?: integer, width?: integer, gates?: integer, leftgates?: integer, courts?: integer, unused?: integer, straightness?: integer}): warren.Town", "Checks every sanity rule (all broken rules in one error), then makes and fills the town."),
            ("limits", "fun(height: integer, width: integer): {gates: integer, courts: integer, unused: integer}", "The most gates, courts and unused cells a size allows."),
            ("MIN_SIDE", "integer", "Smallest height or width (11)."),
            ("MAX_SIDE", "integer", "Largest height or width."),
            ("MAX_STRAIGHTNESS", "integer", "Largest straightness (998)."),
        ],
    },
    Class {
        name: "warren.Town",
        doc: "A TownMaze town held in Rust; one method per step of the original.",
        fields: &[
            ("height", "integer", "Height in characters."),
            ("width", "integer", "Width in characters."),
            ("rows", "integer", "Cell rows."),
            ("cols", "integer", "Cell columns."),
            ("fill", "fun(self: warren.Town)", "Step 3: walls, rooms, corner cells UNUSED."),
            ("make_unused", "fun(self: warren.Town, rng: warren.Rng): integer", "Step 4a: UNUSED interior cells."),
            ("make_gates", "fun(self: warren.Town, rng: warren.Rng): integer", "Step 4b: gates on the border."),
            ("make_courts", "fun(self: warren.Town, rng: warren.Rng): integer", "Step 4c: courtyards."),
            ("connect_streets", "fun(self: warren.Town, rng: warren.Rng)", "Step 5: join every street."),
            ("finish_alleys", "fun(self: warren.Town, rng: warren.Rng)", "Step 6: alleys until no isolated room remains."),
            ("close_doors", "fun(self: warren.Town, rng: warren.Rng)", "Step 7: one door per room."),
            ("close_gates", "fun(self: warren.Town, rng: warren.Rng): integer", "Step 8: close gates down to leftgates."),
            ("cleanup_map", "fun(self: warren.Town): integer", "Step 9: remove isolated pillars."),
            ("make_street", "fun(self: warren.Town, rng: warren.Rng, row: integer, col: integer, heading?: string): boolean", "makestreet on one cell."),
            ("status", "fun(self: warren.Town, row: integer, col: integer): string", "A cell's status."),
            ("heading", "fun(self: warren.Town, row: integer, col: integer): string?", "A street cell's direction."),
            ("count", "fun(self: warren.Town, status: string): integer", "Cells with a status."),
            ("distinct_streets", "fun(self: warren.Town): integer", "How many separate streets remain."),
            ("render", "fun(self: warren.Town): string", "showmaze."),
            ("render_debug", "fun(self: warren.Town): string", "showdebugmaze."),
            ("write", "fun(self: warren.Town, map: warren.Map, opts: {style: table, view?: \"map\"|\"debug\"}): {rooms: integer, gates: integer, street_cells: integer}", "Draws the town on the map and records rooms, doors, gates and streets."),
        ],
    },
    Class {
        name: "warren.StatusLists",
        doc: "Cells each on exactly one named status list, with O(1) move, count and uniform pick.",
        fields: &[
            ("move", "fun(self: warren.StatusLists, cell: integer, status: string)", "Moves a cell to a list."),
            ("status", "fun(self: warren.StatusLists, cell: integer): string", "A cell's status."),
            ("count", "fun(self: warren.StatusLists, status: string): integer", "Cells on a list."),
            ("pick", "fun(self: warren.StatusLists, status: string, rng: warren.Rng): integer?", "A uniform random cell of a list, or nil."),
            ("cells", "fun(self: warren.StatusLists, status: string): integer[]", "A snapshot of a list."),
            ("reset", "fun(self: warren.StatusLists, status: string)", "Puts every cell on one list."),
            ("statuses", "fun(self: warren.StatusLists): string[]", "The status names."),
        ],
    },
    Class {
        name: "warren.Param",
        doc: "A recipe parameter declaration.",
        fields: &[
            ("default", "integer|number|boolean|string", "Default value; its type is the parameter's type."),
            ("min?", "number", "Smallest allowed value (numbers)."),
            ("max?", "number", "Largest allowed value (numbers)."),
            ("choices?", "string[]", "Allowed values (strings)."),
            ("doc?", "string", "One-line description for `--list-params`."),
        ],
    },
    Class {
        name: "warren.Recipe",
        doc: "What a recipe file returns. Annotate it with `---@type warren.Recipe`.",
        fields: &[
            ("name?", "string", "Recipe name (default: the file name)."),
            ("description?", "string", "One-line description."),
            ("params", "table<string, warren.Param>", "Declared parameters; `width` and `height` (integers) are required."),
            ("generate", "fun(map: warren.Map, ctx: warren.Ctx)", "Builds the map."),
        ],
    },
];
