//! `warren.dungeon`: the phases of Incursion's level generator (seed 003), one Rust call each;
//! the recipe chooses region data by weight and depth and calls them in order.
//!
//! ```lua
//! local level = warren.dungeon.init(map, { width = 128, height = 128, panel_width = 32, panel_height = 32 })
//! warren.dungeon.streamer(map, rng, ctx.regions.streamer[1])
//! warren.dungeon.vault(map, rng, level, ctx.regions.vault[1], { above = ctx.above })
//! for _, panel in ipairs(level:free_panels()) do warren.dungeon.room(map, rng, panel, room, limits) end
//! warren.dungeon.connect_panels(map, rng, level, tunnels, { flags = { "direct", "wander" } })
//! ```

use super::args::{self, known_keys, rect};
use super::fields::{
    door_field, get, int_in, int_req_in, opt_number, opt_str, point_list, resolve, str_field,
    table_field, terrain_field,
};
use super::map::LuaMap;
use super::rng::LuaRng;
use super::tunnel::{flags, LuaTunnels};
use crate::fail;
use mlua::{AnyUserData, Lua, Table, UserData, UserDataMethods, Value};
use warren_core::gen::doors::{finish_doors, FinishDoors};
use warren_core::gen::dungeon::{
    carry_chasms, connect_panels, down_stairs, draw_room, init_level, place_vault, up_stairs,
    write_streamer, Panels, RegionPicker, RoomKind, RoomLimits, RoomStyle, StairPlacement,
    StreamerKind, StreamerStyle, VaultGlyph, VaultGrid,
};
use warren_core::map::{priority, Brush, DoorState, Map, Point, Rect};

/// One level's panel grid and which panels are taken, as a Lua userdata.
pub struct LuaLevel {
    /// The panel grid.
    pub panels: Panels,
    /// Taken panels, by [`Panels::index`].
    pub used: Vec<bool>,
}

/// A panel as a Lua table `{ x, y, w, h, px, py }`.
fn panel_table(lua: &Lua, panels: &Panels, p: Point) -> mlua::Result<Table> {
    let r = panels.rect(p);
    let t = lua.create_table_with_capacity(0, 6)?;
    t.raw_set("x", r.x)?;
    t.raw_set("y", r.y)?;
    t.raw_set("w", r.w)?;
    t.raw_set("h", r.h)?;
    t.raw_set("px", p.x)?;
    t.raw_set("py", p.y)?;
    Ok(t)
}

/// A rectangle as a Lua table `{ x, y, w, h }`.
fn rect_table(lua: &Lua, r: Rect) -> mlua::Result<Table> {
    let t = lua.create_table_with_capacity(0, 4)?;
    t.raw_set("x", r.x)?;
    t.raw_set("y", r.y)?;
    t.raw_set("w", r.w)?;
    t.raw_set("h", r.h)?;
    Ok(t)
}

impl UserData for LuaLevel {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("panels", |lua, l, ()| {
            let all = l.panels.all();
            let out = lua.create_table_with_capacity(all.len(), 0)?;
            for (i, &p) in all.iter().enumerate() {
                let t = panel_table(lua, &l.panels, p)?;
                t.raw_set("used", l.used[i])?;
                out.raw_set(i + 1, t)?;
            }
            Ok(out)
        });
        methods.add_method("free_panels", |lua, l, ()| {
            let out = lua.create_table()?;
            for (i, &p) in l.panels.all().iter().enumerate() {
                if !l.used[i] {
                    out.raw_set(out.raw_len() + 1, panel_table(lua, &l.panels, p)?)?;
                }
            }
            Ok(out)
        });
        methods.add_method_mut("use_panel", |lua, l, (px, py): (Value, Value)| {
            let call = "level:use_panel";
            let px = args::int(lua, &px, call, "px")?;
            let py = args::int(lua, &py, call, "py")?;
            if !(0..l.panels.across as i64).contains(&px)
                || !(0..l.panels.down as i64).contains(&py)
            {
                return Err(fail(
                    lua,
                    format!(
                        "{call}: panel ({px}, {py}) is outside the {}×{} panel grid",
                        l.panels.across, l.panels.down
                    ),
                ));
            }
            let i = l.panels.index(Point::new(px as i32, py as i32));
            l.used[i] = true;
            Ok(())
        });
    }
}

/// The data the run gives every map: the registry's fill and edge terrain.
fn run_terrain(lua: &Lua, call: &str) -> mlua::Result<(u16, u16)> {
    crate::with_run(lua, |d| (d.fill, d.edge))
        .ok_or_else(|| fail(lua, format!("{call}: no generation is running")))
}

