//! `warren.gen`: whole generation phases implemented in Rust, one call each.

use super::args::{self, brush, connectivity, int, known_keys};
use super::cost;
use super::map::LuaMap;
use super::rects::LuaRects;
use super::rng::LuaRng;
use crate::budget::{charge, charge_bytes};
use crate::fail;
use mlua::{AnyUserData, Lua, String as LuaString, Table, Value};
use warren_core::gen::connectivity::{self, FixupError};
use warren_core::gen::passage::natural_passage;
use warren_core::gen::rooms::{self, ScatterOptions, SpawnEntry, Strategy};
use warren_core::map::{dogleg, Corridor, DogLeg, MapError, Rect, TagValue};

/// An integer option with a default and a valid range.
fn opt_int(
    lua: &Lua,
    o: &Table,
    key: &LuaString,
    default: i64,
    lo: i64,
    hi: i64,
    call: &str,
) -> mlua::Result<i64> {
    let v: Value = o.raw_get(key)?;
    match v {
        Value::Nil => return Ok(default),
        Value::Integer(n) if (lo..=hi).contains(&n) => return Ok(n),
        _ => {}
    }
    // Only a value that needs a message spells the key out.
    let key = key.to_string_lossy();
    let n = int(lua, &v, call, &key)?;
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
    // Each attempt is checked against every room placed so far; 20000 attempts keep one call
    // under a second even when tiny rooms fill a large map.
    let k = args::keys(lua);
    let attempts = opt_int(lua, &opts, &k.attempts, 30, 0, 20_000, call)?;
    let min_size = opt_int(lua, &opts, &k.min_size, 6, 1, 4096, call)?;
    let max_size = opt_int(lua, &opts, &k.max_size, 10, 1, 4096, call)?;
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
    // About four overlap tests cost one VM instruction.
    charge(lua, attempts as u64 * (1 + found.len() as u64 / 8))?;
    Ok(LuaRects(found))
}

/// `warren.gen.connect_rooms(map, rng, rooms, {strategy=, terrain=, connectivity=, priority=,
/// force=, region=})`.
fn connect_rooms(
    lua: &Lua,
    (map, rng, list, opts): (AnyUserData, AnyUserData, Value, Table),
) -> mlua::Result<usize> {
    let call = "warren.gen.connect_rooms";
    let k = args::keys(lua);
    let strategy: String = opts
        .raw_get::<Option<String>>(&k.strategy)?
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
        .raw_get::<Option<String>>(&k.terrain)?
        .ok_or_else(|| fail(lua, format!("{call}: options need 'terrain'")))?;
    drop(k);
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
        &["strategy", "terrain", "connectivity"],
    )?;
    let adjacency = connectivity(lua, Some(&opts), call)?;
    let paths = path_bound(&rects);
    let pairing = match strategy {
        Strategy::Nearest | Strategy::Lines => rects.len() as u64 * rects.len() as u64 / 8,
        Strategy::Dogleg | Strategy::Bsp => 0,
    };
    charge(lua, pairing + cost::cell_work(paths))?;
    let corridors = m.0.notes.corridors.len();
    let mut r = rng.borrow_mut::<LuaRng>()?;
    let drawn = rooms::connect_rooms(&mut m.0, &mut r.0, &rects, strategy, (&b, adjacency))
        .map_err(|e| fail(lua, format!("{call}: {e}")))?;
    let added: usize = m.0.notes.corridors[corridors..]
        .iter()
        .map(cost::corridor)
        .sum();
    charge_bytes(lua, added)?;
    Ok(drawn)
}

