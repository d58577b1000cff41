//! The region-file schema. **These doc comments are the modder's reference**: every key a region
//! file may contain is declared here, with its meaning, type and valid range. Unknown keys are
//! errors.
//!
//! Every `*.toml` file under the regions directory may hold any of these sections; together they
//! form one registry. List sections (`[[terrain]]`, `[[corridor]]`, `[[spawn]]`) are concatenated
//! in file-name order; single sections (`[map]`, `[dungeon]`, `[rooms]`, `[cave]`, `[town]`) may
//! appear in only one file.

use serde::{Deserialize, Serialize};

/// One region file.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RegionFile {
    /// Terrain definitions (`[[terrain]]`).
    #[serde(default)]
    pub terrain: Vec<TerrainDef>,
    /// What a fresh map is made of (`[map]`).
    pub map: Option<MapDef>,
    /// Incursion-style dungeon constants (`[dungeon]`).
    pub dungeon: Option<DungeonDef>,
    /// Corridor regions: themed tunnel styles chosen by weight (`[[corridor]]`).
    #[serde(default)]
    pub corridor: Vec<CorridorDef>,
    /// Terrain used by the rooms-and-corridors recipe (`[rooms]`).
    pub rooms: Option<RoomsDef>,
    /// Terrain used by the directional-cave recipe (`[cave]`).
    pub cave: Option<CaveDef>,
    /// Terrain used by the TownMaze recipe (`[town]`).
    pub town: Option<TownDef>,
    /// What may spawn, with weights (`[[spawn]]`).
    #[serde(default)]
    pub spawn: Vec<SpawnDef>,
}

/// `[[terrain]]` — one kind of terrain.
///
/// ```toml
/// [[terrain]]
/// name = "rock wall"
/// glyph = "#"
/// color = "#8a8a8a"
/// solid = true
/// ```
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainDef {
    /// Unique name, used by recipes and other region entries. Non-empty.
    pub name: String,
    /// The single character drawn for this terrain in text output. Terrains may share a glyph
    /// only if they agree on `solid` (JSON consumers read passability from the glyph).
    pub glyph: String,
    /// Colour for ANSI and PNG output, as `"#rrggbb"`.
    pub color: String,
    /// `true` if the terrain blocks movement (walls, rock), `false` if it is open (floors,
    /// doors, stairs, water).
    pub solid: bool,
    /// Optional note for modders; not used by generation.
    #[serde(default)]
    pub description: String,
}

/// `[map]` — how the host prepares a fresh map before the recipe runs.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MapDef {
    /// Terrain every cell starts as. Default: the first `[[terrain]]` declared.
    pub fill: Option<String>,
    /// Terrain recipes use for the map's outer ring. Default: same as `fill`.
    pub edge: Option<String>,
}

/// `[dungeon]` — constants of Incursion-style levels. Corridor regions may override the four
/// corridor constants for the tunnels they draw.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct DungeonDef {
    /// Percent chance per step that a corridor turns once its segment is longer than
    /// `segment_minlen`. 0..=100. Default 10.
    pub turn_chance: i64,
    /// Percent chance that a turn ignores the destination and goes a random way. 0..=100.
    /// Default 30.
    pub stubborn_corridor: i64,
    /// Shortest corridor segment before a voluntary turn. 1..=1000, ≤ `segment_maxlen`.
    /// Default 4.
    pub segment_minlen: i64,
    /// Longest corridor segment before a forced turn. 1..=1000. Default 10.
    pub segment_maxlen: i64,
}

impl Default for DungeonDef {
    fn default() -> Self {
        DungeonDef {
            turn_chance: 10,
            stubborn_corridor: 30,
            segment_minlen: 4,
            segment_maxlen: 10,
        }
    }
}

/// The four corridor constants a corridor region may override (each optional).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CorridorConstants {
    /// Overrides `[dungeon] turn_chance` for this region's tunnels. 0..=100.
    pub turn_chance: Option<i64>,
    /// Overrides `[dungeon] stubborn_corridor`. 0..=100.
    pub stubborn_corridor: Option<i64>,
    /// Overrides `[dungeon] segment_minlen`. 1..=1000.
    pub segment_minlen: Option<i64>,
    /// Overrides `[dungeon] segment_maxlen`. 1..=1000.
    pub segment_maxlen: Option<i64>,
}

