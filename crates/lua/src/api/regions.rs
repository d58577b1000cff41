//! `ctx.regions` and region entries as arguments.
//!
//! Region files are resolved once, at load ([`warren_core::region::Resolved`]: terrain ids,
//! defaults applied, ranges checked). Recipes read read-only tables of the same data
//! (`ctx.regions.corridor[1].weight`); each view carries, hidden in its metatable, a tag naming
//! the resolved entry it shows. A binding given a view uses that entry as it is — nothing is
//! parsed again. A recipe's own hand-made table (`{ name = "tunnel", floor = "floor", … }`)
//! goes through the same resolver as a region file: the same defaults, ranges and messages,
//! located at the recipe line.
//!
//! The shape of `ctx.regions` — every section and key — is declared here ([`REGIONS`] and the
//! entry classes), with the ranges and defaults of [`warren_core::region::schema`]; the stubs
//! and `warren check` read it, and a test holds it to the schema.

use super::call::{shown, target, Call};
use super::decl::{key, key_opt, key_or, Class, Default, Ty};
use mlua::{AnyUserData, Lua, Table, UserData, Value};
use serde::de::DeserializeOwned;
use std::sync::Arc;
use warren_core::map::{Map, TerrainTable};
use warren_core::region::resolve::{self, Problems};
use warren_core::region::schema::*;
use warren_core::region::{
    Corridor, Dungeon, Registry, RoomRegion, StreamerRegion, TownStyle, VaultRegion,
};

/// The metatable key under which a view keeps its tag. Scripts cannot reach a view's
/// metatable (`getmetatable` gives `false`), so the tag cannot be read or forged.
const TAG: &str = "__warren_entry";

/// Which resolved entry a view shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    Root,
    Dungeon,
    Town,
    Corridor(usize),
    Room(usize),
    Streamer(usize),
    Vault(usize),
}

/// A view's tag: the registry it was made from and the entry it shows.
struct Tag {
    registry: Arc<Registry>,
    entry: Entry,
}

impl UserData for Tag {}

/// The registry of the host, for bindings that default to it.
struct RunRegistry(Arc<Registry>);

/// Tags the views of `ctx.regions` (the frozen `root`) with the entries of `registry` they
/// show, and makes `registry` the one bindings default to. Called whenever `ctx.regions` is
/// built.
pub fn install(lua: &Lua, root: &Table, registry: &Arc<Registry>) -> mlua::Result<()> {
    let tag = |t: &Table, entry: Entry| -> mlua::Result<()> {
        if let Some(mt) = t.metatable() {
            let ud = lua.create_userdata(Tag {
                registry: registry.clone(),
                entry,
            })?;
            mt.raw_set(TAG, ud)?;
        }
        Ok(())
    };
    tag(root, Entry::Root)?;
    let sections = target(root)?;
    for (key, entry) in [("dungeon", Entry::Dungeon), ("town", Entry::Town)] {
        if let Value::Table(t) = sections.raw_get(key)? {
            tag(&t, entry)?;
        }
    }
    type Item = fn(usize) -> Entry;
    let lists: [(&str, Item); 4] = [
        ("corridor", Entry::Corridor),
        ("room", Entry::Room),
        ("streamer", Entry::Streamer),
        ("vault", Entry::Vault),
    ];
    for (key, entry) in lists {
        if let Value::Table(list) = sections.raw_get(key)? {
            let items = target(&list)?;
            for i in 0..items.raw_len() {
                if let Value::Table(item) = items.raw_get(i + 1)? {
                    tag(&item, entry(i))?;
                }
            }
        }
    }
    lua.set_app_data(RunRegistry(registry.clone()));
    Ok(())
}

/// The registry maps of this host are made with.
pub fn run_registry(lua: &Lua) -> Option<Arc<Registry>> {
    lua.app_data_ref::<RunRegistry>().map(|r| r.0.clone())
}

/// The run's registry, or an error for `c` when there is none (no host built this state).
pub fn registry(c: &Call) -> mlua::Result<Arc<Registry>> {
    run_registry(c.lua()).ok_or_else(|| c.fail("no region files are loaded"))
}

/// The tag of a view, if `v` is one whose registry drew `map`'s terrains (a view kept from
/// before the region files changed is read like a hand-made table instead).
fn tag_of(v: &Value, terrains: &Arc<TerrainTable>) -> Option<(Arc<Registry>, Entry)> {
    let Value::Table(t) = v else { return None };
    let ud: AnyUserData = t.metatable()?.raw_get(TAG).ok()?;
    let tag = ud.borrow::<Tag>().ok()?;
    Arc::ptr_eq(tag.registry.terrains(), terrains).then(|| (tag.registry.clone(), tag.entry))
}

/// A hand-made region table as the schema's type `T`: its keys (and those it inherits
/// through `__index` tables, views included) are read as plain data and deserialised as a
/// region file's would be. `what` names it in messages.
fn def<T: DeserializeOwned>(c: &Call, v: &Value, what: &str) -> mlua::Result<T> {
    let data = plain(c, v, what, 0)?;
    serde_json::from_value(data).map_err(|e| c.fail(format!("{what}: {e}")))
}