/// How many cells the paths between consecutive rooms can have: what the dog-leg and BSP
/// strategies draw. (Nearest-neighbour pairings draw shorter paths than the room to their
/// next one.)
fn path_bound(rects: &[Rect]) -> u64 {
    rects
        .windows(2)
        .map(|w| {
            let (a, b) = (w[0].center(), w[1].center());
            let reach = (w[0].w + w[0].h + w[1].w + w[1].h) as i64;
            ((a.x as i64 - b.x as i64).abs() + (a.y as i64 - b.y as i64).abs() + reach + 1) as u64
        })
        .sum()
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
    for (i, e) in args::list(lua, &list, call)?.into_iter().enumerate() {
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
    let k = args::keys(lua);
    let max = opt_int(lua, &opts, &k.max_per_area, 4, 0, 1000, call)?;
    let depth = opt_int(lua, &opts, &k.depth, 1, 1, 1000, call)?;
    let mut m = map.borrow_mut::<LuaMap>()?;
    // Each corridor is copied, then each spawn removes a cell from the copy (a quick memmove).
    let per_area = (max + depth).max(0) as u64;
    let work: u64 =
        m.0.notes
            .corridors
            .iter()
            .map(|c| {
                let len = c.cells.len() as u64;
                cost::cell_work(len) + per_area.min(len) * len / 64
            })
            .sum();
    charge(lua, work)?;
    let spawns = m.0.notes.spawns.len();
    let mut r = rng.borrow_mut::<LuaRng>()?;
    let n = rooms::spawn_in_corridors(&mut m.0, &mut r.0, &table, max, depth);
    let added: usize = m.0.notes.spawns[spawns..].iter().map(cost::spawn).sum();
    charge_bytes(lua, added)?;
    Ok(n)
}

/// The terrain `warren.gen.start_and_stairs` writes under the stairs unless told otherwise.
const STAIRS_DOWN: &str = "down stairs";

/// `warren.gen.start_and_stairs(map, rooms, {start=, down=, terrain=})`: the tutorial's
/// `RoomBasedStartingPosition` and `RoomBasedStairs`. The player starts at the centre of room
/// `start` (tags `start_x`, `start_y`); the stairs down go at the centre of room `down`, written
/// as `terrain` (like `map:set`) and recorded. Returns the start and the stairs, `x, y, x, y`.
fn start_and_stairs(
    lua: &Lua,
    (map, list, opts): (AnyUserData, Value, Option<Table>),
) -> mlua::Result<(i32, i32, i32, i32)> {
    let call = "warren.gen.start_and_stairs";
    let rects = args::rect_list(lua, &list, call)?;
    let n = rects.len() as i64;
    if n == 0 {
        return Err(fail(lua, format!("{call}: the room list is empty")));
    }
    let (start, down, terrain) = match &opts {
        Some(o) => {
            known_keys(lua, o, call, &["start", "down", "terrain"])?;
            let k = args::keys(lua);
            (
                opt_int(lua, o, &k.start, 1, 1, n, call)?,
                opt_int(lua, o, &k.down, n, 1, n, call)?,
                o.raw_get::<Option<String>>(&k.terrain)?,
            )
        }
        None => (1, n, None),
    };
    let (start, down) = (rects[start as usize - 1], rects[down as usize - 1]);
    let mut m = map.borrow_mut::<LuaMap>()?;
    for r in [&start, &down] {
        m.0.check_rect(r)
            .map_err(|e| fail(lua, format!("{call}: room {e}")))?;
    }
    let b = brush(
        lua,
        &mut m.0,
        terrain.as_deref().unwrap_or(STAIRS_DOWN),
        None,
        call,
        &[],
    )?;
    let (s, d) = (start.center(), down.center());
    m.0.write(d, &b).map_err(mlua::Error::external)?;
    for (key, v) in [("start_x", s.x), ("start_y", s.y)] {
        super::map::record_tag(lua, &mut m.0, key.into(), TagValue::Int(v.into()))?;
    }
    charge_bytes(lua, cost::cells(1))?;
    m.0.notes.stairs.down.push(d);
    Ok((s.x, s.y, d.x, d.y))
}

/// Why a join tunnel was not drawn.
#[derive(Debug)]
enum JoinStop {
    /// The map refused the path.
    Map(MapError),
    /// The budget ran out.
    Budget(mlua::Error),
}

impl std::fmt::Display for JoinStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JoinStop::Map(e) => e.fmt(f),
            JoinStop::Budget(e) => e.fmt(f),
        }
    }
}

