//! The functions of `warren.dungeon`: each converts its arguments, runs its phase of
//! [`warren_core::gen::dungeon`] and turns the result into Lua values.

use super::decls::*;
use super::level::{panel_table, DungeonLevel, LuaLevel};
use crate::api::call::{shown, Call, Extra, Opts};
use crate::api::cost;
use crate::api::first_use::Fresh;
use crate::api::map::notes::point_list;
use crate::api::map::{publish_size, LuaMap};
use crate::api::meter::LuaMeter;
use crate::api::regions;
use crate::api::rng::{weight_problem, LuaRng};
use crate::api::shapes::{self, list};
use crate::api::tunnel::{flags, LuaTunnels, TunnelState};
use crate::state::{charge_bytes, charge_bytes_for};
use mlua::{AnyUserData, Lua, Table, Value};
use warren_core::gen::doors::{finish_doors, FinishDoors};
use warren_core::gen::dungeon::{
    carry_chasms, connect_panels, down_stairs, draw_room, draw_rooms, init_level, place_vault,
    up_stairs, write_streamer, DungeonError, LevelPanels, RoomLimits, StairPlacement,
};
use warren_core::gen::meter::Meter;
use warren_core::map::{priority, Brush, DoorState, Map, Rect};
use warren_core::region::RoomRegion;

functions! {
    /// `warren.dungeon`'s functions.
    pub FUNCTIONS, register {
        INIT_LEVEL => init_level_fn,
        DRAW_STREAMER => draw_streamer,
        CARRY_CHASMS => carry_chasms_fn,
        PLACE_VAULT => place_vault_fn,
        DRAW_ROOM => draw_room_fn,
        DRAW_ROOMS => draw_rooms_fn,
        CONNECT_PANELS => connect_panels_fn,
        PLACE_UP_STAIRS => place_up_stairs,
        PLACE_DOWN_STAIRS => place_down_stairs,
        FINISH_DOORS => finish_doors_fn,
    }
}

/// A rectangle as a Lua table `{ x, y, w, h }`.
fn rect_table(lua: &Lua, r: Rect) -> mlua::Result<Table> {
    // Room for two more keys: a room's `kind` and `region`, a vault's `panels`.
    crate::api::rects::rect_table_with_room(lua, &r, 2)
}

/// A dungeon phase's error: a budget that ran out, or the phase's own message.
fn phase_error(c: &Call, meter: &mut LuaMeter, e: DungeonError) -> mlua::Error {
    match e {
        DungeonError::Stopped(_) => meter.stopped(),
        e => c.fail(e),
    }
}

/// The registry's fill (rock) and edge terrains.
fn run_terrain(c: &Call) -> mlua::Result<(u16, u16)> {
    crate::state::with_run(c.lua(), |d| (d.fill, d.edge))
        .ok_or_else(|| c.fail("no generation is running"))
}

fn init_level_fn(
    lua: &Lua,
    (map, opts, extra): (Value, Value, Extra),
) -> mlua::Result<Fresh<DungeonLevel>> {
    init(&Call::new(lua, &INIT_LEVEL, &extra)?, &map, &opts)
}

/// `warren.dungeon.init_level(map, { width =, height =, panel_width =, panel_height = })`.
fn init(c: &Call, map: &Value, opts: &Value) -> mlua::Result<Fresh<DungeonLevel>> {
    let map = c.data::<LuaMap>(0, map)?;
    let o = c.options(1, opts)?;
    let d = regions::dungeon(c)?;
    let (lw, lh) = d.level_size();
    let (pw, ph) = d.panel_size();
    let get = |key: &str, default: i32| -> mlua::Result<i32> {
        Ok(o.opt_int(key)?.map_or(default, |v| v as i32))
    };
    let (w, h) = (get("width", lw)?, get("height", lh)?);
    let panel = (get("panel_width", pw)?, get("panel_height", ph)?);
    let (rock, edge) = run_terrain(c)?;
    let mut m = LuaMap::write_ud(&map)?;
    // The level's size replaces the map's: the growth is counted before it is allocated (a
    // size init_level refuses reports its own rule).
    if warren_core::map::check_size(w.into(), h.into()).is_ok() {
        let now = Map::bytes_for(m.width().into(), m.height().into());
        let grow = Map::bytes_for(w.into(), h.into()).saturating_sub(now);
        charge_bytes_for(c.lua(), grow, &c.decl().call_name())?;
    }
    let mut meter = LuaMeter::new(c.lua());
    let panels = init_level(&mut m, w, h, panel, rock, edge, &mut meter)
        .map_err(|e| phase_error(c, &mut meter, e))?;
    drop(m);
    publish_size(c.lua(), &map)?;
    Ok(Fresh::new(DungeonLevel(LevelPanels::new(panels))))
}