/// How deep hand-made region tables may nest (a vault's legend is the deepest, at 2).
const MAX_NESTING: usize = 8;

/// A Lua value as plain data.
fn plain(c: &Call, v: &Value, path: &str, depth: usize) -> mlua::Result<serde_json::Value> {
    use serde_json::Value as J;
    Ok(match v {
        Value::Nil => J::Null,
        Value::Boolean(b) => J::Bool(*b),
        Value::Integer(i) => J::from(*i),
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => J::from(*n as i64),
        Value::Number(n) => serde_json::Number::from_f64(*n)
            .map(J::Number)
            .ok_or_else(|| c.fail(format!("{path} = {n} is not a finite number")))?,
        Value::String(s) => J::String(s.to_string_lossy()),
        Value::Table(t) if depth < MAX_NESTING => plain_table(c, t, path, depth)?,
        Value::Table(_) => {
            return Err(c.fail(format!(
                "{path}: region tables nest at most {MAX_NESTING} deep"
            )))
        }
        other => {
            return Err(c.fail(format!(
                "{path} must be a string, number, boolean or table, got {}",
                shown(other)
            )))
        }
    })
}

/// A table's keys as a JSON object, or its items as an array when it is a list; keys
/// inherited through `__index` tables count unless the table has its own.
fn plain_table(c: &Call, t: &Table, path: &str, depth: usize) -> mlua::Result<serde_json::Value> {
    let mut object = serde_json::Map::new();
    let mut items: Vec<(i64, Value)> = Vec::new();
    let mut layer = Some(t.clone());
    let mut layers = 0;
    while let Some(l) = layer {
        layers += 1;
        if layers > MAX_NESTING {
            break;
        }
        for pair in l.pairs::<Value, Value>() {
            let (k, v) = pair?;
            match k {
                Value::String(s) => {
                    let key = s.to_string_lossy();
                    if !object.contains_key(&key) {
                        let child = plain(c, &v, &format!("{path}.{key}"), depth + 1)?;
                        object.insert(key, child);
                    }
                }
                Value::Integer(i) if layers == 1 || items.is_empty() => items.push((i, v)),
                Value::Integer(_) => {}
                other => {
                    return Err(c.fail(format!(
                        "{path} has a key {} (region tables have string keys)",
                        shown(&other)
                    )))
                }
            }
        }
        layer = match l.metatable() {
            Some(mt) => match mt.raw_get::<Value>("__index")? {
                Value::Table(next) => Some(next),
                _ => None,
            },
            None => None,
        };
    }
    crate::state::charge(c.lua(), (object.len() + items.len()) as u64)?;
    if object.is_empty() && !items.is_empty() {
        items.sort_by_key(|(i, _)| *i);
        let mut out = Vec::with_capacity(items.len());
        for (n, (i, v)) in items.iter().enumerate() {
            if *i != n as i64 + 1 {
                return Err(c.fail(format!("{path} is not a list (it has no item {})", n + 1)));
            }
            out.push(plain(c, v, &format!("{path}[{i}]"), depth + 1)?);
        }
        return Ok(serde_json::Value::Array(out));
    }
    if !items.is_empty() {
        return Err(c.fail(format!(
            "{path} mixes list items and named keys; a region table has named keys only"
        )));
    }
    Ok(serde_json::Value::Object(object))
}

/// Runs `resolver` over a hand-made table; its problems become one error naming `what`.
fn resolved<T>(
    c: &Call,
    what: &str,
    resolver: impl FnOnce(&mut Problems) -> Option<T>,
) -> mlua::Result<T> {
    let mut p = Problems::default();
    resolver(&mut p).ok_or_else(|| c.fail(format!("{what}: {}", p.joined())))
}

/// `argument 3 (streamer)`.
pub fn label(c: &Call, i: usize) -> String {
    format!("argument {} ({})", i + 1, c.decl().args[i].name)
}

/// The `[dungeon]` hand-made corridors and vaults are checked against: the run's.
fn run_dungeon(c: &Call) -> mlua::Result<DungeonDef> {
    Ok(registry(c)?.resolved.dungeon.def.clone())
}

/// A streamer region: a view of `ctx.regions.streamer[i]`, or a hand-made `[[streamer]]`.
pub fn streamer(c: &Call, v: &Value, what: &str, map: &Map) -> mlua::Result<StreamerRegion> {
    if let Some((reg, Entry::Streamer(i))) = tag_of(v, map.terrains()) {
        return Ok(reg.resolved.streamers[i].clone());
    }
    let d: StreamerDef = table_def(c, v, what)?;
    resolved(c, what, |p| resolve::streamer(&d, map.terrains(), p))
}

/// A room region: a view of `ctx.regions.room[i]`, or a hand-made `[[room]]`.
pub fn room(c: &Call, v: &Value, what: &str, map: &Map) -> mlua::Result<RoomRegion> {
    if let Some((reg, Entry::Room(i))) = tag_of(v, map.terrains()) {
        return Ok(reg.resolved.rooms[i].clone());
    }
    let d: RoomDef = table_def(c, v, what)?;
    let dungeon = run_dungeon(c)?;
    resolved(c, what, |p| resolve::room(&d, &dungeon, map.terrains(), p))
}

