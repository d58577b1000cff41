//! The region-file schema. **These doc comments are the modder's reference**: every key a region
//! file may contain is declared here, with its meaning, type and valid range. Unknown keys are
//! errors.
//!
//! Every `*.toml` file under the regions directory may hold any of these sections; together they
//! form one registry. List sections (`[[terrain]]`, `[[corridor]]`, `[[spawn]]`) are concatenated
//! in file-name order; single sections (`[map]`, `[dungeon]`, `[rooms]`, `[cave]`, `[limits]`)
//! may appear in only one file.

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
    /// What may spawn, with weights (`[[spawn]]`).
    #[serde(default)]
    pub spawn: Vec<SpawnDef>,
    /// Budgets for generating with these regions (`[limits]`).
    pub limits: Option<LimitsDef>,
}

/// `[limits]` — the budgets of one generation, for every recipe run with these regions. The
/// command-line flags `--max-instructions`, `--max-memory` and `--max-seconds` override them.
/// A recipe that runs out of a budget stops with an error naming the budget and the line it
/// reached. Every key is optional; leave one out to keep warren's default.
///
/// ```toml
/// [limits]
/// max_instructions = 500_000_000
/// max_memory_mib = 512
/// max_seconds = 10
/// ```
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsDef {
    /// Lua instructions one generation may run, counting the work of Rust primitives and
    /// string patterns as instructions too. This budget is deterministic: the same recipe,
    /// seed and parameters use the same amount on every machine. An integer in
    /// 1_000_000..=100_000_000_000. Default 200_000_000 (about one to two seconds of a busy
    /// loop).
    pub max_instructions: Option<i64>,
    /// Memory one generation may hold, in MiB: the Lua state plus the annotations the recipe
    /// records (rooms, corridors, spawns, tags). An integer in 16..=16384. Default 512.
    pub max_memory_mib: Option<i64>,
    /// Wall-clock seconds one generation may take: a backstop for work the instruction budget
    /// does not see. A number in 0.1..=600. Default 4.
    pub max_seconds: Option<f64>,
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

/// `[[spawn]]` — something that may be spawned, with its weight.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SpawnDef {
    /// What spawns (a monster, item or feature name). Unique among spawns.
    pub name: String,
    /// Relative chance. Finite, ≥ 0.
    pub weight: f64,
}