/// `warren.dungeon.init(map, { width, height, panel_width, panel_height })` → level.
fn init(lua: &Lua, (map, opts): (AnyUserData, Table)) -> mlua::Result<LuaLevel> {
    let call = "warren.dungeon.init";
    known_keys(
        lua,
        &opts,
        call,
        &["width", "height", "panel_width", "panel_height"],
    )?;
    let size = |key: &str| -> mlua::Result<i32> {
        Ok(int_in(lua, &opts, key, (0, 1, 4096), call).and_then(|v| {
            if v == 0 {
                Err(fail(lua, format!("{call}: missing '{key}'")))
            } else {
                Ok(v)
            }
        })? as i32)
    };
    let (w, h) = (size("width")?, size("height")?);
    let (pw, ph) = (size("panel_width")?, size("panel_height")?);
    let (rock, edge) = run_terrain(lua, call)?;
    let mut m = map.borrow_mut::<LuaMap>()?;
    let panels = init_level(&mut m.0, w, h, (pw, ph), rock, edge)
        .map_err(|e| fail(lua, format!("{call}: {e}")))?;
    Ok(LuaLevel {
        used: vec![false; panels.len()],
        panels,
    })
}

/// A streamer region entry resolved against the map's terrain.
fn streamer_style(lua: &Lua, map: &Map, s: &Table, call: &str) -> mlua::Result<StreamerStyle> {
    let s = &resolve(s)?;
    let name = str_field(lua, s, "name", call)?;
    let at = format!("{call}: streamer '{name}'");
    let kind_name = str_field(lua, s, "kind", &at)?;
    let kind = StreamerKind::from_name(&kind_name).ok_or_else(|| {
        fail(
            lua,
            format!(
                "{at}: kind = '{kind_name}' (valid: {})",
                StreamerKind::NAMES.join(", ")
            ),
        )
    })?;
    let priority = match get(s, "priority")? {
        Value::Nil => kind.default_priority(),
        v => args::priority_value(lua, &v, &at)?,
    };
    let style = StreamerStyle {
        name,
        kind,
        terrain: terrain_field(lua, map, s, "terrain", &at)?,
        min_width: int_req_in(lua, s, "min_width", (0, 1000), &at)? as i32,
        max_width: int_req_in(lua, s, "max_width", (0, 1000), &at)? as i32,
        priority,
    };
    style
        .validate()
        .map_err(|e| fail(lua, format!("{call}: {e}")))?;
    Ok(style)
}

/// `warren.dungeon.streamer(map, rng, streamer)` → cells written.
fn streamer(lua: &Lua, (map, rng, def): (AnyUserData, AnyUserData, Table)) -> mlua::Result<usize> {
    let call = "warren.dungeon.streamer";
    let mut m = map.borrow_mut::<LuaMap>()?;
    let style = streamer_style(lua, &m.0, &def, call)?;
    let mut r = rng.borrow_mut::<LuaRng>()?;
    write_streamer(&mut m.0, &mut r.0, &style).map_err(|e| fail(lua, format!("{call}: {e}")))
}

/// `warren.dungeon.carry_chasms(map, above, { chasms = { names }, narrow = bool })`.
fn chasms(lua: &Lua, (map, above, opts): (AnyUserData, AnyUserData, Table)) -> mlua::Result<usize> {
    let call = "warren.dungeon.carry_chasms";
    known_keys(lua, &opts, call, &["chasms", "narrow"])?;
    let mut names = Vec::new();
    for v in args::list(lua, &table_field(lua, &opts, "chasms", call)?, call)? {
        match v {
            Value::String(s) => names.push(s.to_str()?.to_string()),
            other => {
                return Err(fail(
                    lua,
                    format!(
                        "{call}: chasms must be region names, got {}",
                        other.type_name()
                    ),
                ))
            }
        }
    }
    let narrow = matches!(get(&opts, "narrow")?, Value::Boolean(true));
    let a = above.borrow::<LuaMap>()?;
    let mut m = map.borrow_mut::<LuaMap>()?;
    Ok(carry_chasms(&mut m.0, &a.0, &names, narrow))
}