/// A vault: a view of `ctx.regions.vault[i]`, or a hand-made `[[vault]]` (checked to fit a
/// level of the run's `[dungeon]` size).
pub fn vault(c: &Call, v: &Value, what: &str, map: &Map) -> mlua::Result<VaultRegion> {
    if let Some((reg, Entry::Vault(i))) = tag_of(v, map.terrains()) {
        return Ok(reg.resolved.vaults[i].clone());
    }
    let d: VaultDef = table_def(c, v, what)?;
    let dungeon = run_dungeon(c)?;
    resolved(c, what, |p| resolve::vault(&d, &dungeon, map.terrains(), p))
}

/// A corridor region: a view of `ctx.regions.corridor[i]`, or a hand-made `[[corridor]]`
/// (its constants checked against `dungeon`).
pub fn corridor(
    c: &Call,
    v: &Value,
    what: &str,
    map: &Map,
    dungeon: &DungeonDef,
) -> mlua::Result<Corridor> {
    if let Some((reg, Entry::Corridor(i))) = tag_of(v, map.terrains()) {
        return Ok(reg.resolved.corridors[i].clone());
    }
    let d: CorridorDef = table_def(c, v, what)?;
    resolved(c, what, |p| {
        resolve::corridor(&d, dungeon, map.terrains(), p)
    })
}

/// The town style: a view of `ctx.regions.town`, or a hand-made `[town]`.
pub fn town(c: &Call, v: &Value, what: &str, map: &Map) -> mlua::Result<TownStyle> {
    if let Some((reg, Entry::Town)) = tag_of(v, map.terrains()) {
        if let Some(style) = reg.resolved.town {
            return Ok(style);
        }
    }
    let d: TownDef = table_def(c, v, what)?;
    resolved(c, what, |p| resolve::town(&d, map.terrains(), p))
}

/// `v` read as a hand-made region table of type `T`.
fn table_def<T: DeserializeOwned>(c: &Call, v: &Value, what: &str) -> mlua::Result<T> {
    match v {
        Value::Table(_) => def(c, v, what),
        other => Err(c.fail(format!(
            "{what} must be a region table (a view of ctx.regions or one made like it), got {}",
            shown(other)
        ))),
    }
}

/// The items of a list argument, like `ipairs` (views included).
pub fn items(c: &Call, v: &Value, what: &str) -> mlua::Result<super::shapes::List> {
    match v {
        Value::Table(t) => super::shapes::list(c, t, what),
        other => Err(c.fail(format!("{what} must be a list, got {}", shown(other)))),
    }
}

/// What one level's tunnels are built from: `[dungeon]`, the corridor regions and the room
/// regions (for their doors).
pub struct TunnelRegions {
    /// `[dungeon]`.
    pub dungeon: Dungeon,
    /// Every corridor region.
    pub corridors: Vec<Corridor>,
    /// Every room region.
    pub rooms: Vec<RoomRegion>,
}

/// The regions of `warren.tunnel.new`'s argument `v`: nil or `ctx.regions` (the run's
/// regions as resolved), or a hand-made `{ dungeon =, corridor =, room = }` whose parts may be
/// views or hand-made (a hand-made `dungeon` takes the schema's defaults for keys it leaves
/// out).
pub fn tunnel_regions(c: &Call, v: &Value, what: &str, map: &Map) -> mlua::Result<TunnelRegions> {
    let run = |reg: &Registry| TunnelRegions {
        dungeon: reg.resolved.dungeon.clone(),
        corridors: reg.resolved.corridors.clone(),
        rooms: reg.resolved.rooms.clone(),
    };
    if v.is_nil() {
        let reg = registry(c)?;
        if Arc::ptr_eq(reg.terrains(), map.terrains()) {
            return Ok(run(&reg));
        }
    }
    if let Some((reg, Entry::Root)) = tag_of(v, map.terrains()) {
        return Ok(run(&reg));
    }
    let Value::Table(t) = v else {
        return Err(c.fail(format!(
            "{what} must be a table of regions (ctx.regions, or {{ corridor =, dungeon =, room = }}), got {}",
            shown(v)
        )));
    };
    let corridor_value: Value = t.get("corridor")?;
    let corridor_list = match corridor_value {
        Value::Nil => None,
        v => Some(items(c, &v, &format!("{what}.corridor"))?),
    };
    let dungeon_value: Value = t.get("dungeon")?;
    let dungeon_def: DungeonDef = match tag_of(&dungeon_value, map.terrains()) {
        Some((reg, Entry::Dungeon)) => reg.resolved.dungeon.def.clone(),
        _ if dungeon_value.is_nil() => DungeonDef::default(),
        _ => table_def(c, &dungeon_value, &format!("{what}.dungeon"))?,
    };
    let mut corridors = Vec::with_capacity(corridor_list.as_ref().map_or(0, |l| l.len()));
    for (n, item) in corridor_list.iter().flat_map(|l| l.iter()).enumerate() {
        let at = format!("{what}.corridor[{}]", n + 1);
        corridors.push(corridor(c, &item?, &at, map, &dungeon_def)?);
    }
    let weights: Vec<f64> = corridors.iter().map(|k| k.style.weight).collect();
    if let Some(m) = super::rng::weight_problem(&weights, |i| {
        format!("corridor '{}'", corridors[i].style.name)
    }) {
        return Err(c.fail(m));
    }
    let names: Vec<&str> = corridors.iter().map(|k| k.style.name.as_str()).collect();
    let dungeon = resolved(c, &format!("{what}.dungeon"), |p| {
        resolve::dungeon(&dungeon_def, &names, map.terrains(), p)
    })?;
    let room_value: Value = t.get("room")?;
    let mut rooms = Vec::new();
    if !room_value.is_nil() {
        for (n, item) in items(c, &room_value, &format!("{what}.room"))?
            .iter()
            .enumerate()
        {
            rooms.push(room(c, &item?, &format!("{what}.room[{}]", n + 1), map)?);
        }
    }
    Ok(TunnelRegions {
        dungeon,
        corridors,
        rooms,
    })
}