type StreamerArgs = (Value, Value, Value, Extra);

fn draw_streamer(lua: &Lua, (map, rng, s, extra): StreamerArgs) -> mlua::Result<usize> {
    streamer(&Call::new(lua, &DRAW_STREAMER, &extra)?, (&map, &rng, &s))
}

/// `warren.dungeon.draw_streamer(map, rng, streamer)` → cells written.
fn streamer(c: &Call, (map, rng, s): (&Value, &Value, &Value)) -> mlua::Result<usize> {
    let map = c.data::<LuaMap>(0, map)?;
    let rng = c.data::<LuaRng>(1, rng)?;
    let mut m = LuaMap::write_ud(&map)?;
    let region = regions::streamer(c, s, &regions::label(c, 2), &m)?;
    let mut r = LuaRng::write_ud(&rng)?;
    let mut meter = LuaMeter::new(c.lua());
    write_streamer(&mut m, &mut r, &region.style, &mut meter)
        .map_err(|e| phase_error(c, &mut meter, e))
}

/// Arguments 1 (the map) and 2 (the level above), which must be two maps.
fn map_and_above(c: &Call, map: &Value, above: &Value) -> mlua::Result<(AnyUserData, AnyUserData)> {
    let (map, above) = (c.data::<LuaMap>(0, map)?, c.data::<LuaMap>(1, above)?);
    if map.to_pointer() == above.to_pointer() {
        return Err(c.fail("argument 2 (above) must not be the map itself"));
    }
    Ok((map, above))
}

/// The strings of a list option.
fn strings(o: &Opts, key: &str) -> mlua::Result<Vec<String>> {
    let Some(t) = o.opt_table(key)? else {
        return Ok(Vec::new());
    };
    let c = o.call();
    list(c, &t, format_args!("opts.{key}"))?
        .into_iter()
        .enumerate()
        .map(|(i, v)| match v? {
            Value::String(s) => Ok(s.to_string_lossy()),
            other => Err(c.fail(format!(
                "opts.{key}[{}] must be a string, got {}",
                i + 1,
                shown(&other)
            ))),
        })
        .collect()
}

fn carry_chasms_fn(
    lua: &Lua,
    (map, above, opts, extra): (Value, Value, Value, Extra),
) -> mlua::Result<usize> {
    let c = Call::new(lua, &CARRY_CHASMS, &extra)?;
    let (map, above) = map_and_above(&c, &map, &above)?;
    let o = c.options(2, &opts)?;
    let names = strings(&o, "chasms")?;
    if !o.has("chasms") {
        return Err(o.bad("chasms"));
    }
    let narrow = o.bool("narrow")?;
    let a = LuaMap::read_ud(&above)?;
    let mut m = LuaMap::write_ud(&map)?;
    let mut meter = LuaMeter::new(lua);
    carry_chasms(&mut m, &a, &names, narrow, &mut meter).map_err(|e| phase_error(&c, &mut meter, e))
}

type VaultArgs = (Value, Value, Value, Value, Value, Extra);

fn place_vault_fn(lua: &Lua, (map, rng, level, v, opts, extra): VaultArgs) -> mlua::Result<Value> {
    vault(
        &Call::new(lua, &PLACE_VAULT, &extra)?,
        [&map, &rng, &level, &v, &opts],
    )
}

