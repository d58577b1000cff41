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
//! The shape of `ctx.regions` — every section and key — is the region schema's: [`REGIONS`]
//! and the entry classes are made at compile time from the `SHAPE` of each schema struct
//! ([`warren_core::region::shape`]: keys, kinds, ranges, defaults and the modder's doc
//! comments), so the stubs, `warren check` and the API reference read the schema itself. Only
//! the classes' LuaLS names, which class stands for each nested table, and the doc of
//! `ctx.regions` are stated here.

use super::call::{shown, target, Call};
use super::decl::{key, key_opt, key_or, same_text, Class, Default, Field, Ty};
use mlua::{AnyUserData, Lua, Table, UserData, Value};
use serde::de::DeserializeOwned;
use std::sync::Arc;
use warren_core::map::{Map, TerrainTable};
use warren_core::region::resolve::{self, Problems};
use warren_core::region::schema::*;
use warren_core::region::shape::{self, Key, KeyKind, Presence, Section};
use warren_core::region::{
    Corridor, Dungeon, Registry, RegistryData, RoomRegion, StreamerRegion, TownStyle, VaultRegion,
};

/// The metatable key under which a view keeps its tag. Scripts cannot reach a view's
/// metatable (`getmetatable` gives `false`), so the tag cannot be read or forged.
const TAG: &str = "__warren_entry";