/// `[dungeon]` of the run's regions (for bindings whose defaults come from it).
pub fn dungeon(c: &Call) -> mlua::Result<Dungeon> {
    Ok(registry(c)?.resolved.dungeon.clone())
}

// The shape of `ctx.regions`, declared from the schema (a test holds the keys to it).

const fn int_key(k: IntKey, doc: &'static str) -> super::decl::Field {
    match k.default {
        Some(d) => key_or(k.key, Ty::int(k.min, k.max), Default::Int(d), doc),
        None => key(k.key, Ty::int(k.min, k.max), doc),
    }
}

const WEIGHT: Ty = Ty::Num {
    min: 0.0,
    max: f64::MAX,
};

/// `[[terrain]]`.
pub const TERRAIN_ENTRY: Class = Class {
    name: "warren.TerrainEntry",
    parent: None,
    doc: "A `[[terrain]]` of the region files.",
    fields: &[
        key("name", Ty::Str, "Unique name."),
        key("glyph", Ty::Str, "The character drawn for it."),
        key("color", Ty::Str, "Colour, `\"#rrggbb\"`."),
        key("solid", Ty::Bool, "Whether it blocks movement."),
        key_or(
            "hazard",
            Ty::Bool,
            Default::Bool(false),
            "Whether it is open but a walker must not cross it (a chasm, magma): connectivity treats it as a wall.",
        ),
        key_or(
            "description",
            Ty::Str,
            Default::Str(""),
            "A note for modders.",
        ),
    ],
};

/// `[door.weights]`.
pub const DOOR_WEIGHTS: Class = Class {
    name: "warren.DoorWeights",
    parent: None,
    doc: "`[door.weights]`: relative chances of a new door's states (Incursion's by default).",
    fields: &[
        key_or(
            "closed",
            WEIGHT,
            Default::Num(27.0),
            "Weight of a closed door.",
        ),
        key_or("open", WEIGHT, Default::Num(6.0), "Weight of an open door."),
        key_or(
            "locked",
            WEIGHT,
            Default::Num(27.0),
            "Weight of a locked door.",
        ),
        key_or(
            "secret",
            WEIGHT,
            Default::Num(10.0),
            "Weight of a secret door.",
        ),
    ],
};

/// `[[door]]`.
pub const DOOR_ENTRY: Class = Class {
    name: "warren.DoorEntry",
    parent: None,
    doc: "A `[[door]]` kind: the terrain each door state is drawn with, and the states' chances.",
    fields: &[
        key(
            "name",
            Ty::Str,
            "Unique name, used by regions' `door` and vault legends.",
        ),
        key("closed", Ty::Terrain, "A closed door (solid)."),
        key("open", Ty::Terrain, "An open door (open, no hazard)."),
        key_opt(
            "locked",
            Ty::Terrain,
            "A locked door (solid; default: `closed`).",
        ),
        key_opt(
            "broken",
            Ty::Terrain,
            "A broken door, an empty doorway (open; default: `open`).",
        ),
        key_opt(
            "secret",
            Ty::Terrain,
            "A secret door (solid; default: drawn as the wall beside it).",
        ),
        key_opt(
            "weights",
            Ty::Table(&DOOR_WEIGHTS),
            "How often a new door gets each state (default: Incursion's chances).",
        ),
        key_or(
            "wooden",
            Ty::Bool,
            Default::Bool(true),
            "Whether the door is wooden: on levels at most `[dungeon] wooden_door_depth` deep, regions whose door is not wooden make `[dungeon] wooden_door` doors.",
        ),
    ],
};