/// `warren.dungeon.place_vault(map, rng, level, vault, { above = ctx.above })` → the placed
/// rectangle with its `panels`, or nil when it does not fit.
fn vault(c: &Call, [map, rng, level, v, opts]: [&Value; 5]) -> mlua::Result<Value> {
    let map = c.data::<LuaMap>(0, map)?;
    let rng = c.data::<LuaRng>(1, rng)?;
    let level = c.data::<LuaLevel>(2, level)?;
    let o = c.options(4, opts)?;
    let avoid = match &o.value("above") {
        Value::Nil => Vec::new(),
        Value::UserData(ud) if ud.to_pointer() == map.to_pointer() => {
            return Err(c.fail("opts.above must not be the map itself"))
        }
        Value::UserData(ud) if ud.is::<LuaMap>() => LuaMap::read_ud(ud)?.notes.stairs.down.clone(),
        _ => return Err(o.bad("above")),
    };
    let depth = o
        .opt_int("depth")?
        .map_or_else(|| crate::state::run_depth(c.lua()), |d| d as u32);
    let mut m = LuaMap::write_ud(&map)?;
    let region = regions::vault(c, v, &regions::label(c, 3), &m)?;
    let grid = region.grid_at(&regions::dungeon(c)?, depth);
    let mut l = LuaLevel::write_ud(&level)?;
    let LevelPanels { panels, used } = &mut l.0;
    let mut r = LuaRng::write_ud(&rng)?;
    let mut meter = LuaMeter::new(c.lua());
    let placed = place_vault(&mut m, &mut r, panels, used, &grid, &avoid, &mut meter)
        .map_err(|e| phase_error(c, &mut meter, e))?;
    let Some(placed) = placed else {
        return Ok(Value::Nil);
    };
    charge_bytes(
        c.lua(),
        cost::room(m.notes.rooms.last().expect("a vault was recorded")),
    )?;
    let t = rect_table(c.lua(), placed.rect)?;
    let list = c.lua().create_table()?;
    for (i, &p) in placed.panels.iter().enumerate() {
        list.raw_set(i + 1, panel_table(c.lua(), panels, p)?)?;
    }
    t.raw_set("panels", list)?;
    Ok(Value::Table(t))
}

/// The room limits of argument `i`, each key defaulting to `[dungeon]`'s.
fn room_limits(c: &Call, i: usize, v: &Value) -> mlua::Result<RoomLimits> {
    let o = c.options(i, v)?;
    let depth = o.int("depth")? as u32;
    let d = regions::dungeon(c)?.room_limits(depth);
    let get = |key: &str, default: i32| -> mlua::Result<i32> {
        Ok(o.opt_int(key)?.map_or(default, |v| v as i32))
    };
    Ok(RoomLimits {
        min_width: get("min_width", d.min_width)?,
        max_width: get("max_width", d.max_width)?,
        min_height: get("min_height", d.min_height)?,
        max_height: get("max_height", d.max_height)?,
        life_percent: get("life_percent", d.life_percent as i32)? as u32,
        depth,
    })
}

/// A room as recipes see it: its floor rectangle, the kind recorded and its region.
fn room_table(lua: &Lua, map: &Map, note: usize, floor: Rect, region: &str) -> mlua::Result<Table> {
    let t = rect_table(lua, floor)?;
    t.raw_set("kind", map.notes.rooms.get(note).map_or("", |r| &*r.kind))?;
    t.raw_set("region", region)?;
    Ok(t)
}

type RoomArgs = (Value, Value, Value, Value, Value, Extra);

fn draw_room_fn(
    lua: &Lua,
    (map, rng, panel, room, limits, extra): RoomArgs,
) -> mlua::Result<Table> {
    one_room(
        &Call::new(lua, &DRAW_ROOM, &extra)?,
        [&map, &rng, &panel, &room, &limits],
    )
}

/// `warren.dungeon.draw_room(map, rng, panel, room, limits?)` → the room.
fn one_room(c: &Call, [map, rng, panel, room, limits]: [&Value; 5]) -> mlua::Result<Table> {
    let map = c.data::<LuaMap>(0, map)?;
    let rng = c.data::<LuaRng>(1, rng)?;
    let panel = shapes::rect(c, 2, panel)?;
    let lim = room_limits(c, 4, limits)?;
    let mut m = LuaMap::write_ud(&map)?;
    let region = regions::room(c, room, &regions::label(c, 3), &m)?;
    let choice = &region.choice_at(&regions::dungeon(c)?, lim.depth);
    let mut r = LuaRng::write_ud(&rng)?;
    let mut meter = LuaMeter::new(c.lua());
    let floor = draw_room(
        &mut m,
        &mut r,
        panel,
        choice.kind,
        &choice.style,
        &lim,
        &mut meter,
    )
    .map_err(|e| phase_error(c, &mut meter, e))?;
    let note = m.notes.rooms.len() - 1;
    charge_bytes(c.lua(), cost::room(&m.notes.rooms[note]))?;
    room_table(c.lua(), &m, note, floor, &choice.style.name)
}

fn draw_rooms_fn(
    lua: &Lua,
    (map, rng, level, rooms, limits, extra): RoomArgs,
) -> mlua::Result<Table> {
    all_rooms(
        &Call::new(lua, &DRAW_ROOMS, &extra)?,
        [&map, &rng, &level, &rooms, &limits],
    )
}

