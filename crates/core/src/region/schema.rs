//! The region-file schema. **These doc comments are the modder's reference**: every key a region
//! file may contain is declared here, with its meaning, type and valid range. Unknown keys are
//! errors.
//!
//! Every `*.toml` file under the regions directory may hold any of these sections; together they
//! form one registry. List sections (`[[terrain]]`, `[[door]]`, `[[corridor]]`, `[[room]]`,
//! `[[streamer]]`, `[[vault]]`, `[[prefab]]`, `[[spawn]]`, `[[sample]]`) are concatenated in
//! file-name order; single sections (`[map]`, `[dungeon]`, `[rooms]`, `[cave]`, `[town]`, `[limits]`) may appear
//! in only one file. Corridor, room, streamer, vault and prefab regions share one namespace:
//! their names are stamped on the map's cells, so each name may be used once.
//!
//! Every integer key's valid range and default is stated once, in the [`IntKey`] constants at
//! the end of this file (`TURN_CHANCE`, `PANEL_WIDTH`, …): loading checks them, the defaults
//! below come from them, the Lua bindings read them, and a test holds the doc comments to them.
//!
//! The sections recipes see are written with [`section!`](super::shape::section): each field
//! ends with its [`Spec`](super::shape::Spec) (`=> int(TURN_CHANCE)`), and the struct gets a
//! `SHAPE` constant — its doc comment and keys as data — from which the Lua API's classes of
//! `ctx.regions` are made.

use super::shape::section;
use crate::gen::dungeon::{
    RoomKind, StreamerKind, MAX_PANEL, MAX_STREAMER_WIDTH, MIN_PANEL, MIN_ROOM,
};
use crate::map::DoorWeights;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One region file.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RegionFile {
    /// Terrain definitions (`[[terrain]]`).
    #[serde(default)]
    pub terrain: Vec<TerrainDef>,
    /// Kinds of door and how each state is drawn (`[[door]]`).
    #[serde(default)]
    pub door: Vec<DoorDef>,
    /// What a fresh map is made of (`[map]`).
    pub map: Option<MapDef>,
    /// Incursion-style dungeon constants (`[dungeon]`).
    pub dungeon: Option<DungeonDef>,
    /// Corridor regions: themed tunnel styles chosen by weight (`[[corridor]]`).
    #[serde(default)]
    pub corridor: Vec<CorridorDef>,
    /// Room regions: the kind and look of the room drawn in a panel (`[[room]]`).
    #[serde(default)]
    pub room: Vec<RoomDef>,
    /// Streamer regions: rivers, chasms, lava and rock veins (`[[streamer]]`).
    #[serde(default)]
    pub streamer: Vec<StreamerDef>,
    /// Vaults: predefined rooms drawn from a grid of glyphs (`[[vault]]`).
    #[serde(default)]
    pub vault: Vec<VaultDef>,
    /// Vault templates for the toolbox's placement (`[[prefab]]`).
    #[serde(default)]
    pub prefab: Vec<PrefabDef>,
    /// Terrain used by the rooms-and-corridors recipe (`[rooms]`).
    pub rooms: Option<RoomsDef>,
    /// Terrain used by the directional-cave recipe (`[cave]`).
    pub cave: Option<CaveDef>,
    /// Terrain used by the TownMaze recipe (`[town]`).
    pub town: Option<TownDef>,
    /// What may spawn, with weights (`[[spawn]]`).
    #[serde(default)]
    pub spawn: Vec<SpawnDef>,
    /// Sample maps for wave function collapse (`[[sample]]`).
    #[serde(default)]
    pub sample: Vec<SampleDef>,
    /// Budgets for generating with these regions (`[limits]`).
    pub limits: Option<LimitsDef>,
}

/// `[limits]` — lower budgets for one generation, for every recipe run with these regions.
/// Region files may come from strangers, so they can only **lower** a budget, never raise it:
/// the user allows a budget (`--max-instructions`, `--max-memory`, `--max-seconds`, else
/// warren's default) and the lower of the two applies. A key above the budget the user allows
/// has no effect beyond a warning naming its file, line and column (and `warren check` reports
/// it). A recipe that runs out of a budget stops with an error naming the budget and the line
/// it reached. Every key is optional; leave one out to keep the user's budget.
///
/// ```toml
/// [limits]
/// max_instructions = 50_000_000   # this region set needs far less than the default
/// max_memory_mib = 128
/// max_seconds = 1.5
/// ```
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LimitsDef {
    /// Lua instructions one generation may run, counting the work of Rust primitives and
    /// string patterns as instructions too. This budget is deterministic: the same recipe,
    /// seed and parameters use the same amount on every machine. An integer in
    /// 1_000_000..=100_000_000_000, at most what the user allows (default 400_000_000, about
    /// two to three seconds of a busy loop).
    #[schemars(range(min = MAX_INSTRUCTIONS.min, max = MAX_INSTRUCTIONS.max))]
    pub max_instructions: Option<i64>,
    /// Memory one generation may hold, in MiB: the Lua state plus the annotations the recipe
    /// records (rooms, corridors, spawns, tags). An integer in 16..=16384, at most what the
    /// user allows (default 512).
    #[schemars(range(min = MAX_MEMORY_MIB.min, max = MAX_MEMORY_MIB.max))]
    pub max_memory_mib: Option<i64>,
    /// Wall-clock seconds one generation may take: a backstop for work the instruction budget
    /// does not see. A number in 0.1..=600, at most what the user allows (default 4).
    #[schemars(range(min = MAX_SECONDS.0, max = MAX_SECONDS.1))]
    pub max_seconds: Option<f64>,
}

section! {
/// `[[terrain]]` — one kind of terrain.
///
/// ```toml
/// [[terrain]]
/// name = "rock wall"
/// glyph = "#"
/// color = "#8a8a8a"
/// solid = true
/// ```
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainDef {
    /// Unique name, used by recipes and other region entries. Non-empty.
    #[schemars(length(min = 1))]
    pub name: String => text(),
    /// The single character drawn for this terrain in text output. Terrains may share a glyph
    /// only if they agree on `solid` (JSON consumers read passability from the glyph).
    #[schemars(length(equal = 1))]
    pub glyph: String => text(),
    /// Colour for ANSI and PNG output, as `"#rrggbb"`.
    #[schemars(regex(pattern = r"^#[0-9a-fA-F]{6}$"))]
    pub color: String => text(),
    /// `true` if the terrain blocks movement (walls, rock, closed doors), `false` if it is open
    /// (floors, open doors, stairs, water). JSON's legend reports it as `solid`.
    pub solid: bool => required(KeyKind::Bool),
    /// `true` for an open terrain a walker must not cross: a chasm to fall down, magma that
    /// burns. Flood fill, components and the fix-ups treat hazards as walls (the dungeon's
    /// fix-up lays `[dungeon] bridge` across them where a level would otherwise fall apart),
    /// stairs never go on them, and JSON's legend reports them as `hazard`. Only open terrain
    /// may be a hazard; terrains that share a glyph must agree on it. Default `false` (water
    /// can be waded or swum, so the shipped water is no hazard).
    #[serde(default)]
    pub hazard: bool => flag(false),
    /// What entering this terrain costs a walker in the toolbox's distance maps and paths
    /// (`warren.toolbox.distance`, `path`, `farthest`): a whole number 1..=1000, even for a
    /// solid terrain (a river finder may cross rock at a price). A recipe's `costs` option
    /// overrides it. Without it, an open terrain costs 1 and a solid one is never entered.
    #[schemars(range(min = 1, max = 1000))]
    pub move_cost: Option<u32> => optional(KeyKind::Int { min: 1, max: 1000 }),
    /// Optional note for modders; not used by generation.
    #[serde(default)]
    pub description: String => or(KeyKind::Text, Value::Text("")),
}
}