/// `[dungeon]`.
pub const DUNGEON_REGION: Class = Class {
    name: "warren.DungeonRegion",
    parent: None,
    doc: "`[dungeon]`: the constants of Incursion-style levels (every key has a default).",
    fields: &[
        int_key(TURN_CHANCE, "Percent chance per step that a corridor turns once its segment is longer than `segment_minlen`."),
        int_key(STUBBORN_CORRIDOR, "Percent chance that a turn ignores the destination."),
        int_key(SEGMENT_MINLEN, "Shortest segment before a voluntary turn; at most `segment_maxlen`."),
        int_key(SEGMENT_MAXLEN, "Longest segment before a forced turn."),
        int_key(LEVEL_WIDTH, "Level width in cells; a multiple of `panel_width`, at most 32 panels."),
        int_key(LEVEL_HEIGHT, "Level height in cells; a multiple of `panel_height`, at most 32 panels."),
        int_key(PANEL_WIDTH, "Panel width in cells."),
        int_key(PANEL_HEIGHT, "Panel height in cells."),
        int_key(MIN_STREAMERS, "Fewest streamers on a level; at most `max_streamers`."),
        int_key(MAX_STREAMERS, "Most streamers on a level."),
        key_opt("streamer_chance", Ty::int(STREAMER_CHANCE.min, STREAMER_CHANCE.max), "Incursion's count: `min_streamers`, then one more per success in a row of this percent chance, up to `max_streamers` (default: none, a uniform count)."),
        int_key(MIN_RIVER_DEPTH, "Shallowest depth with rivers."),
        int_key(MIN_CHASM_DEPTH, "Shallowest depth with new chasms."),
        int_key(REDUCE_CHASM_CHANCE, "Percent chance that chasms from above narrow."),
        int_key(VAULT_CHANCE, "Percent chance of each vault attempt placing a vault."),
        int_key(MAX_VAULTS, "Vault attempts per level."),
        int_key(MIN_STAIRS, "Fewest down stairs; at most `max_stairs`."),
        int_key(MAX_STAIRS, "Most down stairs."),
        int_key(ROOM_MIN_WIDTH, "Narrowest room, walls included; at most the panel width less 2."),
        int_key(ROOM_MAX_WIDTH, "Widest room, walls included; at most the panel width less 2."),
        int_key(ROOM_MIN_HEIGHT, "Shortest room, walls included; at most the panel height less 2."),
        int_key(ROOM_MAX_HEIGHT, "Tallest room, walls included; at most the panel height less 2."),
        int_key(LIFE_PERCENT, "Percent of a lifecave's cells that start as wall."),
        int_key(FIXUP_TRIALS, "Fix-up trials before generation gives up."),
        key_opt("corridor", Ty::Str, "The level's own corridor region (default: the first)."),
        key_opt("up_stairs", Ty::Terrain, "Up stairs terrain (default: \"up stairs\")."),
        key_opt("down_stairs", Ty::Terrain, "Down stairs terrain (default: \"down stairs\")."),
        key_opt("bridge", Ty::Terrain, "Terrain the fix-up lays across hazards that cut a level (open, no hazard; default: none)."),
        int_key(SECRET_DOOR_REVEAL_DEPTH, "On levels at most this deep no secret door stays near the up stairs."),
        int_key(SECRET_DOOR_REVEAL_RADIUS, "How near the up stairs `secret_door_reveal_depth` applies."),
        int_key(WOODEN_DOOR_DEPTH, "On levels at most this deep, regions whose door is not wooden make `wooden_door` doors (0: never)."),
        key_opt("wooden_door", Ty::Str, "The wooden `[[door]]` kind that stands in for the others there (default: the first wooden kind)."),
    ],
};

/// `[corridor.constants]`.
pub const CORRIDOR_CONSTANTS_CLASS: Class = Class {
    name: "warren.CorridorConstants",
    parent: None,
    doc: "A corridor region's overrides of `[dungeon]`'s corridor constants.",
    fields: &[
        key_opt(
            "turn_chance",
            Ty::int(TURN_CHANCE.min, TURN_CHANCE.max),
            "Overrides `[dungeon] turn_chance`.",
        ),
        key_opt(
            "stubborn_corridor",
            Ty::int(STUBBORN_CORRIDOR.min, STUBBORN_CORRIDOR.max),
            "Overrides `[dungeon] stubborn_corridor`.",
        ),
        key_opt(
            "segment_minlen",
            Ty::int(SEGMENT_MINLEN.min, SEGMENT_MINLEN.max),
            "Overrides `[dungeon] segment_minlen`.",
        ),
        key_opt(
            "segment_maxlen",
            Ty::int(SEGMENT_MAXLEN.min, SEGMENT_MAXLEN.max),
            "Overrides `[dungeon] segment_maxlen`.",
        ),
    ],
};

/// `[[corridor]]`.
pub const CORRIDOR_REGION: Class = Class {
    name: "warren.CorridorRegion",
    parent: None,
    doc: "A `[[corridor]]` region (a view of `ctx.regions.corridor[i]`, or a table made like one).",
    fields: &[
        key("name", Ty::Str, "Unique region name."),
        key(
            "weight",
            WEIGHT,
            "Relative chance of being chosen; 0 disables it.",
        ),
        key("floor", Ty::Terrain, "Corridor floor (open)."),
        key("walls", Ty::Terrain, "Walls around the floor."),
        key("door", Ty::Str, "The door tunnels make into this region: a `[[door]]` kind, or a terrain drawn alike in every state."),
        key_or(
            "staple",
            Ty::Bool,
            Default::Bool(false),
            "May be chosen again on the same level.",
        ),
        key_or(
            "keep_doors",
            Ty::Bool,
            Default::Bool(false),
            "Keep `door` at every depth, even where `[dungeon] wooden_door_depth` makes doors wooden.",
        ),
        key_opt(
            "constants",
            Ty::Table(&CORRIDOR_CONSTANTS_CLASS),
            "Overrides of `[dungeon]`'s corridor constants.",
        ),
    ],
};