/// `warren.dungeon.draw_rooms(map, rng, level, rooms, limits?)`: a room in every panel not
/// taken, its region chosen by weight. Returns the rooms.
fn all_rooms(c: &Call, [map, rng, level, rooms, limits]: [&Value; 5]) -> mlua::Result<Table> {
    let map = c.data::<LuaMap>(0, map)?;
    let rng = c.data::<LuaRng>(1, rng)?;
    let level = c.data::<LuaLevel>(2, level)?;
    let label = regions::label(c, 3);
    let items = match rooms {
        Value::Table(_) => regions::items(c, rooms, &label)?,
        other => return Err(c.bad(3, other)),
    };
    let lim = room_limits(c, 4, limits)?;
    let mut m = LuaMap::write_ud(&map)?;
    let mut choices: Vec<RoomRegion> = Vec::with_capacity(items.len());
    for (n, item) in items.iter().enumerate() {
        choices.push(regions::room(
            c,
            &item?,
            &format!("item {} of {label}", n + 1),
            &m,
        )?);
    }
    let weights: Vec<f64> = choices.iter().map(|r| r.choice.weight).collect();
    if let Some(m) = weight_problem(&weights, |i| {
        format!("room '{}'", choices[i].choice.style.name)
    }) {
        return Err(c.fail(m));
    }
    let dungeon = regions::dungeon(c)?;
    let at_depth: Vec<_> = choices
        .iter()
        .map(|r| r.choice_at(&dungeon, lim.depth))
        .collect();
    let refs: Vec<_> = at_depth.iter().collect();
    let l = LuaLevel::read_ud(&level)?;
    let mut r = LuaRng::write_ud(&rng)?;
    let mut meter = LuaMeter::new(c.lua());
    let first = m.notes.rooms.len();
    let drawn = draw_rooms(&mut m, &mut r, &l.0, &refs, &lim, &mut meter)
        .map_err(|e| phase_error(c, &mut meter, e))?;
    let added: usize = m.notes.rooms[first..].iter().map(cost::room).sum();
    charge_bytes(c.lua(), added)?;
    let out = c.lua().create_table_with_capacity(drawn.len(), 0)?;
    for (i, d) in drawn.iter().enumerate() {
        let name = &choices[d.choice].choice.style.name;
        out.raw_set(i + 1, room_table(c.lua(), &m, first + i, d.floor, name)?)?;
    }
    Ok(out)
}

fn connect_panels_fn(
    lua: &Lua,
    (map, rng, level, tunnels, opts, extra): (Value, Value, Value, Value, Value, Extra),
) -> mlua::Result<usize> {
    let c = Call::new(lua, &CONNECT_PANELS, &extra)?;
    let map = c.data::<LuaMap>(0, &map)?;
    let rng = c.data::<LuaRng>(1, &rng)?;
    let level = c.data::<LuaLevel>(2, &level)?;
    let tunnels = c.data::<LuaTunnels>(3, &tunnels)?;
    let o = c.options(4, &opts)?;
    let flags = flags(&o, "flags")?;
    let l = LuaLevel::read_ud(&level)?;
    let mut t = LuaTunnels::write_ud(&tunnels)?;
    let mut m = LuaMap::write_ud(&map)?;
    t.check(&c, &m)?;
    let TunnelState { config, level, .. } = &mut *t;
    let mut r = LuaRng::write_ud(&rng)?;
    let mut meter = LuaMeter::new(lua);
    let corridors = m.notes.corridors.len();
    let dug = connect_panels(
        &mut m,
        &l.0.panels,
        config,
        level,
        &mut r,
        flags,
        &mut meter,
    )
    .map_err(|e| phase_error(&c, &mut meter, e))?;
    let added: usize = m.notes.corridors[corridors..]
        .iter()
        .map(cost::corridor)
        .sum();
    charge_bytes(lua, added)?;
    Ok(dug.len())
}

/// A terrain option, else `default` (an error naming the key when neither is there).
fn terrain_or(o: &Opts, key: &str, map: &Map, default: Option<u16>) -> mlua::Result<u16> {
    match (o.opt_terrain(key, map)?, default) {
        (Some(t), _) | (None, Some(t)) => Ok(t),
        (None, None) => Err(o.call().fail(format!(
            "opts.{key} is needed: the region files name no such terrain for [dungeon] (add one, or pass opts.{key})"
        ))),
    }
}

type UpArgs = (Value, Value, Value, Extra);

fn place_up_stairs(lua: &Lua, (map, above, opts, extra): UpArgs) -> mlua::Result<Table> {
    up(
        &Call::new(lua, &PLACE_UP_STAIRS, &extra)?,
        [&map, &above, &opts],
    )
}