section! {
/// `[[door]]` — a kind of door: the terrain each of its states is drawn with, and how often a
/// new door gets each state. Corridor and room regions name a kind as their `door`, and a
/// vault legend may map a glyph to one.
///
/// A door is a feature on a cell, as in Incursion: while a level is built it is drawn with its
/// `closed` terrain and the cell keeps its wall's priority. When the level is finished
/// (`warren.dungeon.finish_doors`), doors that touch go in pairs (walled up again, unless a wall
/// there would cut the level in two: then the door stays, broken); a door that does not stand
/// between two walls becomes a broken doorway; a maze's secret doors stay secret; every other
/// door draws its state by `weights`; and each door is drawn with its state's terrain.
/// The state is in JSON's `doors` (`"state": "locked"`). Whatever its state, a walker can pass a
/// door, so connectivity counts every door cell as passable.
///
/// ```toml
/// [[door]]
/// name = "oak door"
/// closed = "door"          # solid
/// open = "open door"       # open
/// locked = "locked door"   # solid; default: closed
/// broken = "broken door"   # open; default: open
/// # secret = "..."         # solid; default: drawn as the wall beside it
/// # wooden = false         # default true; see [dungeon] wooden_door_depth
/// [door.weights]           # Incursion's chances (the defaults)
/// closed = 27
/// open = 6
/// locked = 27
/// secret = 10
/// ```
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DoorDef {
    /// Unique name among door kinds, used by `door = "…"` in corridor and room regions and by
    /// vault legends. Non-empty.
    #[schemars(length(min = 1))]
    pub name: String => text(),
    /// Terrain of a closed door. Must be solid (a closed door blocks movement and sight).
    pub closed: String => terrain(),
    /// Terrain of an open door. Must be open and not a hazard.
    pub open: String => terrain(),
    /// Terrain of a locked door. Must be solid. Default: `closed`.
    pub locked: Option<String> => optional(KeyKind::Terrain),
    /// Terrain of a broken door, an empty doorway. Must be open and not a hazard. Default:
    /// `open`.
    pub broken: Option<String> => optional(KeyKind::Terrain),
    /// Terrain of a secret door. Must be solid. Default: none, and a secret door is drawn as
    /// the wall beside it (the one below a door between north and south walls, the one to the
    /// right of a door between west and east walls), as Incursion draws it.
    pub secret: Option<String> => optional(KeyKind::Terrain),
    /// How often a new door gets each state.
    #[serde(default)]
    pub weights: DoorWeightsDef => optional(KeyKind::Table(&DoorWeightsDef::SHAPE)),
    /// Whether the door is wooden (Incursion's door material). On levels at most `[dungeon]
    /// wooden_door_depth` deep, corridor and room regions whose door is not wooden make
    /// `[dungeon] wooden_door` doors instead, unless they set `keep_doors` (Incursion's
    /// `MakeDoor`: "some character types can't get through the other kinds of doors in the
    /// early game"). Default true.
    #[serde(default = "yes")]
    pub wooden: bool => flag(true),
}
}

fn yes() -> bool {
    true
}

fn one() -> f64 {
    1.0
}

section! {
/// `[door.weights]` — relative chances of the states a new door gets (finite, ≥ 0; all 0 makes
/// every door closed). Broken is not drawn: it follows from where a door stands. The defaults
/// are Incursion's `Door` constructor (1 in 10 open, half of the rest locked, then 1 in 7
/// secret), which as weights over 70 are closed 27, open 6, locked 27, secret 10.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct DoorWeightsDef {
    /// Weight of a closed door. Default 27.
    #[schemars(range(min = 0))]
    pub closed: f64 => or(KeyKind::Weight, Value::Num(DoorWeights::INCURSION.closed)),
    /// Weight of an open door. Default 6.
    #[schemars(range(min = 0))]
    pub open: f64 => or(KeyKind::Weight, Value::Num(DoorWeights::INCURSION.open)),
    /// Weight of a locked door. Default 27.
    #[schemars(range(min = 0))]
    pub locked: f64 => or(KeyKind::Weight, Value::Num(DoorWeights::INCURSION.locked)),
    /// Weight of a secret door. Default 10.
    #[schemars(range(min = 0))]
    pub secret: f64 => or(KeyKind::Weight, Value::Num(DoorWeights::INCURSION.secret)),
}
}

impl Default for DoorWeightsDef {
    fn default() -> Self {
        let w = crate::map::DoorWeights::INCURSION;
        DoorWeightsDef {
            closed: w.closed,
            open: w.open,
            locked: w.locked,
            secret: w.secret,
        }
    }
}

/// `[map]` — how the host prepares a fresh map before the recipe runs.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapDef {
    /// Terrain every cell starts as. Default: the first `[[terrain]]` declared.
    pub fill: Option<String>,
    /// Terrain recipes use for the map's outer ring. Default: same as `fill`.
    pub edge: Option<String>,
}