/// `[[room]]`.
pub const ROOM_REGION: Class = Class {
    name: "warren.RoomRegion",
    parent: None,
    doc: "A `[[room]]` region (a view of `ctx.regions.room[i]`, or a table made like one).",
    fields: &[
        key("name", Ty::Str, "Unique region name."),
        key(
            "weight",
            WEIGHT,
            "Relative chance of being chosen; 0 disables it.",
        ),
        key(
            "kind",
            Ty::Choice(&warren_core::gen::dungeon::RoomKind::NAMES),
            "The room's shape.",
        ),
        key("floor", Ty::Terrain, "Floor (open)."),
        key("wall", Ty::Terrain, "Walls."),
        key(
            "door",
            Ty::Str,
            "Doors into the room, a castle's inner doors and a maze's secret doors: a `[[door]]` kind, or a terrain drawn alike in every state.",
        ),
        key_opt(
            "furnishing",
            Ty::Terrain,
            "Pillars and rubble (default: `wall`).",
        ),
        key_or(
            "keep_doors",
            Ty::Bool,
            Default::Bool(false),
            "Keep `door` at every depth, even where `[dungeon] wooden_door_depth` makes doors wooden.",
        ),
        int_key(MIN_DEPTH, "Shallowest depth it appears at."),
        int_key(
            MAX_DEPTH,
            "Deepest depth it appears at; at least `min_depth`.",
        ),
    ],
};

/// `[[streamer]]`.
pub const STREAMER_REGION: Class = Class {
    name: "warren.StreamerRegion",
    parent: None,
    doc: "A `[[streamer]]` region (a view of `ctx.regions.streamer[i]`, or a table made like one).",
    fields: &[
        key("name", Ty::Str, "Unique region name."),
        key(
            "weight",
            WEIGHT,
            "Relative chance of being chosen; 0 disables it.",
        ),
        key(
            "kind",
            Ty::Choice(&warren_core::gen::dungeon::StreamerKind::NAMES),
            "River, chasm, lava or rock vein.",
        ),
        key("terrain", Ty::Terrain, "Terrain written."),
        int_key(STREAMER_MIN_WIDTH, "Narrowest width; at most `max_width`."),
        int_key(STREAMER_MAX_WIDTH, "Widest width."),
        int_key(MIN_DEPTH, "Shallowest depth it appears at."),
        key_opt(
            "priority",
            Ty::Str,
            "Write priority by name (default: the kind's).",
        ),
    ],
};

/// `[[vault]]`.
pub const VAULT_REGION: Class = Class {
    name: "warren.VaultRegion",
    parent: None,
    doc: "A `[[vault]]` (a view of `ctx.regions.vault[i]`, or a table made like one).",
    fields: &[
        key("name", Ty::Str, "Unique region name."),
        key(
            "weight",
            WEIGHT,
            "Relative chance of being chosen; 0 disables it.",
        ),
        int_key(MIN_DEPTH, "Shallowest depth it appears at."),
        int_key(
            MAX_DEPTH,
            "Deepest depth it appears at; at least `min_depth`.",
        ),
        key("grid", Ty::Str, "The vault, one row per line."),
        key(
            "legend",
            Ty::AnyTable,
            "Glyph → terrain name, or `[[door]]` kind, for every glyph of `grid`.",
        ),
        key_or(
            "keep_doors",
            Ty::Bool,
            Default::Bool(true),
            "Keep the legend's door kinds at every depth (Incursion's vaults); `false` follows `[dungeon] wooden_door_depth`.",
        ),
    ],
};

/// `[[prefab.subst]]`.
pub const PREFAB_SUBST: Class = Class {
    name: "warren.PrefabSubst",
    parent: None,
    doc: "One substitution of a `[[prefab]]`: `one_of` or `count` (docs/vaults.md).",
    fields: &[
        key("glyph", Ty::Str, "The glyph whose cells change."),
        key_opt(
            "one_of",
            Ty::Str,
            "Glyphs to choose from, written together (\"T..\").",
        ),
        key_opt(
            "per",
            Ty::Choice(&["cell", "placement"]),
            "With one_of: a draw per cell (default) or one per placement.",
        ),
        key_opt(
            "count",
            Ty::int(0, i64::MAX),
            "Exactly this many of the glyph's cells become `becomes`.",
        ),
        key_opt("becomes", Ty::Str, "With count: what those cells become."),
        key_opt(
            "rest",
            Ty::Str,
            "With count: what the other cells become (default: they keep the glyph).",
        ),
    ],
};

