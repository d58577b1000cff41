//! Classes of the parts of the Lua API whose bindings are not yet declared with
//! [`super::decl`]: `ctx.regions`, `warren.tunnel`, `warren.dungeon` and `warren.town`. The stubs
//! render them as they are until those modules declare their members.

use super::spec::Class;

/// The legacy classes, rendered into the stubs as written.
pub const CLASSES: &[Class] = &[
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
            ("room", "table[]", "Every `[[room]]` region (name, weight, kind, terrains, depth range)."),
            ("streamer", "table[]", "Every `[[streamer]]` (name, weight, kind, terrain, width, depth gate)."),
            ("vault", "table[]", "Every `[[vault]]` (name, weight, depth range, grid, legend)."),
        ],
    },
    Class {
        name: "warren.TunnelModule",
        doc: "`warren.tunnel`: Incursion's `Map::Tunnel`.",
        fields: &[
            ("context", "fun(map: warren.Map, regions: warren.Regions, opts?: {panel_width?: integer, panel_height?: integer, corridor?: string}): warren.Tunnels", "One level's corridor regions, constants, panel size and doors; keeps the level's tunnel state."),
        ],
    },
    Class {
        name: "warren.Tunnels",
        doc: "A level's tunnel context.",
        fields: &[
            ("dig", "fun(self: warren.Tunnels, map: warren.Map, rng: warren.Rng, opts: {from: warren.Cell, to: warren.Cell, flags?: string[], start_dir?: string, length?: integer}): table", "Digs one tunnel; flags connect, direct, length, notouch, exact, wander, natural. Returns `{x, y, stop, style, carved, doors, steps}`."),
            ("fixup", "fun(self: warren.Tunnels, map: warren.Map, rng: warren.Rng, opts?: {trials?: integer}): table", "Joins every open area into one; returns `{areas_before, trials, tunnels}` with the why of each tunnel."),
        ],
    },
    Class {
        name: "warren.DungeonModule",
        doc: "`warren.dungeon`: the phases of an Incursion level, each one Rust call.",
        fields: &[
            ("init", "fun(map: warren.Map, opts: table): table", "Rock, map edge and the panel grid; returns the level."),
            ("streamer", "fun(map: warren.Map, rng: warren.Rng, streamer: table): integer", "Draws one river, chasm, magma or rock streamer."),
            ("carry_chasms", "fun(map: warren.Map, above: warren.Map, opts: table): integer", "Carries the level above's chasms down."),
            ("vault", "fun(map: warren.Map, rng: warren.Rng, level: table, vault: table, opts?: table): table?", "Places a vault grid from region data in free panels."),
            ("room", "fun(map: warren.Map, rng: warren.Rng, panel: table, room: table, limits: table): table", "Draws one room of a kind inside a panel."),
            ("rooms", "fun(map: warren.Map, rng: warren.Rng, level: table, rooms: table[], limits: table): integer", "A weighted room in every free panel."),
            ("connect_panels", "fun(map: warren.Map, rng: warren.Rng, level: table, tunnels: warren.Tunnels, opts?: table): integer", "Tunnels between the closest edge cells of adjacent panels."),
            ("up_stairs", "fun(map: warren.Map, above: warren.Map, opts: table): warren.Cell[]", "Up stairs under the level above's down stairs."),
            ("down_stairs", "fun(map: warren.Map, rng: warren.Rng, opts: table): warren.Cell[]", "Down stairs, not two in one room or region."),
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
];