section! {
/// `[dungeon]` — constants of Incursion-style levels (`scripts/dungeon.lua`). Every key is
/// optional; the defaults are shown. Corridor regions may override the four corridor constants
/// for the tunnels they draw.
///
/// ```toml
/// [dungeon]
/// level_width = 128        # a multiple of panel_width, at most 32 panels
/// panel_width = 32
/// min_streamers = 0
/// max_streamers = 2
/// fixup_trials = 26
/// ```
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct DungeonDef {
    /// Percent chance per step that a corridor turns once its segment is longer than
    /// `segment_minlen`. 0..=100. Default 10.
    #[schemars(range(min = TURN_CHANCE.min, max = TURN_CHANCE.max))]
    pub turn_chance: i64 => int(TURN_CHANCE),
    /// Percent chance that a turn ignores the destination and goes a random way. 0..=100.
    /// Default 30.
    #[schemars(range(min = STUBBORN_CORRIDOR.min, max = STUBBORN_CORRIDOR.max))]
    pub stubborn_corridor: i64 => int(STUBBORN_CORRIDOR),
    /// Shortest corridor segment before a voluntary turn. 1..=1000, ≤ `segment_maxlen`.
    /// Default 4.
    #[schemars(range(min = SEGMENT_MINLEN.min, max = SEGMENT_MINLEN.max))]
    pub segment_minlen: i64 => int(SEGMENT_MINLEN),
    /// Longest corridor segment before a forced turn. 1..=1000. Default 10.
    #[schemars(range(min = SEGMENT_MAXLEN.min, max = SEGMENT_MAXLEN.max))]
    pub segment_maxlen: i64 => int(SEGMENT_MAXLEN),
    /// Level width in cells (`LEVEL_SIZEX`), used when the recipe's `width` parameter is 0.
    /// 16..=4096, a multiple of `panel_width`, at most 32 panels across. Default 128.
    #[schemars(range(min = LEVEL_WIDTH.min, max = LEVEL_WIDTH.max))]
    pub level_width: i64 => int(LEVEL_WIDTH),
    /// Level height in cells (`LEVEL_SIZEY`). 16..=4096, a multiple of `panel_height`, at most
    /// 32 panels down. Default 128.
    #[schemars(range(min = LEVEL_HEIGHT.min, max = LEVEL_HEIGHT.max))]
    pub level_height: i64 => int(LEVEL_HEIGHT),
    /// Panel width in cells (`PANEL_SIZEX`): each panel holds one room or part of a vault.
    /// 8..=256. Default 32.
    #[schemars(range(min = PANEL_WIDTH.min, max = PANEL_WIDTH.max))]
    pub panel_width: i64 => int(PANEL_WIDTH),
    /// Panel height in cells (`PANEL_SIZEY`). 8..=256. Default 32.
    #[schemars(range(min = PANEL_HEIGHT.min, max = PANEL_HEIGHT.max))]
    pub panel_height: i64 => int(PANEL_HEIGHT),
    /// Fewest streamers on a level (`MIN_STREAMERS`). 0..=64, ≤ `max_streamers`. Default 0.
    #[schemars(range(min = MIN_STREAMERS.min, max = MIN_STREAMERS.max))]
    pub min_streamers: i64 => int(MIN_STREAMERS),
    /// Most streamers on a level (`MAX_STREAMERS`); the count is drawn uniformly from the
    /// range unless `streamer_chance` is given. 0..=64. Default 2.
    #[schemars(range(min = MAX_STREAMERS.min, max = MAX_STREAMERS.max))]
    pub max_streamers: i64 => int(MAX_STREAMERS),
    /// Incursion's count of streamers (`STREAMER_CHANCE`): `min_streamers`, then one more
    /// for each success in a row of this percent chance, up to `max_streamers`, so fewer
    /// streamers are likelier than more (Incursion's own constants use 70). 0..=100. Default:
    /// none, and the count is drawn uniformly from `min_streamers..=max_streamers`.
    #[schemars(range(min = STREAMER_CHANCE.min, max = STREAMER_CHANCE.max))]
    pub streamer_chance: Option<i64> => opt_int(STREAMER_CHANCE),
    /// Shallowest depth (1 = the first level) with rivers (`MIN_RIVER_DEPTH`). 1..=1000.
    /// Default 1.
    #[schemars(range(min = MIN_RIVER_DEPTH.min, max = MIN_RIVER_DEPTH.max))]
    pub min_river_depth: i64 => int(MIN_RIVER_DEPTH),
    /// Shallowest depth with new chasms (`MIN_CHASM_DEPTH`). 1..=1000. Default 2.
    #[schemars(range(min = MIN_CHASM_DEPTH.min, max = MIN_CHASM_DEPTH.max))]
    pub min_chasm_depth: i64 => int(MIN_CHASM_DEPTH),
    /// Percent chance that the chasms carried down from the level above narrow on this level
    /// (`REDUCE_CHASM_CHANCE`): only cells surrounded by chasm above are carried. 0..=100.
    /// Default 50.
    #[schemars(range(min = REDUCE_CHASM_CHANCE.min, max = REDUCE_CHASM_CHANCE.max))]
    pub reduce_chasm_chance: i64 => int(REDUCE_CHASM_CHANCE),
    /// Percent chance of each vault attempt placing a vault. 0..=100. Default 50.
    #[schemars(range(min = VAULT_CHANCE.min, max = VAULT_CHANCE.max))]
    pub vault_chance: i64 => int(VAULT_CHANCE),
    /// Vault attempts per level. 0..=32. Default 1.
    #[schemars(range(min = MAX_VAULTS.min, max = MAX_VAULTS.max))]
    pub max_vaults: i64 => int(MAX_VAULTS),
    /// Fewest down stairs (`MIN_STAIRS`). 0..=32, ≤ `max_stairs`. Default 1.
    #[schemars(range(min = MIN_STAIRS.min, max = MIN_STAIRS.max))]
    pub min_stairs: i64 => int(MIN_STAIRS),
    /// Most down stairs (`MAX_STAIRS`); the count is drawn uniformly from the range, both ends
    /// included (Incursion's `MIN + random(MAX - MIN)` never reaches `MAX`; a range a designer
    /// writes here means what it says). 0..=32. Default 3.
    #[schemars(range(min = MAX_STAIRS.min, max = MAX_STAIRS.max))]
    pub max_stairs: i64 => int(MAX_STAIRS),
    /// Narrowest room, walls included (`ROOM_MINX`). 5..=`panel_width` − 2. Default 6.
    #[schemars(range(min = ROOM_MIN_WIDTH.min, max = ROOM_MIN_WIDTH.max))]
    pub room_min_width: i64 => int(ROOM_MIN_WIDTH),
    /// Widest room, walls included (`ROOM_MAXX`). 5..=`panel_width` − 2, at least
    /// `room_min_width`. Sizes are drawn from the range with both ends included. Default 16.
    #[schemars(range(min = ROOM_MAX_WIDTH.min, max = ROOM_MAX_WIDTH.max))]
    pub room_max_width: i64 => int(ROOM_MAX_WIDTH),
    /// Shortest room, walls included (`ROOM_MINY`). 5..=`panel_height` − 2. Default 6.
    #[schemars(range(min = ROOM_MIN_HEIGHT.min, max = ROOM_MIN_HEIGHT.max))]
    pub room_min_height: i64 => int(ROOM_MIN_HEIGHT),
    /// Tallest room, walls included (`ROOM_MAXY`). 5..=`panel_height` − 2, at least
    /// `room_min_height`. Default 12.
    #[schemars(range(min = ROOM_MAX_HEIGHT.min, max = ROOM_MAX_HEIGHT.max))]
    pub room_max_height: i64 => int(ROOM_MAX_HEIGHT),
    /// Percent of a lifecave's cells that start as wall (`LIFE_PERCENT`); higher gives smaller,
    /// more broken caves. 0..=100 (Incursion's default). Default 55.
    #[schemars(range(min = LIFE_PERCENT.min, max = LIFE_PERCENT.max))]
    pub life_percent: i64 => int(LIFE_PERCENT),
    /// Fix-up trials before generation gives up with an error naming the seed (the original's
    /// 26). 1..=1000. Default 26.
    #[schemars(range(min = FIXUP_TRIALS.min, max = FIXUP_TRIALS.max))]
    pub fixup_trials: i64 => int(FIXUP_TRIALS),
    /// The level's own corridor region (`CORRIDOR_REGION`): used for short tunnels and the
    /// fix-up's carved paths. Must name a `[[corridor]]`. Default: the first corridor region.
    pub corridor: Option<String> => optional(KeyKind::Text),
    /// Terrain of up stairs. Must be open. Default: the terrain named "up stairs".
    pub up_stairs: Option<String> => optional(KeyKind::Terrain),
    /// Terrain of down stairs. Must be open. Default: the terrain named "down stairs".
    pub down_stairs: Option<String> => optional(KeyKind::Terrain),
    /// Terrain the fix-up lays across hazards (chasms, magma) where they cut a level in two. Must
    /// be open and not a hazard. Default: none, and a level that only a hazard could join is an
    /// error naming its seed.
    pub bridge: Option<String> => optional(KeyKind::Terrain),
    /// On levels at most this deep no secret door stays within `secret_door_reveal_radius` of
    /// the up stairs (Incursion's rule against boxing the player in); they become closed doors.
    /// 0..=1000 (0: never). Default 5.
    #[schemars(range(min = SECRET_DOOR_REVEAL_DEPTH.min, max = SECRET_DOOR_REVEAL_DEPTH.max))]
    pub secret_door_reveal_depth: i64 => int(SECRET_DOOR_REVEAL_DEPTH),
    /// Distance from the up stairs (Incursion's `dist`: the longer axis plus half the shorter)
    /// within which `secret_door_reveal_depth` applies. 0..=1000. Default 17.
    #[schemars(range(min = SECRET_DOOR_REVEAL_RADIUS.min, max = SECRET_DOOR_REVEAL_RADIUS.max))]
    pub secret_door_reveal_radius: i64 => int(SECRET_DOOR_REVEAL_RADIUS),
    /// On levels at most this deep every door a corridor or room region makes is wooden: a
    /// region whose `door` is a `[[door]]` kind with `wooden = false` makes `wooden_door` doors
    /// there instead, unless the region sets `keep_doors = true` (Incursion's `MakeDoor`:
    /// "some character types can't get through the other kinds of doors in the early game").
    /// Vaults keep the doors their grid names unless they set `keep_doors = false`.
    /// 0..=1000 (0: never). Default 3.
    #[schemars(range(min = WOODEN_DOOR_DEPTH.min, max = WOODEN_DOOR_DEPTH.max))]
    pub wooden_door_depth: i64 => int(WOODEN_DOOR_DEPTH),
    /// The wooden door that stands in for the others on levels at most `wooden_door_depth`
    /// deep: a `[[door]]` kind with `wooden = true`. Default: the first such `[[door]]`
    /// (Incursion's "oak door"); with none, a region whose door is not wooden is an error
    /// unless `wooden_door_depth` is 0 or the region keeps its doors.
    pub wooden_door: Option<String> => optional(KeyKind::Text),
}
}