/// `[[sample]]`.
pub const SAMPLE_ENTRY: Class = Class {
    name: "warren.SampleEntry",
    parent: None,
    doc: "A `[[sample]]`: a small map for wave function collapse (`warren.toolbox.wfc` takes its name).",
    fields: &[
        key("name", Ty::Str, "Unique name among samples."),
        key("grid", Ty::Str, "The map, one row per line."),
        key(
            "legend",
            Ty::AnyTable,
            "Glyph → terrain name for every glyph of `grid`.",
        ),
        key_or(
            "periodic",
            Ty::Bool,
            Default::Bool(false),
            "Whether the map tiles, so its windows wrap round its edges.",
        ),
    ],
};

/// `[[prefab]]`.
pub const PREFAB_ENTRY: Class = Class {
    name: "warren.PrefabEntry",
    parent: None,
    doc: "A `[[prefab]]` vault template (a view of `ctx.regions.prefab[i]`); `warren.toolbox.place_vaults` places them.",
    fields: &[
        key("name", Ty::Str, "Unique name, stamped as the region of its cells."),
        key("map", Ty::Str, "The template, one row per line."),
        key("legend", Ty::AnyTable, "Glyph → terrain name or `[[door]]` kind."),
        key("subst", Ty::TableList(&PREFAB_SUBST), "Substitutions, in order."),
        key_or("rotate", Ty::Bool, Default::Bool(true), "May be turned by quarter turns."),
        key_or("mirror", Ty::Bool, Default::Bool(true), "May be mirrored."),
        key_or("weight", WEIGHT, Default::Num(1.0), "Relative chance of being picked; 0 disables it."),
        int_key(MIN_DEPTH, "Shallowest depth it is picked for."),
        int_key(MAX_DEPTH, "Deepest depth it is picked for; at least `min_depth`."),
        key("tags", Ty::Strings, "Tags a placement picks it by."),
        key_or("connect", Ty::Str, Default::Str(""), "Its entrance glyphs, written together (\"+\")."),
    ],
};

/// `[town.debug]`.
pub const TOWN_DEBUG_STYLE: Class = Class {
    name: "warren.TownDebugStyle",
    parent: None,
    doc: "`[town.debug]`: the terrains of a town's debug view.",
    fields: &[
        key("isolated", Ty::Terrain, "A room with no street beside it."),
        key(
            "live",
            Ty::Terrain,
            "A room that may still become a street.",
        ),
        key("dead", Ty::Terrain, "A room with its door on a street."),
        key("unused", Ty::Terrain, "An unused block."),
        key("north", Ty::Terrain, "A street running north."),
        key("east", Ty::Terrain, "A street running east."),
        key("south", Ty::Terrain, "A street running south."),
        key("west", Ty::Terrain, "A street running west."),
        key("no_heading", Ty::Terrain, "A street with no direction."),
    ],
};

/// `[town]`.
pub const TOWN_STYLE: Class = Class {
    name: "warren.TownStyle",
    parent: None,
    doc: "`[town]`: the terrains a town is drawn with (a view of `ctx.regions.town`, or a table made like it).",
    fields: &[
        key("wall", Ty::Terrain, "Walls, closed doors and closed gates."),
        key("vertical_door", Ty::Terrain, "A door in a vertical wall."),
        key("horizontal_door", Ty::Terrain, "A door in a horizontal wall."),
        key("vertical_gate", Ty::Terrain, "An open gate in the west or east wall."),
        key("horizontal_gate", Ty::Terrain, "An open gate in the north or south wall."),
        key("street", Ty::Terrain, "Streets and the open walls between them."),
        key("floor", Ty::Terrain, "A room's floor."),
        key("unused", Ty::Terrain, "The centre of an unused block."),
        key_opt("debug", Ty::Table(&TOWN_DEBUG_STYLE), "The debug view's terrains."),
    ],
};

/// `[rooms]`.
pub const ROOMS_TERRAINS: Class = Class {
    name: "warren.RoomsTerrains",
    parent: None,
    doc: "`[rooms]`: terrains of the rooms-and-corridors recipe.",
    fields: &[
        key("floor", Ty::Terrain, "Room floor."),
        key("corridor", Ty::Terrain, "Corridor floor."),
        key("wall", Ty::Terrain, "Around rooms and corridors."),
    ],
};

/// `[cave]`.
pub const CAVE_TERRAINS: Class = Class {
    name: "warren.CaveTerrains",
    parent: None,
    doc: "`[cave]`: terrains of the directional-cave recipe.",
    fields: &[
        key("floor", Ty::Terrain, "Cave floor."),
        key("wall", Ty::Terrain, "Cave wall."),
        key("entrance", Ty::Terrain, "The entrance cell."),
        key("exit", Ty::Terrain, "The exit cell."),
        key("pillar", Ty::Terrain, "Pillars."),
    ],
};

/// `[[spawn]]`.
pub const SPAWN_ENTRY: Class = Class {
    name: "warren.SpawnEntry",
    parent: None,
    doc: "A `[[spawn]]`: something that may be spawned, with its weight.",
    fields: &[
        key("name", Ty::Str, "What spawns."),
        key("weight", WEIGHT, "Relative chance."),
    ],
};