/// How `join_areas` draws its tunnels.
#[derive(Clone, Copy, PartialEq, Eq)]
enum JoinStyle {
    /// A one-bend corridor, one cell wide.
    Dogleg,
    /// A winding passage of varying width ([`natural_passage`]).
    Natural,
}

/// `warren.gen.join_areas(map, rng, {terrain=, style=, connectivity=, priority=, force=,
/// region=, trials=})`: joins every separate passable area to the first one (Incursion's fix-up
/// loop) with one-bend tunnels (`style = "dogleg"`, the default) or natural, cave-like passages
/// (`"natural"`), so that every passable cell is reachable in `connectivity` ("8" or "4").
/// Returns `{ areas_before =, tunnels = }`.
fn join_areas(
    lua: &Lua,
    (map, rng, opts): (AnyUserData, AnyUserData, Table),
) -> mlua::Result<Table> {
    let call = "warren.gen.join_areas";
    let terrain: String = opts
        .raw_get::<Option<String>>("terrain")?
        .ok_or_else(|| fail(lua, format!("{call}: options need 'terrain'")))?;
    let trials = opt_int(lua, &opts, &args::keys(lua).trials, 64, 1, 100_000, call)?;
    let style = match opts.raw_get::<Option<String>>("style")?.as_deref() {
        None | Some("dogleg") => JoinStyle::Dogleg,
        Some("natural") => JoinStyle::Natural,
        Some(other) => {
            return Err(fail(
                lua,
                format!("{call}: style = '{other}' (valid: dogleg, natural)"),
            ))
        }
    };
    let adjacency = connectivity(lua, Some(&opts), call)?;
    let mut m = map.borrow_mut::<LuaMap>()?;
    let b = brush(
        lua,
        &mut m.0,
        &terrain,
        Some(&opts),
        call,
        &["terrain", "trials", "style", "connectivity"],
    )?;
    let mut r = rng.borrow_mut::<LuaRng>()?;
    let cells_per_trial = m.0.len() as u64;
    let size = (m.0.width(), m.0.height());
    let (map, rng) = (&mut m.0, &mut r.0);
    let result = connectivity::fixup(map, rng, trials as u32, adjacency, |map, rng, from, to| {
        let path = match style {
            JoinStyle::Dogleg => {
                let order = if rng.below(2) == 0 {
                    DogLeg::HorizontalFirst
                } else {
                    DogLeg::VerticalFirst
                };
                dogleg(from, to, order)
            }
            JoinStyle::Natural => natural_passage(from, to, size, rng),
        };
        // Also looks at the clock, so a fix-up that never converges stops within one trial.
        charge(lua, cost::cell_work(path.len() as u64)).map_err(JoinStop::Budget)?;
        let cells = map.carve_path(&path, &b).map_err(JoinStop::Map)?;
        let corridor = Corridor {
            cells,
            region: Some("join".into()),
        };
        charge_bytes(lua, cost::corridor(&corridor)).map_err(JoinStop::Budget)?;
        map.notes.corridors.push(corridor);
        Ok(())
    });
    // Every trial floods the whole map.
    let trials_used = match &result {
        Ok(report) => report.trials,
        Err(FixupError::TrialLimit { trials, .. }) => *trials,
        Err(FixupError::Connector { .. }) => 0,
    };
    let flood = charge(
        lua,
        cost::cell_work((1 + trials_used as u64) * cells_per_trial),
    );
    let report = match result {
        Ok(report) => report,
        Err(FixupError::Connector {
            error: JoinStop::Budget(e),
            ..
        }) => return Err(e),
        Err(e) => return Err(fail(lua, format!("{call}: {e}"))),
    };
    flood?;
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
    t.set("start_and_stairs", lua.create_function(start_and_stairs)?)?;
    Ok(t)
}
