//! The map's annotations from Lua: rooms, doors, stairs, spawns, corridors and tags that a recipe
//! records (exported in JSON), and reading back what was recorded.

use super::reads::{X, Y};
use crate::api::call::Call;
use crate::api::classes::{RECT_LIKE, ROOM_KIND};
use crate::api::cost;
use crate::api::decl::{arg, opt, opt_or, Decl, Default, Owner::Map as M, Ty};
use crate::api::shapes::{self, cell};
use crate::api::shared::Shared;
use crate::state::{charge, charge_bytes};
use mlua::{Lua, Table, Value};
use warren_core::map::{Corridor, Door, DoorState, KindName, Map, Point, Room, Spawn, TagValue};

const ADD_ROOM: Decl = Decl::method(M, "add_room", "Records a room; returns its 1-based index.")
    .args(&[
        arg("rect", Ty::Table(&RECT_LIKE)),
        opt_or("kind", Ty::Str, Default::Str(ROOM_KIND)),
    ])
    .returns(&["integer"]);
const ADD_DOOR: Decl = Decl::method(
    M,
    "add_door",
    "Records a door in `state`, optionally belonging to room number `room` (1-based). A walker can pass a door whatever its terrain; a second door on a cell is ignored.",
)
.args(&[
    X,
    Y,
    opt("room", Ty::int(1, i64::MAX)),
    opt_or("state", Ty::Choice(&DoorState::NAMES), Default::Str("closed")),
]);
const ADD_STAIR: Decl = Decl::method(M, "add_stair", "Records a staircase.").args(&[
    X,
    Y,
    arg("dir", Ty::Choice(&["up", "down"])),
]);
const ADD_SPAWN: Decl =
    Decl::method(M, "add_spawn", "Records a spawn point.").args(&[X, Y, arg("what", Ty::Str)]);
const ADD_CORRIDOR: Decl = Decl::method(
    M,
    "add_corridor",
    "Records a corridor's cells; returns its 1-based index.",
)
.args(&[arg("cells", Ty::Cells), opt("region", Ty::Str)])
.returns(&["integer"]);
pub(super) const TAG: Decl = Decl::method(M, "tag", "Sets a free-form tag, exported in JSON.")
    .args(&[arg("key", Ty::Str), arg("value", Ty::Any)]);
const ROOMS: Decl =
    Decl::method(M, "rooms", "The rooms recorded so far.").returns(&["warren.RoomRecord[]"]);
const CORRIDORS: Decl = Decl::method(
    M,
    "corridors",
    "The corridors recorded so far, as lists of cells.",
)
.returns(&["warren.Cell[][]"]);

methods! {
    /// Annotations.
    pub METHODS, register for Shared<Map> {
        ADD_ROOM => add_room,
        ADD_DOOR => add_door,
        ADD_STAIR => add_stair,
        ADD_SPAWN => add_spawn,
        ADD_CORRIDOR => add_corridor,
        TAG => tag,
        ROOMS => rooms,
        CORRIDORS => corridors,
    }
}

fn add_room(lua: &Lua, this: &Shared<Map>, (r, kind): (Value, Value)) -> mlua::Result<usize> {
    let c = Call::gated(lua, &ADD_ROOM);
    let r = shapes::rect(&c, 0, &r)?;
    let kind = c.str(1, &kind)?;
    let mut m = c.write(this)?;
    m.check_rect(&r).map_err(|e| c.fail(e))?;
    let room = Room {
        rect: r,
        kind: KindName::named(&kind, ROOM_KIND),
        doors: Vec::new(),
    };
    charge_bytes(lua, cost::room(&room))?;
    m.notes.rooms.push(room);
    Ok(m.notes.rooms.len())
}