impl Default for DungeonDef {
    fn default() -> Self {
        DungeonDef {
            turn_chance: TURN_CHANCE.default_value(),
            stubborn_corridor: STUBBORN_CORRIDOR.default_value(),
            segment_minlen: SEGMENT_MINLEN.default_value(),
            segment_maxlen: SEGMENT_MAXLEN.default_value(),
            level_width: LEVEL_WIDTH.default_value(),
            level_height: LEVEL_HEIGHT.default_value(),
            panel_width: PANEL_WIDTH.default_value(),
            panel_height: PANEL_HEIGHT.default_value(),
            min_streamers: MIN_STREAMERS.default_value(),
            max_streamers: MAX_STREAMERS.default_value(),
            streamer_chance: None,
            min_river_depth: MIN_RIVER_DEPTH.default_value(),
            min_chasm_depth: MIN_CHASM_DEPTH.default_value(),
            reduce_chasm_chance: REDUCE_CHASM_CHANCE.default_value(),
            vault_chance: VAULT_CHANCE.default_value(),
            max_vaults: MAX_VAULTS.default_value(),
            min_stairs: MIN_STAIRS.default_value(),
            max_stairs: MAX_STAIRS.default_value(),
            room_min_width: ROOM_MIN_WIDTH.default_value(),
            room_max_width: ROOM_MAX_WIDTH.default_value(),
            room_min_height: ROOM_MIN_HEIGHT.default_value(),
            room_max_height: ROOM_MAX_HEIGHT.default_value(),
            life_percent: LIFE_PERCENT.default_value(),
            fixup_trials: FIXUP_TRIALS.default_value(),
            corridor: None,
            up_stairs: None,
            down_stairs: None,
            bridge: None,
            secret_door_reveal_depth: SECRET_DOOR_REVEAL_DEPTH.default_value(),
            secret_door_reveal_radius: SECRET_DOOR_REVEAL_RADIUS.default_value(),
            wooden_door_depth: WOODEN_DOOR_DEPTH.default_value(),
            wooden_door: None,
        }
    }
}

section! {
/// The four corridor constants a corridor region may override (each optional).
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CorridorConstants {
    /// Overrides `[dungeon] turn_chance` for this region's tunnels. 0..=100.
    #[schemars(range(min = TURN_CHANCE.min, max = TURN_CHANCE.max))]
    pub turn_chance: Option<i64> => opt_int(TURN_CHANCE),
    /// Overrides `[dungeon] stubborn_corridor`. 0..=100.
    #[schemars(range(min = STUBBORN_CORRIDOR.min, max = STUBBORN_CORRIDOR.max))]
    pub stubborn_corridor: Option<i64> => opt_int(STUBBORN_CORRIDOR),
    /// Overrides `[dungeon] segment_minlen`. 1..=1000.
    #[schemars(range(min = SEGMENT_MINLEN.min, max = SEGMENT_MINLEN.max))]
    pub segment_minlen: Option<i64> => opt_int(SEGMENT_MINLEN),
    /// Overrides `[dungeon] segment_maxlen`. 1..=1000.
    #[schemars(range(min = SEGMENT_MAXLEN.min, max = SEGMENT_MAXLEN.max))]
    pub segment_maxlen: Option<i64> => opt_int(SEGMENT_MAXLEN),
}
}

section! {
/// `[[corridor]]` — a corridor region: the look and the wandering habits of a tunnel.
///
/// ```toml
/// [[corridor]]
/// name = "winding corridor"
/// weight = 3
/// floor = "floor"
/// walls = "rock wall"
/// door = "oak door"
/// staple = true
/// [corridor.constants]
/// turn_chance = 10
/// ```
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CorridorDef {
    /// Unique name among corridor regions.
    pub name: String => text(),
    /// Relative chance of being chosen for a tunnel. Finite, ≥ 0; 0 disables the region.
    #[schemars(range(min = 0))]
    pub weight: f64 => weight(),
    /// Terrain of the corridor floor.
    pub floor: String => terrain(),
    /// Terrain of the walls written around the floor.
    pub walls: String => terrain(),
    /// The door tunnels make where they meet this region's cells: a `[[door]]` kind, or a
    /// terrain, which then draws every door state alike.
    pub door: String => text(),
    /// If `true` the region may be chosen again on the same level; otherwise it is used at most
    /// once per level while other regions remain.
    #[serde(default)]
    pub staple: bool => flag(false),
    /// If `true` the region's doors are of its `door` kind at every depth, even a kind that is
    /// not wooden on the levels where `[dungeon] wooden_door_depth` makes doors wooden (a
    /// gatehouse's iron doors on level 1). Default false.
    #[serde(default)]
    pub keep_doors: bool => flag(false),
    /// Overrides of the dungeon's corridor constants, for this region's tunnels only.
    #[serde(default)]
    pub constants: CorridorConstants => optional(KeyKind::Table(&CorridorConstants::SHAPE)),
}
}

fn first_depth() -> i64 {
    MIN_DEPTH.default_value()
}

fn last_depth() -> i64 {
    MAX_DEPTH.default_value()
}