/// `warren.dungeon.vault(map, rng, level, vault, { above = ctx.above })` → placed rect with
/// `panels`, or nil when it does not fit.
fn vault(
    lua: &Lua,
    (map, rng, level, def, opts): (AnyUserData, AnyUserData, AnyUserData, Table, Option<Table>),
) -> mlua::Result<Value> {
    let call = "warren.dungeon.vault";
    let def = resolve(&def)?;
    let name = str_field(lua, &def, "name", call)?;
    let at = format!("{call}: vault '{name}'");
    let avoid = match &opts {
        Some(o) => {
            known_keys(lua, o, call, &["above"])?;
            match get(o, "above")? {
                Value::UserData(ud) => ud.borrow::<LuaMap>()?.0.notes.stairs.down.clone(),
                Value::Nil => Vec::new(),
                other => {
                    return Err(fail(
                        lua,
                        format!(
                            "{call}: above must be a map (ctx.above), got {}",
                            other.type_name()
                        ),
                    ))
                }
            }
        }
        None => Vec::new(),
    };
    let legend = resolve(&table_field(lua, &def, "legend", &at)?)?;
    let grid = str_field(lua, &def, "grid", &at)?;
    let mut m = map.borrow_mut::<LuaMap>()?;
    // Look up the grid's glyphs (the legend may be a read-only proxy, which `pairs` from Rust
    // would not see through).
    let mut glyphs = std::collections::BTreeMap::new();
    for c in grid.chars().filter(|&c| c != '\n') {
        if glyphs.contains_key(&c) {
            continue;
        }
        if let Some(terrain) = opt_str(lua, &legend, &c.to_string(), &at)? {
            let glyph = match VaultGlyph::named(m.0.terrains(), &terrain) {
                Some(g) => g,
                None => VaultGlyph::Terrain(args::terrain(lua, &m.0, &terrain, &at)?),
            };
            glyphs.insert(c, glyph);
        }
    }
    let grid = VaultGrid::parse(&name, &grid, |c| glyphs.get(&c).cloned())
        .map_err(|e| fail(lua, format!("{call}: {e}")))?;
    let mut l = level.borrow_mut::<LuaLevel>()?;
    let LuaLevel { panels, used } = &mut *l;
    let mut r = rng.borrow_mut::<LuaRng>()?;
    let placed = place_vault(&mut m.0, &mut r.0, panels, used, &grid, &avoid)
        .map_err(|e| fail(lua, format!("{call}: {e}")))?;
    let Some(placed) = placed else {
        return Ok(Value::Nil);
    };
    let t = rect_table(lua, placed.rect)?;
    let list = lua.create_table()?;
    for (i, &p) in placed.panels.iter().enumerate() {
        list.raw_set(i + 1, panel_table(lua, panels, p)?)?;
    }
    t.raw_set("panels", list)?;
    Ok(Value::Table(t))
}

/// The room limits `{ min_width, max_width, min_height, max_height, life_percent, depth }`.
fn room_limits(lua: &Lua, limits: &Table, call: &str) -> mlua::Result<RoomLimits> {
    known_keys(
        lua,
        limits,
        call,
        &[
            "min_width",
            "max_width",
            "min_height",
            "max_height",
            "life_percent",
            "depth",
        ],
    )?;
    let size =
        |key: &str| Ok::<_, mlua::Error>(int_req_in(lua, limits, key, (1, 4096), call)? as i32);
    Ok(RoomLimits {
        min_width: size("min_width")?,
        max_width: size("max_width")?,
        min_height: size("min_height")?,
        max_height: size("max_height")?,
        life_percent: int_in(lua, limits, "life_percent", (55, 0, 100), call)? as u32,
        depth: int_in(lua, limits, "depth", (1, 1, 1000), call)? as u32,
    })
}

/// A `[[room]]` entry: its kind, style and weight.
fn room_def(
    lua: &Lua,
    map: &Map,
    def: &Table,
    call: &str,
) -> mlua::Result<(RoomKind, RoomStyle, f64)> {
    let def = resolve(def)?;
    let name = str_field(lua, &def, "name", call)?;
    let at = format!("{call}: room '{name}'");
    let kind_name = str_field(lua, &def, "kind", &at)?;
    let kind = RoomKind::from_name(&kind_name).ok_or_else(|| {
        fail(
            lua,
            format!(
                "{at}: kind = '{kind_name}' (valid: {})",
                RoomKind::NAMES.join(", ")
            ),
        )
    })?;
    let weight = opt_number(lua, &def, "weight", &at)?.unwrap_or(1.0);
    if weight < 0.0 {
        return Err(fail(lua, format!("{at}: weight = {weight} must be ≥ 0")));
    }
    let furnishing = match opt_str(lua, &def, "furnishing", &at)? {
        Some(t) => Some(args::terrain(lua, map, &t, &at)?),
        None => None,
    };
    let style = RoomStyle {
        floor: terrain_field(lua, map, &def, "floor", &at)?,
        wall: terrain_field(lua, map, &def, "wall", &at)?,
        door: door_field(lua, map, &def, "door", &at)?,
        furnishing,
        name,
    };
    Ok((kind, style, weight))
}