fn add_door(
    lua: &Lua,
    this: &Shared<Map>,
    (x, y, room, state): (Value, Value, Value, Value),
) -> mlua::Result<()> {
    let c = Call::gated(lua, &ADD_DOOR);
    let mut m = c.write(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    let room = c.opt_int(2, &room)?;
    let state = DoorState::ALL[c.choice(3, &state)?];
    charge_bytes(lua, cost::cells(1) + std::mem::size_of::<Door>())?;
    if let Some(i) = room {
        let n = m.notes.rooms.len();
        let r = usize::try_from(i - 1)
            .ok()
            .and_then(|i| m.notes.rooms.get_mut(i))
            .ok_or_else(|| c.fail(format!("room {i} does not exist (1..={n})")))?;
        r.doors.push(p);
    }
    m.add_door(Door::new(p, state)).map_err(|e| c.fail(e))?;
    Ok(())
}

fn add_stair(
    lua: &Lua,
    this: &Shared<Map>,
    (x, y, dir): (Value, Value, Value),
) -> mlua::Result<()> {
    let c = Call::gated(lua, &ADD_STAIR);
    let mut m = c.write(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    let up = c.choice(2, &dir)? == 0;
    charge_bytes(lua, cost::cells(1))?;
    let stairs = &mut m.notes.stairs;
    if up {
        stairs.up.push(p);
    } else {
        stairs.down.push(p);
    }
    Ok(())
}

fn add_spawn(
    lua: &Lua,
    this: &Shared<Map>,
    (x, y, what): (Value, Value, Value),
) -> mlua::Result<()> {
    let c = Call::gated(lua, &ADD_SPAWN);
    let mut m = c.write(this)?;
    let p = cell(&c, &m, 0, &x, &y)?;
    let spawn = Spawn {
        x: p.x,
        y: p.y,
        what: c.str(2, &what)?,
    };
    charge_bytes(lua, cost::spawn(&spawn))?;
    m.notes.spawns.push(spawn);
    Ok(())
}

fn add_corridor(
    lua: &Lua,
    this: &Shared<Map>,
    (cells, region): (Value, Value),
) -> mlua::Result<usize> {
    let c = Call::gated(lua, &ADD_CORRIDOR);
    let mut m = c.write(this)?;
    let cells = shapes::cells(&c, &m, 0, &cells)?;
    let corridor = Corridor {
        cells,
        region: c.opt_str(1, &region)?,
    };
    charge_bytes(lua, cost::corridor(&corridor))?;
    m.notes.corridors.push(corridor);
    Ok(m.notes.corridors.len())
}

fn tag(lua: &Lua, this: &Shared<Map>, (key, value): (Value, Value)) -> mlua::Result<()> {
    let c = Call::gated(lua, &TAG);
    let key = c.str(0, &key)?;
    let v = match value {
        Value::Boolean(b) => TagValue::Bool(b),
        Value::Integer(i) => TagValue::Int(i),
        Value::Number(n) if n.is_finite() => TagValue::Number(n),
        Value::String(s) => TagValue::Text(s.to_string_lossy()),
        other => {
            return Err(c.fail(format!(
                "argument 2 (value) for tag '{key}' must be a boolean, a finite number or a string, got {}",
                crate::api::call::shown(&other)
            )))
        }
    };
    let mut m = c.write(this)?;
    record_tag(lua, &mut m, key, v)
}

/// Sets tag `key` of `map`, charging a new key and a text value against the memory limit.
fn record_tag(lua: &Lua, map: &mut Map, key: String, v: TagValue) -> mlua::Result<()> {
    let text = match &v {
        TagValue::Text(t) => Some(t.as_str()),
        _ => None,
    };
    for bytes in tag_charges(map, &key, text).into_iter().flatten() {
        charge_bytes(lua, bytes)?;
    }
    map.notes.tags.insert(&key, v);
    Ok(())
}

/// The memory charges setting tag `key` on `map` to a value makes, in order: a new key, a text
/// value (`text`, when the value is text; `None`: no such charge). The fast `map:tag`
/// (`fast.rs`) makes the same.
pub fn tag_charges(map: &Map, key: &str, text: Option<&str>) -> [Option<usize>; 2] {
    [
        (!map.notes.tags.contains_key(key)).then(|| cost::text(key) + 16),
        text.map(str::len),
    ]
}

/// Builds a Lua list of `{x=, y=}` tables.
pub fn point_list(lua: &Lua, cells: &[Point]) -> mlua::Result<Table> {
    charge(lua, cells.len() as u64)?;
    let t = lua.create_table_with_capacity(cells.len(), 0)?;
    for (i, p) in cells.iter().enumerate() {
        let c = lua.create_table_with_capacity(0, 2)?;
        c.raw_set("x", p.x)?;
        c.raw_set("y", p.y)?;
        t.raw_set(i + 1, c)?;
    }
    Ok(t)
}

fn rooms(lua: &Lua, this: &Shared<Map>, (): ()) -> mlua::Result<Table> {
    let c = Call::gated(lua, &ROOMS);
    let m = c.read(this)?;
    charge(lua, m.notes.rooms.len() as u64)?;
    let t = lua.create_table_with_capacity(m.notes.rooms.len(), 0)?;
    for (i, r) in m.notes.rooms.iter().enumerate() {
        let room = lua.create_table()?;
        room.raw_set("x", r.rect.x)?;
        room.raw_set("y", r.rect.y)?;
        room.raw_set("w", r.rect.w)?;
        room.raw_set("h", r.rect.h)?;
        room.raw_set("kind", &*r.kind)?;
        room.raw_set("doors", point_list(lua, &r.doors)?)?;
        t.raw_set(i + 1, room)?;
    }
    Ok(t)
}

fn corridors(lua: &Lua, this: &Shared<Map>, (): ()) -> mlua::Result<Table> {
    let c = Call::gated(lua, &CORRIDORS);
    let m = c.read(this)?;
    let t = lua.create_table_with_capacity(m.notes.corridors.len(), 0)?;
    for (i, cor) in m.notes.corridors.iter().enumerate() {
        t.raw_set(i + 1, point_list(lua, &cor.cells)?)?;
    }
    Ok(t)
}
