//! `warren.gen`: whole generation phases implemented in Rust, one call each.

use super::args::{self, brush, int, known_keys};
use super::map::LuaMap;
use super::rects::LuaRects;
use super::rng::LuaRng;
use crate::gen::connectivity;
use crate::gen::rooms::{self, ScatterOptions, SpawnEntry, Strategy};
use crate::map::{dogleg, Corridor, DogLeg, MapError};
use crate::script::fail;
use mlua::{AnyUserData, Lua, Table, Value};

/// An integer option with a default and a valid range.
fn opt_int(
    lua: &Lua,
    o: &Table,
    key: &str,
    default: i64,
    lo: i64,
    hi: i64,
    call: &str,
) -> mlua::Result<i64> {
    let v: Value = o.raw_get(key)?;
    if v.is_nil() {
        return Ok(default);
    }
    let n = int(lua, &v, call, key)?;
    if !(lo..=hi).contains(&n) {
        return Err(fail(
            lua,
            format!("{call}: {key} = {n} is out of range ({lo}..={hi})"),
        ));
    }
    Ok(n)
}

/// `warren.gen.scatter_rooms(map, rng, {attempts=, min_size=, max_size=})` → a list of room
/// rectangles (not yet carved).
fn scatter_rooms(
    lua: &Lua,
    (map, rng, opts): (AnyUserData, AnyUserData, Option<Table>),
) -> mlua::Result<LuaRects> {
    let call = "warren.gen.scatter_rooms";
    let opts = match opts {
        Some(o) => o,
        None => lua.create_table()?,
    };
    known_keys(lua, &opts, call, &["attempts", "min_size", "max_size"])?;
    let attempts = opt_int(lua, &opts, "attempts", 30, 0, 100_000, call)?;
    let min_size = opt_int(lua, &opts, "min_size", 6, 1, 4096, call)?;
    let max_size = opt_int(lua, &opts, "max_size", 10, 1, 4096, call)?;
    if min_size > max_size {
        return Err(fail(
            lua,
            format!("{call}: min_size = {min_size} exceeds max_size = {max_size}"),
        ));
    }
    let (w, h) = {
        let m = map.borrow::<LuaMap>()?;
        (m.0.width(), m.0.height())
    };
    let mut r = rng.borrow_mut::<LuaRng>()?;
    let found = rooms::scatter_rooms(
        w,
        h,
        &mut r.0,
        &ScatterOptions {
            attempts: attempts as u32,
            min_size: min_size as i32,
            max_size: max_size as i32,
        },
    );
    Ok(LuaRects(found))
}

/// `warren.gen.connect_rooms(map, rng, rooms, {strategy=, terrain=, priority=, force=, region=})`.
fn connect_rooms(
    lua: &Lua,
    (map, rng, list, opts): (AnyUserData, AnyUserData, Value, Table),
) -> mlua::Result<usize> {
    let call = "warren.gen.connect_rooms";
    let strategy: String = opts
        .raw_get::<Option<String>>("strategy")?
        .unwrap_or_else(|| "nearest".into());
    let strategy = Strategy::from_name(&strategy).ok_or_else(|| {
        fail(
            lua,
            format!(
                "{call}: strategy = '{strategy}' (valid: {})",
                Strategy::NAMES.join(", ")
            ),
        )
    })?;
    let terrain: String = opts
        .raw_get::<Option<String>>("terrain")?
        .ok_or_else(|| fail(lua, format!("{call}: options need 'terrain'")))?;
    let rects = args::rect_list(lua, &list, call)?;
    let mut m = map.borrow_mut::<LuaMap>()?;
    for r in &rects {
        m.0.check_rect(r)
            .map_err(|e| fail(lua, format!("{call}: room {e}")))?;
    }
    let b = brush(
        lua,
        &mut m.0,
        &terrain,
        Some(&opts),
        call,
        &["strategy", "terrain"],
    )?;
    let mut r = rng.borrow_mut::<LuaRng>()?;
    rooms::connect_rooms(&mut m.0, &mut r.0, &rects, strategy, &b)
        .map_err(|e| fail(lua, format!("{call}: {e}")))
}