section! {
/// `[[room]]` — a room region: what kind of room a panel gets and what it is made of. Each
/// panel not taken by a vault gets one room region, chosen by weight among those whose depth
/// range holds the level.
///
/// ```toml
/// [[room]]
/// name = "pillared hall"
/// weight = 2
/// kind = "pillared"
/// floor = "floor"
/// wall = "room wall"
/// door = "oak door"
/// furnishing = "pillar"
/// min_depth = 2
/// ```
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoomDef {
    /// Unique region name (stamped on the room's cells).
    pub name: String => text(),
    /// Relative chance of being chosen for a panel. Finite, ≥ 0; 0 disables the region.
    #[schemars(range(min = 0))]
    pub weight: f64 => weight(),
    /// The room's shape: `"normal"` (a walled rectangle), `"lifecave"` (a cave grown by a
    /// cellular automaton over the panel), `"castle"` (a large rectangle split into chambers
    /// by inner walls with doors), `"maze"` (a walled perfect maze, with `min(7, depth − 3)`
    /// secret doors on levels deeper than 3), `"destroyed"` (a ruined
    /// rectangle with rubble in its walls and on its floor), `"pillared"` (a rectangle with a
    /// lattice of pillars) or `"circular"` (a round chamber). Sizes come from `[dungeon]`
    /// `room_min_width` … `room_max_height`; castles and mazes fill most of the panel.
    #[schemars(extend("enum" = RoomKind::NAMES))]
    pub kind: String => required(KeyKind::Choice(&RoomKind::NAMES)),
    /// Floor terrain. Must be open.
    pub floor: String => terrain(),
    /// Wall terrain (also a castle's inner walls).
    pub wall: String => terrain(),
    /// The door corridors make in this room's walls, a castle's inner doors and a maze's
    /// secret doors: a `[[door]]` kind, or a terrain, which then draws every door state alike.
    pub door: String => text(),
    /// Terrain of a pillared room's pillars and a destroyed room's rubble. Default: `wall`.
    pub furnishing: Option<String> => optional(KeyKind::Terrain),
    /// If `true` the region's doors are of its `door` kind at every depth, even a kind that is
    /// not wooden on the levels where `[dungeon] wooden_door_depth` makes doors wooden (a
    /// jail's iron doors on level 1). Default false.
    #[serde(default)]
    pub keep_doors: bool => flag(false),
    /// Shallowest depth the region appears at. 1..=1000. Default 1.
    #[schemars(range(min = MIN_DEPTH.min, max = MIN_DEPTH.max))]
    #[serde(default = "first_depth")]
    pub min_depth: i64 => int(MIN_DEPTH),
    /// Deepest depth the region appears at. `min_depth`..=1000. Default 1000.
    #[schemars(range(min = MAX_DEPTH.min, max = MAX_DEPTH.max))]
    #[serde(default = "last_depth")]
    pub max_depth: i64 => int(MAX_DEPTH),
}
}

section! {
/// `[[streamer]]` — a streamer region: a river, chasm, lava flow or vein of rock drawn across
/// the level before the rooms. The number per level comes from `[dungeon]` `min_streamers`
/// and `max_streamers`; each is chosen by weight among those allowed at the depth.
///
/// ```toml
/// [[streamer]]
/// name = "underground river"
/// weight = 3
/// kind = "river"
/// terrain = "water"
/// min_width = 2
/// max_width = 4
/// ```
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StreamerDef {
    /// Unique region name (stamped on the streamer's cells).
    pub name: String => text(),
    /// Relative chance of being chosen. Finite, ≥ 0; 0 disables the region.
    #[schemars(range(min = 0))]
    pub weight: f64 => weight(),
    /// `"river"` or `"lava"`: flows in from the top or left edge across the level at a
    /// constant width (rivers only from `[dungeon] min_river_depth`). `"chasm"`: starts
    /// anywhere, swells to its width and narrows again; carried down to the level below (only
    /// from `[dungeon] min_chasm_depth`). `"rock"`: a vein shaped like a chasm.
    #[schemars(extend("enum" = StreamerKind::NAMES))]
    pub kind: String => required(KeyKind::Choice(&StreamerKind::NAMES)),
    /// Terrain written. Rivers are usually open water (passable); chasms and lava are usually
    /// hazards (open, but connectivity treats them as walls and the fix-up bridges them); rock
    /// veins are usually solid. Stairs never go on rivers, chasms or lava.
    pub terrain: String => terrain(),
    /// Narrowest width in cells. 1..=16. For rivers and lava the width is drawn from the range
    /// once; chasms and veins swell to a width drawn from it.
    #[schemars(range(min = STREAMER_MIN_WIDTH.min, max = STREAMER_MIN_WIDTH.max))]
    pub min_width: i64 => int(STREAMER_MIN_WIDTH),
    /// Widest width in cells. `min_width`..=16.
    #[schemars(range(min = STREAMER_MAX_WIDTH.min, max = STREAMER_MAX_WIDTH.max))]
    pub max_width: i64 => int(STREAMER_MAX_WIDTH),
    /// Shallowest depth the region appears at. 1..=1000. Default 1.
    #[schemars(range(min = MIN_DEPTH.min, max = MIN_DEPTH.max))]
    #[serde(default = "first_depth")]
    pub min_depth: i64 => int(MIN_DEPTH),
    /// Write priority by name (`"rock_streamer"`, `"river_streamer"`, …, as in
    /// `warren.prio`). Default: RIVER_STREAMER for rivers, chasms and lava (rooms and corridors
    /// go round them), ROCK_STREAMER for rock (they cut through it).
    pub priority: Option<String> => optional(KeyKind::Text),
}
}

section! {
/// `[[vault]]` — a vault: a predefined room drawn from a grid of glyphs, placed in a block of
/// panels at VAULT priority so that nothing later writes inside it. Each of `[dungeon]`
/// `max_vaults` attempts places one with chance `vault_chance`, chosen by weight among those
/// whose depth range holds the level. Vaults are flipped at random.
///
/// ```toml
/// [[vault]]
/// name = "shrine"
/// weight = 1
/// grid = """
/// ###+###
/// #.._..#
/// ###.###
/// """
/// [vault.legend]
/// "#" = "vault wall"
/// "." = "vault floor"
/// "+" = "oak door"
/// "_" = "altar"
/// ```
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VaultDef {
    /// Unique region name (stamped on the vault's cells).
    pub name: String => text(),
    /// Relative chance of being chosen. Finite, ≥ 0; 0 disables the vault.
    #[schemars(range(min = 0))]
    pub weight: f64 => weight(),
    /// Shallowest depth the vault appears at. 1..=1000. Default 1.
    #[schemars(range(min = MIN_DEPTH.min, max = MIN_DEPTH.max))]
    #[serde(default = "first_depth")]
    pub min_depth: i64 => int(MIN_DEPTH),
    /// Deepest depth the vault appears at. `min_depth`..=1000. Default 1000.
    #[schemars(range(min = MAX_DEPTH.min, max = MAX_DEPTH.max))]
    #[serde(default = "last_depth")]
    pub max_depth: i64 => int(MAX_DEPTH),
    /// The vault, one row per line (a leading newline after `"""` is ignored). Rows must be
    /// equally long, every glyph must be in `legend`, the grid plus a 2-cell margin on each
    /// side must fit the level, and every open cell must be reachable from the grid's border
    /// through open cells (8-neighbour), or corridors could never enter it.
    pub grid: String => text(),
    /// Glyph → terrain name for every glyph of `grid`, or → a `[[door]]` kind: such a cell
    /// becomes a door of that kind (drawn closed until the level's doors are finished, and
    /// passable to the grid's sealed-cell check). Keys are single characters.
    #[schemars(extend("propertyNames" = { "minLength": 1, "maxLength": 1 }))]
    pub legend: std::collections::BTreeMap<String, String> => required(KeyKind::Legend),
    /// If `true` (the default) the vault's doors are the kinds its legend names at every depth,
    /// as Incursion draws a vault's doors; `false` makes them follow `[dungeon]
    /// wooden_door_depth` like the doors of corridors and rooms. Default true.
    #[serde(default = "yes")]
    pub keep_doors: bool => flag(true),
}
}