/// `[[corridor]]` — a corridor region: the look and the wandering habits of a tunnel.
///
/// ```toml
/// [[corridor]]
/// name = "winding corridor"
/// weight = 3
/// floor = "floor"
/// walls = "rock wall"
/// door = "door"
/// staple = true
/// [corridor.constants]
/// turn_chance = 10
/// ```
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CorridorDef {
    /// Unique name among corridor regions.
    pub name: String,
    /// Relative chance of being chosen for a tunnel. Finite, ≥ 0; 0 disables the region.
    pub weight: f64,
    /// Terrain of the corridor floor.
    pub floor: String,
    /// Terrain of the walls written around the floor.
    pub walls: String,
    /// Terrain of doors made where tunnels meet this region's cells.
    pub door: String,
    /// If `true` the region may be chosen again on the same level; otherwise it is used at most
    /// once per level while other regions remain.
    #[serde(default)]
    pub staple: bool,
    /// Overrides of the dungeon's corridor constants, for this region's tunnels only.
    #[serde(default)]
    pub constants: CorridorConstants,
}

/// `[rooms]` — terrain for the rooms-and-corridors recipe (`scripts/rooms.lua`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RoomsDef {
    /// Room floor terrain.
    pub floor: String,
    /// Corridor floor terrain.
    pub corridor: String,
    /// Terrain around rooms and corridors (usually what the map is filled with).
    pub wall: String,
}

/// `[cave]` — terrain for the directional-cave recipe (`scripts/cave.lua`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CaveDef {
    /// Open cave floor.
    pub floor: String,
    /// Solid cave wall (what the map is filled with).
    pub wall: String,
    /// Marks the entrance cell.
    pub entrance: String,
    /// Marks the exit cell.
    pub exit: String,
    /// Pillars placed by the `pillars` row event.
    pub pillar: String,
}

/// `[town]` — terrain for the TownMaze recipe (`scripts/townmaze.lua`). The town is drawn
/// character for character as TownMaze printed it: walls on even rows and columns, one cell
/// (a room, a street or an unused block) at each odd row and column. TownMaze's own characters
/// are given in brackets; terrains drawn alike must agree on `solid`.
///
/// ```toml
/// [town]
/// wall = "town wall"
/// vertical_door = "town door |"
/// horizontal_door = "town door -"
/// vertical_gate = "town gate |"
/// horizontal_gate = "town gate -"
/// street = "street"
/// floor = "town floor"
/// unused = "town block"
/// ```
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TownDef {
    /// Walls between cells, the town wall, closed doors and closed gates (`#`).
    pub wall: String,
    /// An open door in a vertical wall, leading east or west from a room to a street (`|`).
    pub vertical_door: String,
    /// An open door in a horizontal wall, leading north or south from a room (`-`).
    pub horizontal_door: String,
    /// An open gate in the west or east town wall (`|`).
    pub vertical_gate: String,
    /// An open gate in the north or south town wall (`-`).
    pub horizontal_gate: String,
    /// Street cells, the open walls between them and removed pillars (a space).
    pub street: String,
    /// The floor of a room: the centre of a room cell (a space).
    pub floor: String,
    /// The centre of an UNUSED cell, a solid block that is neither room nor street; the four
    /// corners are always unused (`#`).
    pub unused: String,
    /// Terrains of the debug view (`showdebugmaze`), drawn at cell centres instead of `floor`,
    /// `street` and `unused`. Optional; needed only to show a town with `view = "debug"`.
    pub debug: Option<TownDebugDef>,
}

/// `[town.debug]` — the debug view of a town: each cell centre shows the cell's status, or for
/// a street the way it runs.
///
/// ```toml
/// [town.debug]
/// isolated = "debug isolated"
/// live = "debug live"
/// dead = "debug dead"
/// unused = "debug unused"
/// north = "debug north"
/// east = "debug east"
/// south = "debug south"
/// west = "debug west"
/// no_heading = "debug no heading"
/// ```
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TownDebugDef {
    /// A room with no street beside it (`I`).
    pub isolated: String,
    /// A room beside a street and beside an isolated room: it may still become a street (`L`).
    pub live: String,
    /// A room beside a street and beside no isolated room (`D`).
    pub dead: String,
    /// An unused block (`U`).
    pub unused: String,
    /// A street running north (`^`).
    pub north: String,
    /// A street running east (`>`).
    pub east: String,
    /// A street running south (`v`).
    pub south: String,
    /// A street running west (`<`).
    pub west: String,
    /// A street with no direction (`X`).
    pub no_heading: String,
}

/// `[[spawn]]` — something that may be spawned, with its weight.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SpawnDef {
    /// What spawns (a monster, item or feature name). Unique among spawns.
    pub name: String,
    /// Relative chance. Finite, ≥ 0.
    pub weight: f64,
}