/// `warren.gen.spawn_in_corridors(map, rng, {table=, max_per_area=, depth=})`.
fn spawn_in_corridors(
    lua: &Lua,
    (map, rng, opts): (AnyUserData, AnyUserData, Table),
) -> mlua::Result<usize> {
    let call = "warren.gen.spawn_in_corridors";
    known_keys(lua, &opts, call, &["table", "max_per_area", "depth"])?;
    let list: Table = opts.raw_get::<Option<Table>>("table")?.ok_or_else(|| {
        fail(
            lua,
            format!("{call}: options need 'table' (a list of {{name=, weight=}})"),
        )
    })?;
    let mut table = Vec::new();
    for (i, e) in args::list(&list)?.into_iter().enumerate() {
        let Value::Table(e) = e else {
            return Err(fail(
                lua,
                format!("{call}: table entry {} is not a table", i + 1),
            ));
        };
        let name: String = e
            .get::<Option<String>>("name")?
            .ok_or_else(|| fail(lua, format!("{call}: table entry {} has no name", i + 1)))?;
        let weight: f64 = e.get::<Option<f64>>("weight")?.unwrap_or(1.0);
        if !weight.is_finite() || weight < 0.0 {
            return Err(fail(
                lua,
                format!(
                    "{call}: entry '{name}' has weight {weight}; weights must be finite and ≥ 0"
                ),
            ));
        }
        table.push(SpawnEntry { name, weight });
    }
    let max = opt_int(lua, &opts, "max_per_area", 4, 0, 1000, call)?;
    let depth = opt_int(lua, &opts, "depth", 1, 1, 1000, call)?;
    let mut m = map.borrow_mut::<LuaMap>()?;
    let mut r = rng.borrow_mut::<LuaRng>()?;
    Ok(rooms::spawn_in_corridors(
        &mut m.0, &mut r.0, &table, max, depth,
    ))
}

/// `warren.gen.join_areas(map, rng, {terrain=, priority=, force=, region=, trials=})`: joins
/// every separate open area to the first one with one-bend tunnels (Incursion's fix-up loop with
/// a dog-leg connector). Returns `{ areas_before =, tunnels = }`.
fn join_areas(
    lua: &Lua,
    (map, rng, opts): (AnyUserData, AnyUserData, Table),
) -> mlua::Result<Table> {
    let call = "warren.gen.join_areas";
    let terrain: String = opts
        .raw_get::<Option<String>>("terrain")?
        .ok_or_else(|| fail(lua, format!("{call}: options need 'terrain'")))?;
    let trials = opt_int(lua, &opts, "trials", 64, 1, 100_000, call)?;
    let mut m = map.borrow_mut::<LuaMap>()?;
    let b = brush(
        lua,
        &mut m.0,
        &terrain,
        Some(&opts),
        call,
        &["terrain", "trials"],
    )?;
    let mut r = rng.borrow_mut::<LuaRng>()?;
    let report = connectivity::fixup(&mut m.0, &mut r.0, trials as u32, |map, rng, from, to| {
        let order = if rng.below(2) == 0 {
            DogLeg::HorizontalFirst
        } else {
            DogLeg::VerticalFirst
        };
        let cells = map.carve_path(&dogleg(from, to, order), &b)?;
        map.notes.corridors.push(Corridor {
            cells,
            region: Some("join".into()),
        });
        Ok::<(), MapError>(())
    })
    .map_err(|e| fail(lua, format!("{call}: {e}")))?;
    let out = lua.create_table()?;
    out.raw_set("areas_before", report.components_before)?;
    out.raw_set("tunnels", report.tunnels.len())?;
    Ok(out)
}

/// The `warren.gen` table.
pub fn table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set("scatter_rooms", lua.create_function(scatter_rooms)?)?;
    t.set("connect_rooms", lua.create_function(connect_rooms)?)?;
    t.set(
        "spawn_in_corridors",
        lua.create_function(spawn_in_corridors)?,
    )?;
    t.set("join_areas", lua.create_function(join_areas)?)?;
    Ok(t)
}