section! {
/// `[[prefab]]` — a vault template, in the spirit of Dungeon Crawl's vaults: a map of
/// glyphs that `warren.toolbox.place_vaults` picks by tags, depth and weight, turns and
/// mirrors, varies with its substitutions, and fits into solid rock (digging a corridor to
/// it) or inside a room, never leaving the level in more pieces than it was (docs/vaults.md).
///
/// Four glyphs need no legend entry: `.` is the floor and `#` the wall the placement is given,
/// `+` its door (recorded as a closed door), and a space leaves the map's cell as it is (for
/// templates that are not rectangles). A legend entry for one of them overrides it.
///
/// ```toml
/// [[prefab]]
/// name = "altar room"
/// tags = ["treasure"]
/// weight = 5
/// min_depth = 3
/// connect = "+"
/// map = """
/// ###+###
/// #..$..#
/// #.$_$.#
/// #######
/// """
/// [prefab.legend]
/// "_" = "altar"
/// "*" = "statue"
/// [[prefab.subst]]          # two of the three `$` become statues, the third floor
/// glyph = "$"
/// count = 2
/// becomes = "*"
/// rest = "."
/// ```
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrefabDef {
    /// Unique name among prefabs, stamped as the region of the cells a placement writes.
    pub name: String => text(),
    /// The template, one row per line; a newline right after the opening `"""` and one
    /// before the closing `"""` are not rows. Every row must be as long as the first (pad with
    /// spaces), and every glyph must be built in (`.` `#` `+` and space), in `legend`, or
    /// replaced by a substitution.
    pub map: String => text(),
    /// Glyph → a terrain name, or a `[[door]]` kind (such a cell is drawn with the kind's
    /// closed terrain and recorded as a closed door of that kind). Keys are single characters.
    /// Default: none (the built-in glyphs only).
    #[serde(default)]
    #[schemars(extend("propertyNames" = { "minLength": 1, "maxLength": 1 }))]
    pub legend: std::collections::BTreeMap<String, String> => optional(KeyKind::Legend),
    /// Substitutions, run in the order written on every placement (`[[prefab.subst]]`).
    /// Default: none.
    #[serde(default)]
    pub subst: Vec<SubstDef> => optional(KeyKind::List(&SubstDef::SHAPE)),
    /// Whether a placement may turn the template by quarter turns. Default true.
    #[serde(default = "yes")]
    pub rotate: bool => flag(true),
    /// Whether a placement may mirror the template. Default true.
    #[serde(default = "yes")]
    pub mirror: bool => flag(true),
    /// Relative chance of being picked among the templates a placement may pick. Finite,
    /// ≥ 0; 0 disables the template. Default 1.
    #[schemars(range(min = 0))]
    #[serde(default = "one")]
    pub weight: f64 => or(KeyKind::Weight, Value::Num(1.0)),
    /// Shallowest level depth the template is picked for (the recipe passes its depth).
    /// 1..=1000. Default 1.
    #[schemars(range(min = MIN_DEPTH.min, max = MIN_DEPTH.max))]
    #[serde(default = "first_depth")]
    pub min_depth: i64 => int(MIN_DEPTH),
    /// Deepest level depth the template is picked for. `min_depth`..=1000. Default 1000.
    #[schemars(range(min = MAX_DEPTH.min, max = MAX_DEPTH.max))]
    #[serde(default = "last_depth")]
    pub max_depth: i64 => int(MAX_DEPTH),
    /// Tags a recipe picks templates by (`tags` and `exclude` of the placement). Each
    /// non-empty. Default: none.
    #[serde(default)]
    pub tags: Vec<String> => optional(KeyKind::Texts),
    /// The glyphs of the template's entrances, written together (`"+"`, `"+="`): every cell of
    /// these glyphs must lie on the map's border and be one a walker may stand on, and a
    /// placement is kept only if each of them opens onto the level (in free space a corridor
    /// is dug from each). Default: none — any open cell of the border may be the entrance.
    #[serde(default)]
    pub connect: String => or(KeyKind::Text, Value::Text("")),
}
}

section! {
/// `[[prefab.subst]]` — one substitution of a template's glyph: either `one_of` (each cell of
/// the glyph becomes one of several glyphs) or `count` (exactly that many of its cells become
/// `becomes`, the others `rest`). What a substitution produces is not substituted again, and
/// a glyph is substituted at most once.
///
/// ```toml
/// [[prefab.subst]]
/// glyph = "?"
/// one_of = "T.."      # a statue one time in three
/// per = "cell"
/// ```
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubstDef {
    /// The glyph of the map whose cells change. One character.
    #[schemars(length(equal = 1))]
    pub glyph: String => text(),
    /// The glyphs to choose from, written together; each is equally likely, so write a glyph
    /// twice to make it twice as likely (`"T.."`). Each must be built in or in the legend.
    pub one_of: Option<String> => optional(KeyKind::Text),
    /// With `one_of`: `"cell"` (each cell draws its own glyph) or `"placement"` (one draw for
    /// every cell of the glyph). Default "cell".
    pub per: Option<String> => optional(KeyKind::Choice(&["cell", "placement"])),
    /// How many of the glyph's cells become `becomes`: exactly this many, at most the glyph's
    /// cells in `map`. An integer ≥ 0.
    #[schemars(range(min = 0))]
    pub count: Option<i64> => optional(KeyKind::Int { min: 0, max: i64::MAX }),
    /// With `count`: the glyph those cells become. One character, built in or in the legend.
    pub becomes: Option<String> => optional(KeyKind::Text),
    /// With `count`: the glyph the glyph's other cells become. One character, built in or in
    /// the legend. Default: they keep the glyph (which must then be in the legend).
    pub rest: Option<String> => optional(KeyKind::Text),
}
}

section! {
/// `[[sample]]` — a small sample map for wave function collapse (`warren.toolbox.wfc`): the
/// output is made only of the `n × n` windows of this map (and, when the recipe asks, their
/// rotations and reflections), each about as often as here. A few rows are enough: 8×8 gives a
/// town block its streets, walls and yards.
///
/// ```toml
/// [[sample]]
/// name = "courtyards"
/// periodic = true
/// grid = """
/// ,,#,,
/// ,,#,,
/// ##+##
/// ,,#,,
/// """
/// [sample.legend]
/// "," = "street"
/// "#" = "brick wall"
/// "+" = "open door"
/// ```
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SampleDef {
    /// Unique name among samples; recipes pick the sample by it (`sample = "town block"`).
    #[schemars(length(min = 1))]
    pub name: String => text(),
    /// The map, one row per line (a leading newline after `"""` is ignored). Rows must be
    /// equally long, at most 64 glyphs each and at most 64 of them, and every glyph must be in
    /// `legend`.
    pub grid: String => text(),
    /// Glyph → terrain name for every glyph of `grid`. Keys are single characters.
    #[schemars(extend("propertyNames" = { "minLength": 1, "maxLength": 1 }))]
    pub legend: std::collections::BTreeMap<String, String> => required(KeyKind::Legend),
    /// `true` if the map tiles (its right edge continues at its left, its bottom at its top), so
    /// windows wrap round its edges: more patterns from the same few rows. Default false.
    #[serde(default)]
    pub periodic: bool => flag(false),
}
}