/// Where the metatables of views are numbered (see `lua_warren_setidbase`), all with this one
/// id: scripts cannot reach them (so cannot key a table by them), and numbered apart they move
/// no id of what loading and runs number (`host.rs`, `api::fast`).
const VIEW_ID_BASE: u64 = (1 << 39) + (1 << 31);

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
        if t.metatable().is_some() {
            let ud = lua.create_userdata(Tag {
                registry: registry.clone(),
                entry,
            })?;
            crate::readonly::own_metatable(lua, t, TAG, ud, VIEW_ID_BASE)?;
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

// The shape of `ctx.regions`: every class below is made, at compile time, from the `SHAPE` of
// a schema struct (its doc comment, keys, kinds, ranges, defaults and key docs); only the
// LuaLS names, and which class stands for each nested table, are stated here.

/// The type of a key of `kind`; `nested` names the class of each key that holds tables.
const fn ty(key: &str, kind: KeyKind, nested: &[(&str, &'static Class)]) -> Ty {
    match kind {
        KeyKind::Text => Ty::Str,
        KeyKind::Terrain => Ty::Terrain,
        KeyKind::Bool => Ty::Bool,
        KeyKind::Int { min, max } => Ty::int(min, max),
        KeyKind::Weight => Ty::Num {
            min: 0.0,
            max: f64::MAX,
        },
        KeyKind::Choice(names) => Ty::Choice(names),
        KeyKind::Texts => Ty::Strings,
        KeyKind::Legend => Ty::AnyTable,
        KeyKind::Table(_) => Ty::Table(nested_class(key, nested)),
        KeyKind::List(_) => Ty::TableList(nested_class(key, nested)),
    }
}

/// The class `nested` gives for `key` (a compile error when it gives none).
const fn nested_class(key: &str, nested: &[(&str, &'static Class)]) -> &'static Class {
    let mut i = 0;
    while i < nested.len() {
        if same_text(nested[i].0, key) {
            return nested[i].1;
        }
        i += 1;
    }
    panic!("a key holding tables has no class")
}

/// The field declaring schema key `k`.
const fn field(k: &Key, nested: &[(&str, &'static Class)]) -> Field {
    let ty = ty(k.name, k.spec.kind, nested);
    match k.spec.presence {
        Presence::Required => key(k.name, ty, k.doc),
        Presence::Optional => key_opt(k.name, ty, k.doc),
        Presence::Default(v) => key_or(
            k.name,
            ty,
            match v {
                shape::Value::Int(i) => Default::Int(i),
                shape::Value::Num(n) => Default::Num(n),
                shape::Value::Bool(b) => Default::Bool(b),
                shape::Value::Text(s) => Default::Str(s),
            },
            k.doc,
        ),
    }
}

/// The fields declaring every key of `section`, in its order (`N` is its number of keys).
const fn fields<const N: usize>(
    section: &Section,
    nested: &[(&str, &'static Class)],
) -> [Field; N] {
    assert!(section.keys.len() == N);
    let mut out = [key("", Ty::Any, ""); N];
    let mut i = 0;
    while i < N {
        out[i] = field(&section.keys[i], nested);
        i += 1;
    }
    out
}

/// The class `name` of the schema struct `$def`: its doc comment and its keys; each
/// `"key" => CLASS` names the class of a key holding tables.
macro_rules! region_class {
    ($name:literal, $def:ty $(, $key:literal => $class:expr)* $(,)?) => {
        Class {
            name: $name,
            parent: None,
            doc: <$def>::SHAPE.doc,
            fields: &fields::<{ <$def>::SHAPE.keys.len() }>(
                &<$def>::SHAPE,
                &[$(($key, &$class)),*],
            ),
        }
    };
}

/// `[[terrain]]`.
pub const TERRAIN_ENTRY: Class = region_class!("warren.TerrainEntry", TerrainDef);

/// `[door.weights]`.
pub const DOOR_WEIGHTS: Class = region_class!("warren.DoorWeights", DoorWeightsDef);

/// `[[door]]`.
pub const DOOR_ENTRY: Class = region_class!("warren.DoorEntry", DoorDef, "weights" => DOOR_WEIGHTS);

/// `[dungeon]`.
pub const DUNGEON_REGION: Class = region_class!("warren.DungeonRegion", DungeonDef);

/// `[corridor.constants]`.
pub const CORRIDOR_CONSTANTS_CLASS: Class =
    region_class!("warren.CorridorConstants", CorridorConstants);

/// `[[corridor]]`.
pub const CORRIDOR_REGION: Class = region_class!(
    "warren.CorridorRegion",
    CorridorDef,
    "constants" => CORRIDOR_CONSTANTS_CLASS,
);

/// `[[room]]`.
pub const ROOM_REGION: Class = region_class!("warren.RoomRegion", RoomDef);

/// `[[streamer]]`.
pub const STREAMER_REGION: Class = region_class!("warren.StreamerRegion", StreamerDef);

/// `[[vault]]`.
pub const VAULT_REGION: Class = region_class!("warren.VaultRegion", VaultDef);

/// `[[prefab.subst]]`.
pub const PREFAB_SUBST: Class = region_class!("warren.PrefabSubst", SubstDef);

/// `[[sample]]`.
pub const SAMPLE_ENTRY: Class = region_class!("warren.SampleEntry", SampleDef);

/// `[[prefab]]`.
pub const PREFAB_ENTRY: Class =
    region_class!("warren.PrefabEntry", PrefabDef, "subst" => PREFAB_SUBST);

/// `[town.debug]`.
pub const TOWN_DEBUG_STYLE: Class = region_class!("warren.TownDebugStyle", TownDebugDef);

/// `[town]`.
pub const TOWN_STYLE: Class =
    region_class!("warren.TownStyle", TownDef, "debug" => TOWN_DEBUG_STYLE);

/// `[rooms]`.
pub const ROOMS_TERRAINS: Class = region_class!("warren.RoomsTerrains", RoomsDef);

/// `[cave]`.
pub const CAVE_TERRAINS: Class = region_class!("warren.CaveTerrains", CaveDef);

/// `[[spawn]]`.
pub const SPAWN_ENTRY: Class = region_class!("warren.SpawnEntry", SpawnDef);

/// `ctx.regions`: the keys of [`RegistryData`]; the doc says what the Lua tables are.
pub const REGIONS: Class = Class {
    doc: "`ctx.regions`: read-only tables of the region files' data, resolved once at load (see docs/region-reference.md). Calls given one of these tables use the resolved entry directly; a table made like one is resolved with the same defaults, ranges and messages.",
    ..region_class!(
        "warren.Regions",
        RegistryData,
        "terrain" => TERRAIN_ENTRY,
        "door" => DOOR_ENTRY,
        "dungeon" => DUNGEON_REGION,
        "corridor" => CORRIDOR_REGION,
        "room" => ROOM_REGION,
        "streamer" => STREAMER_REGION,
        "vault" => VAULT_REGION,
        "prefab" => PREFAB_ENTRY,
        "rooms" => ROOMS_TERRAINS,
        "cave" => CAVE_TERRAINS,
        "town" => TOWN_STYLE,
        "spawn" => SPAWN_ENTRY,
        "sample" => SAMPLE_ENTRY,
    )
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