/// `ctx.regions`.
pub const REGIONS: Class = Class {
    name: "warren.Regions",
    parent: None,
    doc: "`ctx.regions`: read-only tables of the region files' data, resolved once at load (see docs/region-reference.md). Calls given one of these tables use the resolved entry directly; a table made like one is resolved with the same defaults, ranges and messages.",
    fields: &[
        key("terrain", Ty::TableList(&TERRAIN_ENTRY), "Every `[[terrain]]`."),
        key("door", Ty::TableList(&DOOR_ENTRY), "Every `[[door]]` kind."),
        key("dungeon", Ty::Table(&DUNGEON_REGION), "`[dungeon]` (defaults when no file has it)."),
        key("corridor", Ty::TableList(&CORRIDOR_REGION), "Every `[[corridor]]` region."),
        key("room", Ty::TableList(&ROOM_REGION), "Every `[[room]]` region."),
        key("streamer", Ty::TableList(&STREAMER_REGION), "Every `[[streamer]]` region."),
        key("vault", Ty::TableList(&VAULT_REGION), "Every `[[vault]]`."),
        key("prefab", Ty::TableList(&PREFAB_ENTRY), "Every `[[prefab]]` vault template."),
        key_opt("rooms", Ty::Table(&ROOMS_TERRAINS), "`[rooms]`, if a file has it."),
        key_opt("cave", Ty::Table(&CAVE_TERRAINS), "`[cave]`, if a file has it."),
        key_opt("town", Ty::Table(&TOWN_STYLE), "`[town]`, if a file has it."),
        key("spawn", Ty::TableList(&SPAWN_ENTRY), "Every `[[spawn]]`."),
        key("sample", Ty::TableList(&SAMPLE_ENTRY), "Every `[[sample]]`."),
    ],
};

/// The classes of `ctx.regions` and its entries.
pub const CLASSES: &[&Class] = &[
    &REGIONS,
    &TERRAIN_ENTRY,
    &DOOR_ENTRY,
    &DOOR_WEIGHTS,
    &DUNGEON_REGION,
    &CORRIDOR_REGION,
    &CORRIDOR_CONSTANTS_CLASS,
    &ROOM_REGION,
    &STREAMER_REGION,
    &VAULT_REGION,
    &PREFAB_ENTRY,
    &PREFAB_SUBST,
    &TOWN_STYLE,
    &TOWN_DEBUG_STYLE,
    &ROOMS_TERRAINS,
    &CAVE_TERRAINS,
    &SPAWN_ENTRY,
    &SAMPLE_ENTRY,
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn keys(c: &Class) -> BTreeSet<String> {
        c.fields.iter().map(|f| f.key.to_string()).collect()
    }

    fn json_keys(v: serde_json::Value) -> BTreeSet<String> {
        v.as_object().unwrap().keys().cloned().collect()
    }

    /// Every section and key of the schema is declared, and nothing else.
    #[test]
    fn the_declared_shape_is_the_schemas() {
        let data = serde_json::to_value(warren_core::region::RegistryData::default()).unwrap();
        assert_eq!(keys(&REGIONS), json_keys(data));
        let d = serde_json::to_value(DungeonDef::default()).unwrap();
        assert_eq!(keys(&DUNGEON_REGION), json_keys(d));
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../regions/dungeon.toml"),
        )
        .unwrap();
        let file: RegionFile = toml::from_str(&text).unwrap();
        let first = |v: serde_json::Value| json_keys(v.as_array().unwrap()[0].clone());
        let all = serde_json::to_value(&file).unwrap();
        assert_eq!(keys(&CORRIDOR_REGION), first(all["corridor"].clone()));
        assert_eq!(keys(&ROOM_REGION), first(all["room"].clone()));
        assert_eq!(keys(&STREAMER_REGION), first(all["streamer"].clone()));
        assert_eq!(keys(&VAULT_REGION), first(all["vault"].clone()));
        assert_eq!(keys(&DOOR_ENTRY), first(all["door"].clone()));
        assert_eq!(
            keys(&DOOR_WEIGHTS),
            json_keys(all["door"][0]["weights"].clone())
        );
        assert_eq!(
            keys(&CORRIDOR_CONSTANTS_CLASS),
            json_keys(serde_json::to_value(CorridorConstants::default()).unwrap())
        );
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../regions/town.toml"),
        )
        .unwrap();
        let file: RegionFile = toml::from_str(&text).unwrap();
        let town = serde_json::to_value(file.town.unwrap()).unwrap();
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../regions/vaults.toml"),
        )
        .unwrap();
        let vaults = serde_json::to_value(toml::from_str::<RegionFile>(&text).unwrap()).unwrap();
        assert_eq!(keys(&PREFAB_ENTRY), first(vaults["prefab"].clone()));
        let subst = vaults["prefab"][1]["subst"][0].clone();
        assert_eq!(keys(&PREFAB_SUBST), json_keys(subst));
        assert_eq!(keys(&TOWN_DEBUG_STYLE), json_keys(town["debug"].clone()));
        assert_eq!(keys(&TOWN_STYLE), json_keys(town));
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../regions/samples.toml"),
        )
        .unwrap();
        let file: RegionFile = toml::from_str(&text).unwrap();
        let all = serde_json::to_value(&file).unwrap();
        assert_eq!(keys(&SAMPLE_ENTRY), first(all["sample"].clone()));
    }
}