section! {
/// `[rooms]` — terrain for the rooms-and-corridors recipe (`scripts/rooms.lua`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoomsDef {
    /// Room floor terrain.
    pub floor: String => terrain(),
    /// Corridor floor terrain.
    pub corridor: String => terrain(),
    /// Terrain around rooms and corridors (usually what the map is filled with).
    pub wall: String => terrain(),
}
}

section! {
/// `[cave]` — terrain for the directional-cave recipe (`scripts/cave.lua`).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaveDef {
    /// Open cave floor.
    pub floor: String => terrain(),
    /// Solid cave wall (what the map is filled with).
    pub wall: String => terrain(),
    /// Marks the entrance cell.
    pub entrance: String => terrain(),
    /// Marks the exit cell.
    pub exit: String => terrain(),
    /// Pillars placed by the `pillars` row event.
    pub pillar: String => terrain(),
}
}

section! {
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
///
/// [town.debug]                          # optional: the debug view
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
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TownDef {
    /// Walls between cells, the town wall, closed doors and closed gates (`#`).
    pub wall: String => terrain(),
    /// An open door in a vertical wall, leading east or west from a room to a street (`|`).
    pub vertical_door: String => terrain(),
    /// An open door in a horizontal wall, leading north or south from a room (`-`).
    pub horizontal_door: String => terrain(),
    /// An open gate in the west or east town wall (`|`).
    pub vertical_gate: String => terrain(),
    /// An open gate in the north or south town wall (`-`).
    pub horizontal_gate: String => terrain(),
    /// Street cells, the open walls between them and removed pillars (a space).
    pub street: String => terrain(),
    /// The floor of a room: the centre of a room cell (a space).
    pub floor: String => terrain(),
    /// The centre of an UNUSED cell, a solid block that is neither room nor street; the four
    /// corners are always unused (`#`).
    pub unused: String => terrain(),
    /// Terrains of the debug view (`showdebugmaze`), drawn at cell centres instead of `floor`,
    /// `street` and `unused`. Optional; needed only to show a town with `view = "debug"`.
    pub debug: Option<TownDebugDef> => optional(KeyKind::Table(&TownDebugDef::SHAPE)),
}
}

section! {
/// `[town.debug]` — the debug view of a town: each cell centre shows the cell's status, or for
/// a street the way it runs. The `[town]` example shows one.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TownDebugDef {
    /// A room with no street beside it (`I`).
    pub isolated: String => terrain(),
    /// A room beside a street and beside an isolated room: it may still become a street (`L`).
    pub live: String => terrain(),
    /// A room beside a street and beside no isolated room (`D`).
    pub dead: String => terrain(),
    /// An unused block (`U`).
    pub unused: String => terrain(),
    /// A street running north (`^`).
    pub north: String => terrain(),
    /// A street running east (`>`).
    pub east: String => terrain(),
    /// A street running south (`v`).
    pub south: String => terrain(),
    /// A street running west (`<`).
    pub west: String => terrain(),
    /// A street with no direction (`X`).
    pub no_heading: String => terrain(),
}
}

section! {
/// `[[spawn]]` — something that may be spawned, with its weight.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpawnDef {
    /// What spawns (a monster, item or feature name). Unique among spawns.
    pub name: String => text(),
    /// Relative chance. Finite, ≥ 0.
    #[schemars(range(min = 0))]
    pub weight: f64 => weight(),
}
}

/// The valid range and the default of an integer key: the one place they are stated. Loading
/// checks a file's values against it ([`IntKey::check`]), the schema's defaults come from it,
/// and the Lua bindings read it for hand-made region tables and their own defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntKey {
    /// The key, as region files spell it.
    pub key: &'static str,
    /// Smallest valid value.
    pub min: i64,
    /// Largest valid value (before any rule that ties it to another key).
    pub max: i64,
    /// The value when the key is left out; `None` when the key is required.
    pub default: Option<i64>,
    /// Whether the key is a percentage (its message says so).
    pub percent: bool,
}

impl IntKey {
    /// A percentage: 0..=100.
    pub const fn percent(key: &'static str, default: i64) -> IntKey {
        IntKey {
            key,
            min: 0,
            max: 100,
            default: Some(default),
            percent: true,
        }
    }

    /// An integer in `min..=max` with a default.
    pub const fn int(key: &'static str, min: i64, max: i64, default: i64) -> IntKey {
        IntKey {
            key,
            min,
            max,
            default: Some(default),
            percent: false,
        }
    }

    /// A required integer in `min..=max`.
    pub const fn required(key: &'static str, min: i64, max: i64) -> IntKey {
        IntKey {
            key,
            min,
            max,
            default: None,
            percent: false,
        }
    }

    /// The default (only for keys that have one; checked when the constant is built).
    pub const fn default_value(&self) -> i64 {
        match self.default {
            Some(v) => v,
            None => panic!("a required key has no default"),
        }
    }

    /// Whether `v` is in range.
    pub const fn contains(&self, v: i64) -> bool {
        self.min <= v && v <= self.max
    }

    /// `None` when `v` is in range, else the message for it, naming the key as `name` (the path
    /// a modder reads, e.g. `corridor[2].constants.turn_chance`).
    pub fn check(&self, name: &str, v: i64) -> Option<String> {
        if self.contains(v) {
            None
        } else if self.percent {
            Some(format!("{name} = {v} is not a percentage (0..=100)"))
        } else {
            Some(format!(
                "{name} = {v} is out of range ({}..={})",
                self.min, self.max
            ))
        }
    }
}

/// `[limits] max_instructions`: at most what the user allows.
pub const MAX_INSTRUCTIONS: IntKey =
    IntKey::required("max_instructions", 1_000_000, 100_000_000_000);
/// `[limits] max_memory_mib`: at most what the user allows.
pub const MAX_MEMORY_MIB: IntKey = IntKey::required("max_memory_mib", 16, 16_384);
/// `[limits] max_seconds`: the smallest and largest value, at most what the user allows.
pub const MAX_SECONDS: (f64, f64) = (0.1, 600.0);

/// `[dungeon] turn_chance` (and `[corridor.constants]`).
pub const TURN_CHANCE: IntKey = IntKey::percent("turn_chance", 10);
/// `[dungeon] stubborn_corridor` (and `[corridor.constants]`).
pub const STUBBORN_CORRIDOR: IntKey = IntKey::percent("stubborn_corridor", 30);
/// `[dungeon] segment_minlen` (and `[corridor.constants]`); also at most `segment_maxlen`.
pub const SEGMENT_MINLEN: IntKey = IntKey::int("segment_minlen", 1, 1000, 4);
/// `[dungeon] segment_maxlen` (and `[corridor.constants]`).
pub const SEGMENT_MAXLEN: IntKey = IntKey::int("segment_maxlen", 1, 1000, 10);
/// `[dungeon] level_width`; also a multiple of `panel_width`, at most 32 panels.
pub const LEVEL_WIDTH: IntKey = IntKey::int("level_width", 16, 4096, 128);
/// `[dungeon] level_height`; also a multiple of `panel_height`, at most 32 panels.
pub const LEVEL_HEIGHT: IntKey = IntKey::int("level_height", 16, 4096, 128);
/// `[dungeon] panel_width`.
pub const PANEL_WIDTH: IntKey = IntKey::int("panel_width", MIN_PANEL as i64, MAX_PANEL as i64, 32);
/// `[dungeon] panel_height`.
pub const PANEL_HEIGHT: IntKey =
    IntKey::int("panel_height", MIN_PANEL as i64, MAX_PANEL as i64, 32);