/// Draws one room and returns its floor rect, kind and region as a Lua table.
fn draw(
    lua: &Lua,
    map: &mut Map,
    rng: &mut warren_core::rng::Rng,
    panel: Rect,
    (kind, style): (RoomKind, &RoomStyle),
    lim: &RoomLimits,
    call: &str,
) -> mlua::Result<Table> {
    let floor = draw_room(map, rng, panel, kind, style, lim)
        .map_err(|e| fail(lua, format!("{call}: {e}")))?;
    let t = rect_table(lua, floor)?;
    t.raw_set("kind", map.notes.rooms.last().map_or("", |r| &*r.kind))?;
    t.raw_set("region", style.name.as_str())?;
    Ok(t)
}

/// `warren.dungeon.room(map, rng, panel, room, limits)` → the room's floor rect and kind.
fn room(
    lua: &Lua,
    (map, rng, panel, def, limits): (AnyUserData, AnyUserData, Table, Table, Table),
) -> mlua::Result<Table> {
    let call = "warren.dungeon.room";
    let lim = room_limits(lua, &limits, call)?;
    let panel = rect(lua, &panel, call)?;
    let mut m = map.borrow_mut::<LuaMap>()?;
    let (kind, style, _) = room_def(lua, &m.0, &def, call)?;
    let mut r = rng.borrow_mut::<LuaRng>()?;
    draw(lua, &mut m.0, &mut r.0, panel, (kind, &style), &lim, call)
}

/// `warren.dungeon.rooms(map, rng, level, rooms, limits)`: a room in every panel not taken,
/// its region chosen by weight from `rooms`, none twice while another is unused (a
/// [`RegionPicker`]). Returns the rooms.
fn rooms(
    lua: &Lua,
    (map, rng, level, defs, limits): (AnyUserData, AnyUserData, AnyUserData, Table, Table),
) -> mlua::Result<Table> {
    let call = "warren.dungeon.rooms";
    let lim = room_limits(lua, &limits, call)?;
    let mut m = map.borrow_mut::<LuaMap>()?;
    let mut choices = Vec::new();
    for v in args::list(lua, &resolve(&defs)?, call)? {
        let Value::Table(def) = v else {
            return Err(fail(lua, format!("{call}: rooms must be [[room]] tables")));
        };
        choices.push(room_def(lua, &m.0, &def, call)?);
    }
    let mut picker = RegionPicker::new(choices.iter().map(|c| c.2).collect());
    let l = level.borrow::<LuaLevel>()?;
    let mut r = rng.borrow_mut::<LuaRng>()?;
    let out = lua.create_table()?;
    for (i, p) in l.panels.all().into_iter().enumerate() {
        if l.used[i] {
            continue;
        }
        let Some(k) = picker.pick(&mut r.0) else {
            break;
        };
        let (kind, style, _) = &choices[k];
        let t = draw(
            lua,
            &mut m.0,
            &mut r.0,
            l.panels.rect(p),
            (*kind, style),
            &lim,
            call,
        )?;
        out.raw_set(out.raw_len() + 1, t)?;
    }
    Ok(out)
}

/// `warren.dungeon.connect_panels(map, rng, level, tunnels, { flags })` → tunnels dug.
fn connect(
    lua: &Lua,
    (map, rng, level, tunnels, opts): (
        AnyUserData,
        AnyUserData,
        AnyUserData,
        AnyUserData,
        Option<Table>,
    ),
) -> mlua::Result<usize> {
    let call = "warren.dungeon.connect_panels";
    let flags = match &opts {
        Some(o) => {
            known_keys(lua, o, call, &["flags"])?;
            flags(lua, o.get("flags")?, call)?
        }
        None => flags(lua, None, call)?,
    };
    let l = level.borrow::<LuaLevel>()?;
    let mut t = tunnels.borrow_mut::<LuaTunnels>()?;
    let LuaTunnels {
        config,
        level: state,
    } = &mut *t;
    let mut m = map.borrow_mut::<LuaMap>()?;
    let mut r = rng.borrow_mut::<LuaRng>()?;
    connect_panels(&mut m.0, &l.panels, config, state, &mut r.0, flags)
        .map(|dug| dug.len())
        .map_err(|e| fail(lua, format!("{call}: {e}")))
}