/// `warren.dungeon.place_up_stairs(map, above, { terrain =, walls = })` → cells.
fn up(c: &Call, [map, above, opts]: [&Value; 3]) -> mlua::Result<Table> {
    let (map, above) = map_and_above(c, map, above)?;
    let o = c.options(2, opts)?;
    let a = LuaMap::read_ud(&above)?;
    let mut m = LuaMap::write_ud(&map)?;
    let reg = regions::registry(c)?;
    let d = &reg.resolved.dungeon;
    let stair = terrain_or(&o, "terrain", &m, d.up_stairs)?;
    let corridors = &reg.resolved.corridors;
    let level_corridor = match d.def.corridor.as_deref() {
        Some(name) => corridors.iter().find(|k| k.style.name == name),
        None => corridors.first(),
    };
    let level_walls = level_corridor.map(|k| k.style.walls);
    let walls = terrain_or(&o, "walls", &m, level_walls)?;
    let walls = Brush::new(walls).priority(priority::CORRIDOR_WALL);
    let mut meter = LuaMeter::new(c.lua());
    let cells = up_stairs(&mut m, &a, stair, &walls, &mut meter)
        .map_err(|e| phase_error(c, &mut meter, e))?;
    charge_bytes(c.lua(), cost::cells(cells.len()))?;
    point_list(c.lua(), &cells)
}

type DownArgs = (Value, Value, Value, Extra);

fn place_down_stairs(lua: &Lua, (map, rng, opts, extra): DownArgs) -> mlua::Result<Table> {
    down(
        &Call::new(lua, &PLACE_DOWN_STAIRS, &extra)?,
        [&map, &rng, &opts],
    )
}

/// `warren.dungeon.place_down_stairs(map, rng, { terrain =, count =, avoid = })` → cells.
fn down(c: &Call, [map, rng, opts]: [&Value; 3]) -> mlua::Result<Table> {
    let map = c.data::<LuaMap>(0, map)?;
    let rng = c.data::<LuaRng>(1, rng)?;
    let o = c.options(2, opts)?;
    let count = o.int("count")? as u32;
    let placement = StairPlacement::from_name(StairPlacement::NAMES[o.choice("place")?])
        .expect("declared choices are placement names");
    let mut m = LuaMap::write_ud(&map)?;
    let d = regions::dungeon(c)?;
    let stair = terrain_or(&o, "terrain", &m, d.down_stairs)?;
    let mut avoid = Vec::new();
    for name in strings(&o, "avoid")? {
        avoid.push(crate::api::call::terrain_id(c, &m, &name)?);
    }
    let mut r = LuaRng::write_ud(&rng)?;
    let mut meter = LuaMeter::new(c.lua());
    let cells = down_stairs(
        &mut m,
        &mut r,
        stair,
        count,
        (&avoid, placement),
        &mut meter,
    )
    .map_err(|e| phase_error(c, &mut meter, e))?;
    charge_bytes(c.lua(), cost::cells(cells.len()))?;
    point_list(c.lua(), &cells)
}

/// `warren.dungeon.finish_doors(map, rng, { depth =, reveal_depth =, reveal_radius = })` → how
/// many doors ended in each state.
fn finish_doors_fn(
    lua: &Lua,
    (map, rng, opts, extra): (Value, Value, Value, Extra),
) -> mlua::Result<Table> {
    let c = Call::new(lua, &FINISH_DOORS, &extra)?;
    let map = c.data::<LuaMap>(0, &map)?;
    let rng = c.data::<LuaRng>(1, &rng)?;
    let o = c.options(2, &opts)?;
    let d = &regions::dungeon(&c)?.def;
    let finish = FinishDoors {
        depth: o.int("depth")? as u32,
        reveal_depth: o
            .opt_int("reveal_depth")?
            .unwrap_or(d.secret_door_reveal_depth) as u32,
        reveal_radius: o
            .opt_int("reveal_radius")?
            .unwrap_or(d.secret_door_reveal_radius) as i32,
    };
    let mut m = LuaMap::write_ud(&map)?;
    let mut r = LuaRng::write_ud(&rng)?;
    // Each door looks at its neighbours; touching pairs and the walls they leave flood the map.
    let mut meter = LuaMeter::new(lua);
    meter
        .work(m.notes.doors.len() as u64 * 9)
        .map_err(|_| meter.stopped())?;
    let counts = finish_doors(&mut m, &mut r, &finish);
    let out = lua.create_table_with_capacity(0, DoorState::ALL.len())?;
    for state in DoorState::ALL {
        out.raw_set(state.name(), counts[state as usize])?;
    }
    Ok(out)
}