/// `[dungeon] min_streamers`; also at most `max_streamers`.
pub const MIN_STREAMERS: IntKey = IntKey::int("min_streamers", 0, 64, 0);
/// `[dungeon] max_streamers`.
pub const MAX_STREAMERS: IntKey = IntKey::int("max_streamers", 0, 64, 2);
/// `[dungeon] min_river_depth`.
pub const MIN_RIVER_DEPTH: IntKey = IntKey::int("min_river_depth", 1, 1000, 1);
/// `[dungeon] min_chasm_depth`.
pub const MIN_CHASM_DEPTH: IntKey = IntKey::int("min_chasm_depth", 1, 1000, 2);
/// `[dungeon] reduce_chasm_chance`.
pub const REDUCE_CHASM_CHANCE: IntKey = IntKey::percent("reduce_chasm_chance", 50);
/// `[dungeon] vault_chance`.
pub const VAULT_CHANCE: IntKey = IntKey::percent("vault_chance", 50);
/// `[dungeon] max_vaults`.
pub const MAX_VAULTS: IntKey = IntKey::int("max_vaults", 0, 32, 1);
/// `[dungeon] min_stairs`; also at most `max_stairs`.
pub const MIN_STAIRS: IntKey = IntKey::int("min_stairs", 0, 32, 1);
/// `[dungeon] max_stairs`.
pub const MAX_STAIRS: IntKey = IntKey::int("max_stairs", 0, 32, 3);
/// `[dungeon] room_min_width`: at least [`MIN_ROOM`]; at most the panel width less 2 and at
/// most `room_max_width` (rules checked with the panel size).
pub const ROOM_MIN_WIDTH: IntKey =
    IntKey::int("room_min_width", MIN_ROOM as i64, MAX_PANEL as i64 - 2, 6);
/// `[dungeon] room_max_width`: at most the panel width less 2.
pub const ROOM_MAX_WIDTH: IntKey =
    IntKey::int("room_max_width", MIN_ROOM as i64, MAX_PANEL as i64 - 2, 16);
/// `[dungeon] room_min_height`: like `room_min_width`, against the panel height.
pub const ROOM_MIN_HEIGHT: IntKey =
    IntKey::int("room_min_height", MIN_ROOM as i64, MAX_PANEL as i64 - 2, 6);
/// `[dungeon] room_max_height`: at most the panel height less 2.
pub const ROOM_MAX_HEIGHT: IntKey =
    IntKey::int("room_max_height", MIN_ROOM as i64, MAX_PANEL as i64 - 2, 12);
/// `[dungeon] life_percent`.
pub const LIFE_PERCENT: IntKey = IntKey::percent("life_percent", 55);
/// `[dungeon] fixup_trials`.
pub const FIXUP_TRIALS: IntKey = IntKey::int("fixup_trials", 1, 1000, 26);
/// `[dungeon] secret_door_reveal_depth`.
pub const SECRET_DOOR_REVEAL_DEPTH: IntKey = IntKey::int("secret_door_reveal_depth", 0, 1000, 5);
/// `[dungeon] secret_door_reveal_radius`.
pub const SECRET_DOOR_REVEAL_RADIUS: IntKey = IntKey::int("secret_door_reveal_radius", 0, 1000, 17);
/// `[dungeon] wooden_door_depth`.
pub const WOODEN_DOOR_DEPTH: IntKey = IntKey::int("wooden_door_depth", 0, 1000, 3);
/// `[dungeon] streamer_chance`: a percentage with no default (the key is optional).
pub const STREAMER_CHANCE: IntKey = IntKey {
    key: "streamer_chance",
    min: 0,
    max: 100,
    default: None,
    percent: true,
};
/// `min_depth` of rooms, streamers and vaults.
pub const MIN_DEPTH: IntKey = IntKey::int("min_depth", 1, 1000, 1);
/// `max_depth` of rooms and vaults; also at least `min_depth`.
pub const MAX_DEPTH: IntKey = IntKey::int("max_depth", 1, 1000, 1000);
/// `[[streamer]] min_width`; also at most `max_width`.
pub const STREAMER_MIN_WIDTH: IntKey = IntKey::required("min_width", 1, MAX_STREAMER_WIDTH as i64);
/// `[[streamer]] max_width`.
pub const STREAMER_MAX_WIDTH: IntKey = IntKey::required("max_width", 1, MAX_STREAMER_WIDTH as i64);

/// The four corridor constants, in [`DungeonDef`] and [`CorridorConstants`] order.
pub const CORRIDOR_CONSTANTS: [IntKey; 4] = [
    TURN_CHANCE,
    STUBBORN_CORRIDOR,
    SEGMENT_MINLEN,
    SEGMENT_MAXLEN,
];

/// Every integer key of `[dungeon]`, in declaration order.
pub const DUNGEON_KEYS: [IntKey; 26] = [
    TURN_CHANCE,
    STUBBORN_CORRIDOR,
    SEGMENT_MINLEN,
    SEGMENT_MAXLEN,
    LEVEL_WIDTH,
    LEVEL_HEIGHT,
    PANEL_WIDTH,
    PANEL_HEIGHT,
    MIN_STREAMERS,
    MAX_STREAMERS,
    MIN_RIVER_DEPTH,
    MIN_CHASM_DEPTH,
    REDUCE_CHASM_CHANCE,
    VAULT_CHANCE,
    MAX_VAULTS,
    MIN_STAIRS,
    MAX_STAIRS,
    ROOM_MIN_WIDTH,
    ROOM_MAX_WIDTH,
    ROOM_MIN_HEIGHT,
    ROOM_MAX_HEIGHT,
    LIFE_PERCENT,
    FIXUP_TRIALS,
    SECRET_DOOR_REVEAL_DEPTH,
    SECRET_DOOR_REVEAL_RADIUS,
    WOODEN_DOOR_DEPTH,
];

impl DungeonDef {
    /// The value of each of [`DUNGEON_KEYS`], in the same order.
    pub fn int_values(&self) -> [i64; 26] {
        [
            self.turn_chance,
            self.stubborn_corridor,
            self.segment_minlen,
            self.segment_maxlen,
            self.level_width,
            self.level_height,
            self.panel_width,
            self.panel_height,
            self.min_streamers,
            self.max_streamers,
            self.min_river_depth,
            self.min_chasm_depth,
            self.reduce_chasm_chance,
            self.vault_chance,
            self.max_vaults,
            self.min_stairs,
            self.max_stairs,
            self.room_min_width,
            self.room_max_width,
            self.room_min_height,
            self.room_max_height,
            self.life_percent,
            self.fixup_trials,
            self.secret_door_reveal_depth,
            self.secret_door_reveal_radius,
            self.wooden_door_depth,
        ]
    }
}

impl CorridorConstants {
    /// The value of each of [`CORRIDOR_CONSTANTS`] this corridor overrides, in the same order.
    pub fn values(&self) -> [Option<i64>; 4] {
        [
            self.turn_chance,
            self.stubborn_corridor,
            self.segment_minlen,
            self.segment_maxlen,
        ]
    }
}