/// `warren.dungeon.up_stairs(map, above, { terrain, walls })` → cells.
fn stairs_up(
    lua: &Lua,
    (map, above, opts): (AnyUserData, AnyUserData, Table),
) -> mlua::Result<Table> {
    let call = "warren.dungeon.up_stairs";
    known_keys(lua, &opts, call, &["terrain", "walls"])?;
    let a = above.borrow::<LuaMap>()?;
    let mut m = map.borrow_mut::<LuaMap>()?;
    let stair = terrain_field(lua, &m.0, &opts, "terrain", call)?;
    let walls = Brush::new(terrain_field(lua, &m.0, &opts, "walls", call)?)
        .priority(priority::CORRIDOR_WALL);
    let cells = up_stairs(&mut m.0, &a.0, stair, &walls);
    point_list(lua, &cells)
}

/// `warren.dungeon.down_stairs(map, rng, { terrain, count, avoid = { terrain names },
/// place = "rooms"|"anywhere" })`.
fn stairs_down(
    lua: &Lua,
    (map, rng, opts): (AnyUserData, AnyUserData, Table),
) -> mlua::Result<Table> {
    let call = "warren.dungeon.down_stairs";
    known_keys(lua, &opts, call, &["terrain", "count", "avoid", "place"])?;
    let placement = match opt_str(lua, &opts, "place", call)? {
        None => StairPlacement::default(),
        Some(name) => StairPlacement::from_name(&name).ok_or_else(|| {
            fail(
                lua,
                format!(
                    "{call}: place = '{name}' (valid: {})",
                    StairPlacement::NAMES.join(", ")
                ),
            )
        })?,
    };
    let mut m = map.borrow_mut::<LuaMap>()?;
    let stair = terrain_field(lua, &m.0, &opts, "terrain", call)?;
    let count = int_in(lua, &opts, "count", (1, 0, 1000), call)? as u32;
    let mut avoid = Vec::new();
    if let Value::Table(list) = get(&opts, "avoid")? {
        for v in args::list(lua, &list, call)? {
            let Value::String(s) = v else {
                return Err(fail(lua, format!("{call}: avoid must list terrain names")));
            };
            avoid.push(args::terrain(lua, &m.0, &s.to_str()?, call)?);
        }
    }
    let mut r = rng.borrow_mut::<LuaRng>()?;
    let cells = down_stairs(&mut m.0, &mut r.0, stair, count, (&avoid, placement))
        .map_err(|e| fail(lua, format!("{call}: {e}")))?;
    point_list(lua, &cells)
}

/// `warren.dungeon.finish_doors(map, rng, { depth, reveal_depth, reveal_radius })` → how many
/// doors ended in each state, `{ closed =, open =, locked =, secret =, broken = }`.
fn doors_finish(
    lua: &Lua,
    (map, rng, opts): (AnyUserData, AnyUserData, Option<Table>),
) -> mlua::Result<Table> {
    let call = "warren.dungeon.finish_doors";
    let mut finish = FinishDoors::default();
    if let Some(o) = &opts {
        known_keys(lua, o, call, &["depth", "reveal_depth", "reveal_radius"])?;
        finish.depth = int_in(lua, o, "depth", (1, 1, 1000), call)? as u32;
        let depth = finish.reveal_depth as i64;
        finish.reveal_depth = int_in(lua, o, "reveal_depth", (depth, 0, 1000), call)? as u32;
        let radius = finish.reveal_radius as i64;
        finish.reveal_radius = int_in(lua, o, "reveal_radius", (radius, 0, 1000), call)? as i32;
    }
    let mut m = map.borrow_mut::<LuaMap>()?;
    let mut r = rng.borrow_mut::<LuaRng>()?;
    crate::budget::charge(lua, m.0.notes.doors.len() as u64)?;
    let counts = finish_doors(&mut m.0, &mut r.0, &finish);
    let out = lua.create_table()?;
    for state in DoorState::ALL {
        out.raw_set(state.name(), counts[state as usize])?;
    }
    Ok(out)
}

/// The `warren.dungeon` table.
pub fn table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set("init", lua.create_function(init)?)?;
    t.set("streamer", lua.create_function(streamer)?)?;
    t.set("carry_chasms", lua.create_function(chasms)?)?;
    t.set("vault", lua.create_function(vault)?)?;
    t.set("room", lua.create_function(room)?)?;
    t.set("rooms", lua.create_function(rooms)?)?;
    t.set("connect_panels", lua.create_function(connect)?)?;
    t.set("up_stairs", lua.create_function(stairs_up)?)?;
    t.set("down_stairs", lua.create_function(stairs_down)?)?;
    t.set("finish_doors", lua.create_function(doors_finish)?)?;
    Ok(t)
}
