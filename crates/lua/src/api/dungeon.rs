//! `warren.dungeon`: the phases of Incursion's level generator (seed 003), one Rust call each
//! ([`warren_core::gen::dungeon`]); the recipe chooses region data by weight and depth and
//! calls them in order. Region entries are views of `ctx.regions` (used as resolved at load) or
//! tables made like them (resolved on the spot); sizes default to `[dungeon]`.
//!
//! ```lua
//! local level = warren.dungeon.init_level(map)      -- [dungeon] level and panel sizes
//! warren.dungeon.draw_streamer(map, rng, ctx.regions.streamer[1])
//! warren.dungeon.place_vault(map, rng, level, ctx.regions.vault[1], { above = ctx.above })
//! warren.dungeon.draw_rooms(map, rng, level, ctx.regions.room)
//! warren.dungeon.connect_panels(map, rng, level, tunnels, { flags = { "direct", "wander" } })
//! ```

use super::call::{shown, Call, Extra, Opts};
use super::cost;
use super::decl::{arg, key, key_opt, key_or, opt, Arg, Class, Decl, Default, Owner, Ty};
use super::map::LuaMap;
use super::meter::LuaMeter;
use super::notes::point_list;
use super::regions::{self, ROOM_REGION, STREAMER_REGION, VAULT_REGION};
use super::rng::LuaRng;
use super::shapes::{self, list};
use super::shared::Shared;
use super::tunnel::{flags, LuaTunnels, TunnelState};
use crate::state::{charge_bytes, charge_bytes_for};
use mlua::{AnyUserData, Lua, MetaMethod, Table, UserData, UserDataFields, UserDataMethods, Value};
use warren_core::gen::doors::{finish_doors, FinishDoors};
use warren_core::gen::dungeon::{
    carry_chasms, connect_panels, down_stairs, draw_room, draw_rooms, init_level, place_vault,
    up_stairs, write_streamer, DungeonError, Level, Panels, RoomLimits, StairPlacement,
};
use warren_core::gen::meter::Meter;
use warren_core::map::{priority, Brush, DoorState, Map, Point, Rect};
use warren_core::region::schema::{
    LEVEL_HEIGHT, LEVEL_WIDTH, LIFE_PERCENT, PANEL_HEIGHT, PANEL_WIDTH, ROOM_MAX_HEIGHT,
    ROOM_MAX_WIDTH, ROOM_MIN_HEIGHT, ROOM_MIN_WIDTH, SECRET_DOOR_REVEAL_DEPTH,
    SECRET_DOOR_REVEAL_RADIUS,
};
use warren_core::region::RoomRegion;

/// One level's panel grid and which panels are taken, as a Lua userdata.
pub struct DungeonLevel(pub Level);

/// A dungeon level's panel grid as a Lua userdata: a [`DungeonLevel`] in a cell of warren's
/// own.
pub type LuaLevel = Shared<DungeonLevel>;

const D: Owner = Owner::Dungeon;
const L: Owner = Owner::Level;

/// A panel as recipes see it.
const PANEL: Class = Class {
    name: "warren.Panel",
    parent: None,
    doc: "A panel of a level: its cells (`x, y, w, h`) and its place in the panel grid (`px, py`, 0-based).",
    fields: &[
        key("x", Ty::INT, "Left column."),
        key("y", Ty::INT, "Top row."),
        key("w", Ty::INT, "Width in cells."),
        key("h", Ty::INT, "Height in cells."),
        key("px", Ty::INT, "Panel column."),
        key("py", Ty::INT, "Panel row."),
        key_opt("used", Ty::Bool, "Whether it is taken (from `level:panels()` only)."),
    ],
};

/// What `warren.dungeon.init_level` takes.
const LEVEL_OPTIONS: Class = Class {
    name: "warren.LevelOptions",
    parent: None,
    doc: "Options of `warren.dungeon.init_level`: the level's size and panel size (each default from `[dungeon]`). The level must divide evenly into at most 32×32 panels.",
    fields: &[
        key_opt("width", Ty::int(LEVEL_WIDTH.min, LEVEL_WIDTH.max), "Level width (default `[dungeon] level_width`)."),
        key_opt("height", Ty::int(LEVEL_HEIGHT.min, LEVEL_HEIGHT.max), "Level height (default `[dungeon] level_height`)."),
        key_opt("panel_width", Ty::int(PANEL_WIDTH.min, PANEL_WIDTH.max), "Panel width (default `[dungeon] panel_width`)."),
        key_opt("panel_height", Ty::int(PANEL_HEIGHT.min, PANEL_HEIGHT.max), "Panel height (default `[dungeon] panel_height`)."),
    ],
};

/// What `warren.dungeon.carry_chasms` takes.
const CHASM_OPTIONS: Class = Class {
    name: "warren.ChasmOptions",
    parent: None,
    doc: "Options of `warren.dungeon.carry_chasms`.",
    fields: &[
        key(
            "chasms",
            Ty::Strings,
            "The region names of the chasms to carry down.",
        ),
        key_or(
            "narrow",
            Ty::Bool,
            Default::Bool(false),
            "Carry only cells surrounded by chasm above, so chasms narrow.",
        ),
    ],
};

/// What `warren.dungeon.place_vault` takes.
const VAULT_OPTIONS: Class = Class {
    name: "warren.VaultOptions",
    parent: None,
    doc: "Options of `warren.dungeon.place_vault`.",
    fields: &[
        key_opt(
            "above",
            Ty::Map,
            "The level above (`ctx.above`): the vault never covers its down stairs.",
        ),
        key_opt(
            "depth",
            Ty::int(1, 1000),
            "The level's depth (default `ctx.depth`): a vault with `keep_doors = false` makes wooden doors on levels at most `[dungeon] wooden_door_depth` deep.",
        ),
    ],
};

/// What `warren.dungeon.place_vault` returns.
const PLACED_VAULT: Class = Class {
    name: "warren.PlacedVault",
    parent: None,
    doc: "A placed vault: its cells and the panels it took.",
    fields: &[
        key("x", Ty::INT, "Left column."),
        key("y", Ty::INT, "Top row."),
        key("w", Ty::INT, "Width."),
        key("h", Ty::INT, "Height."),
        key("panels", Ty::TableList(&PANEL), "The panels it took."),
    ],
};

/// Room sizes.
const ROOM_LIMITS: Class = Class {
    name: "warren.RoomLimits",
    parent: None,
    doc: "Room sizes, walls included, and the lifecave fill (each default from `[dungeon]`), and the level's depth.",
    fields: &[
        key_opt(
            "min_width",
            Ty::int(ROOM_MIN_WIDTH.min, ROOM_MIN_WIDTH.max),
            "Narrowest room (default `[dungeon] room_min_width`); at most the panel width less 2.",
        ),
        key_opt(
            "max_width",
            Ty::int(ROOM_MAX_WIDTH.min, ROOM_MAX_WIDTH.max),
            "Widest room (default `[dungeon] room_max_width`).",
        ),
        key_opt(
            "min_height",
            Ty::int(ROOM_MIN_HEIGHT.min, ROOM_MIN_HEIGHT.max),
            "Shortest room (default `[dungeon] room_min_height`).",
        ),
        key_opt(
            "max_height",
            Ty::int(ROOM_MAX_HEIGHT.min, ROOM_MAX_HEIGHT.max),
            "Tallest room (default `[dungeon] room_max_height`).",
        ),
        key_opt(
            "life_percent",
            Ty::int(LIFE_PERCENT.min, LIFE_PERCENT.max),
            "Percent of a lifecave's cells that start as wall (default `[dungeon] life_percent`).",
        ),
        key_or(
            "depth",
            Ty::int(1, 1000),
            Default::Int(1),
            "The level's depth: a maze deeper than 3 gets `min(7, depth - 3)` secret doors, and on levels at most `[dungeon] wooden_door_depth` deep a room's door that is not wooden becomes `[dungeon] wooden_door` (unless the region keeps its doors).",
        ),
    ],
};

/// A room the rooms phases drew.
const DRAWN_ROOM: Class = Class {
    name: "warren.DrawnRoom",
    parent: None,
    doc: "A room drawn in a panel: its floor's bounding box, kind and region.",
    fields: &[
        key("x", Ty::INT, "Left column of the floor."),
        key("y", Ty::INT, "Top row of the floor."),
        key("w", Ty::INT, "Floor width."),
        key("h", Ty::INT, "Floor height."),
        key(
            "kind",
            Ty::Str,
            "The kind drawn (a lifecave that grew no floor is drawn as `normal`).",
        ),
        key("region", Ty::Str, "The room region's name."),
    ],
};

/// What `warren.dungeon.connect_panels` takes.
const CONNECT_PANELS_OPTIONS: Class = Class {
    name: "warren.ConnectPanelsOptions",
    parent: None,
    doc: "Options of `warren.dungeon.connect_panels`.",
    fields: &[key_opt(
        "flags",
        Ty::Strings,
        "Tunnel flags (Incursion uses `direct` and `wander`).",
    )],
};

/// What `warren.dungeon.place_up_stairs` takes.
const UP_STAIRS_OPTIONS: Class = Class {
    name: "warren.UpStairsOptions",
    parent: None,
    doc: "Options of `warren.dungeon.place_up_stairs`.",
    fields: &[
        key_opt("terrain", Ty::Terrain, "Stairs terrain (default `[dungeon] up_stairs`)."),
        key_opt("walls", Ty::Terrain, "Walls around stairs cut into rock (default: the walls of the level's corridor region)."),
    ],
};

/// What `warren.dungeon.place_down_stairs` takes.
const DOWN_STAIRS_OPTIONS: Class = Class {
    name: "warren.DownStairsOptions",
    parent: None,
    doc: "Options of `warren.dungeon.place_down_stairs`.",
    fields: &[
        key_opt(
            "terrain",
            Ty::Terrain,
            "Stairs terrain (default `[dungeon] down_stairs`).",
        ),
        key_or("count", Ty::int(0, 1000), Default::Int(1), "How many."),
        key_opt(
            "avoid",
            Ty::Strings,
            "Terrain names stairs never stand on (water, chasms, lava).",
        ),
        key_or(
            "place",
            Ty::Choice(&StairPlacement::NAMES),
            Default::Str("rooms"),
            "`rooms`: on the floor of recorded rooms (vaults aside) while any is left; `anywhere`: on any open floor, corridors included (Incursion's rule).",
        ),
    ],
};

/// What `warren.dungeon.finish_doors` takes.
const FINISH_DOORS_OPTIONS: Class = Class {
    name: "warren.FinishDoorsOptions",
    parent: None,
    doc: "Options of `warren.dungeon.finish_doors`.",
    fields: &[
        key_or("depth", Ty::int(1, 1000), Default::Int(1), "The level's depth."),
        key_opt(
            "reveal_depth",
            Ty::int(SECRET_DOOR_REVEAL_DEPTH.min, SECRET_DOOR_REVEAL_DEPTH.max),
            "On levels at most this deep no secret door stays within `reveal_radius` of the up stairs; they become closed doors (default `[dungeon] secret_door_reveal_depth`).",
        ),
        key_opt(
            "reveal_radius",
            Ty::int(SECRET_DOOR_REVEAL_RADIUS.min, SECRET_DOOR_REVEAL_RADIUS.max),
            "Distance from the up stairs (the longer axis plus half the shorter) of `reveal_depth` (default `[dungeon] secret_door_reveal_radius`).",
        ),
    ],
};

/// What `warren.dungeon.finish_doors` returns.
const DOOR_COUNTS: Class = Class {
    name: "warren.DoorCounts",
    parent: None,
    doc: "How many doors ended in each state.",
    fields: &[
        key("closed", Ty::INT, "Closed doors."),
        key("open", Ty::INT, "Open doors."),
        key("locked", Ty::INT, "Locked doors."),
        key("secret", Ty::INT, "Secret doors."),
        key("broken", Ty::INT, "Broken doors (empty doorways)."),
    ],
};

/// The classes of `warren.dungeon` (for the stubs).
pub const CLASSES: &[&Class] = &[
    &PANEL,
    &LEVEL_OPTIONS,
    &CHASM_OPTIONS,
    &VAULT_OPTIONS,
    &PLACED_VAULT,
    &ROOM_LIMITS,
    &DRAWN_ROOM,
    &CONNECT_PANELS_OPTIONS,
    &UP_STAIRS_OPTIONS,
    &DOWN_STAIRS_OPTIONS,
    &FINISH_DOORS_OPTIONS,
    &DOOR_COUNTS,
];

const MAP: Arg = arg("map", Ty::Map);
const RNG: Arg = arg("rng", Ty::Rng);
const ABOVE: Arg = arg("above", Ty::Map);
const LEVEL: Arg = arg("level", Ty::Object(Owner::Level));

const INIT_ARGS: &[Arg] = &[MAP, opt("opts", Ty::Table(&LEVEL_OPTIONS))];
const INIT_LEVEL: Decl = Decl::function(
    D,
    "init_level",
    "Step 1: makes the map a fresh level of rock (the regions' `[map] fill`) inside an edge that nothing overwrites, cut into panels; returns the level's panel grid.",
)
.args(INIT_ARGS)
.returns(&["warren.Level"]);
const INIT: Decl = Decl::function(D, "init", "Step 1: a fresh level of rock.")
    .args(INIT_ARGS)
    .returns(&["warren.Level"])
    .alias("warren.dungeon.init_level");

const STREAMER_ARGS: &[Arg] = &[MAP, RNG, arg("streamer", Ty::Table(&STREAMER_REGION))];
const DRAW_STREAMER: Decl = Decl::function(
    D,
    "draw_streamer",
    "Step 2: draws one river, chasm, lava flow or rock vein across the level; returns the cells given its terrain.",
)
.args(STREAMER_ARGS)
.returns(&["integer"]);
const STREAMER: Decl = Decl::function(D, "streamer", "Step 2: draws one streamer.")
    .args(STREAMER_ARGS)
    .returns(&["integer"])
    .alias("warren.dungeon.draw_streamer");

const CARRY_CHASMS: Decl = Decl::function(
    D,
    "carry_chasms",
    "Step 2: continues the chasms of the level above on this level (levels of different sizes are centred); returns the cells written.",
)
.args(&[MAP, ABOVE, arg("opts", Ty::Table(&CHASM_OPTIONS))])
.returns(&["integer"]);

const VAULT_ARGS: &[Arg] = &[
    MAP,
    RNG,
    LEVEL,
    arg("vault", Ty::Table(&VAULT_REGION)),
    opt("opts", Ty::Table(&VAULT_OPTIONS)),
];
const PLACE_VAULT: Decl = Decl::function(
    D,
    "place_vault",
    "Step 3: places a vault in a block of free panels (taking them), at VAULT priority, flipped at random; returns where, or nil when it does not fit.",
)
.args(VAULT_ARGS)
.returns(&["warren.PlacedVault?"]);
const VAULT: Decl = Decl::function(D, "vault", "Step 3: places a vault.")
    .args(VAULT_ARGS)
    .returns(&["warren.PlacedVault?"])
    .alias("warren.dungeon.place_vault");

const ROOM_ARGS: &[Arg] = &[
    MAP,
    RNG,
    arg("panel", Ty::Rect),
    arg("room", Ty::Table(&ROOM_REGION)),
    opt("limits", Ty::Table(&ROOM_LIMITS)),
];
const DRAW_ROOM: Decl = Decl::function(
    D,
    "draw_room",
    "Step 4 for one panel: draws a room of the region's kind inside `panel` and records it.",
)
.args(ROOM_ARGS)
.returns(&["warren.DrawnRoom"]);
const ROOM: Decl = Decl::function(D, "room", "Step 4 for one panel.")
    .args(ROOM_ARGS)
    .returns(&["warren.DrawnRoom"])
    .alias("warren.dungeon.draw_room");

const ROOMS_ARGS: &[Arg] = &[
    MAP,
    RNG,
    LEVEL,
    arg("rooms", Ty::TableList(&ROOM_REGION)),
    opt("limits", Ty::Table(&ROOM_LIMITS)),
];
const DRAW_ROOMS: Decl = Decl::function(
    D,
    "draw_rooms",
    "Step 4: a room in every free panel, each of a region drawn by weight from `rooms`, none again while another with a weight is unused on the level (Incursion's `usedInThisLevel`); returns the rooms in order.",
)
.args(ROOMS_ARGS)
.returns(&["warren.DrawnRoom[]"]);
const ROOMS: Decl = Decl::function(D, "rooms", "Step 4: a room in every free panel.")
    .args(ROOMS_ARGS)
    .returns(&["warren.DrawnRoom[]"])
    .alias("warren.dungeon.draw_rooms");

const CONNECT_PANELS: Decl = Decl::function(
    D,
    "connect_panels",
    "Step 5: a tunnel between the closest edge cells of every two neighbouring panels; returns how many were dug.",
)
.args(&[
    MAP,
    RNG,
    LEVEL,
    arg("tunnels", Ty::Object(Owner::Tunnels)),
    opt("opts", Ty::Table(&CONNECT_PANELS_OPTIONS)),
])
.returns(&["integer"]);

const UP_ARGS: &[Arg] = &[MAP, ABOVE, opt("opts", Ty::Table(&UP_STAIRS_OPTIONS))];
const PLACE_UP_STAIRS: Decl = Decl::function(
    D,
    "place_up_stairs",
    "Step 6: up stairs exactly under the level above's down stairs (a pocket in rock gets walls; the fix-up joins it); returns the cells.",
)
.args(UP_ARGS)
.returns(&["warren.Cell[]"]);
const UP_STAIRS: Decl = Decl::function(D, "up_stairs", "Step 6: up stairs.")
    .args(UP_ARGS)
    .returns(&["warren.Cell[]"])
    .alias("warren.dungeon.place_up_stairs");

const DOWN_ARGS: &[Arg] = &[MAP, RNG, opt("opts", Ty::Table(&DOWN_STAIRS_OPTIONS))];
const PLACE_DOWN_STAIRS: Decl = Decl::function(
    D,
    "place_down_stairs",
    "Step 6: down stairs on open floor of priority at most ROOM_FLOOR (no door, no hazard), in rooms unless `opts.place` is `anywhere`, not two in one room or region while another is free; returns the cells.",
)
.args(DOWN_ARGS)
.returns(&["warren.Cell[]"]);
const DOWN_STAIRS: Decl = Decl::function(D, "down_stairs", "Step 6: down stairs.")
    .args(DOWN_ARGS)
    .returns(&["warren.Cell[]"])
    .alias("warren.dungeon.place_down_stairs");

const FINISH_DOORS: Decl = Decl::function(
    D,
    "finish_doors",
    "Step 7, Incursion's last door pass: a door on stairs is dropped, touching doors go in pairs, a door not between two walls is broken, the rest closed, open, locked or secret by their kind's weights (a maze's secret doors stay secret; near shallow up stairs none does), and each is drawn in its state; returns how many of each state.",
)
.args(&[MAP, RNG, opt("opts", Ty::Table(&FINISH_DOORS_OPTIONS))])
.returns(&["warren.DoorCounts"]);

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
        INIT => init_alias,
        STREAMER => streamer_alias,
        VAULT => vault_alias,
        ROOM => room_alias,
        ROOMS => rooms_alias,
        UP_STAIRS => up_stairs_alias,
        DOWN_STAIRS => down_stairs_alias,
    }
}

const PANELS: Decl = Decl::method(L, "panels", "Every panel, column by column, with `used`.")
    .returns(&["warren.Panel[]"]);
const FREE_PANELS: Decl = Decl::method(L, "free_panels", "The panels not taken, column by column.")
    .returns(&["warren.Panel[]"]);
const USE_PANEL: Decl = Decl::method(
    L,
    "use_panel",
    "Marks panel (`px`, `py`) taken (0-based panel column and row), so no room is drawn there.",
)
.args(&[
    arg("px", Ty::int(0, i64::MAX)),
    arg("py", Ty::int(0, i64::MAX)),
]);

methods! {
    /// A level's methods.
    pub METHODS, register_methods for LuaLevel {
        PANELS => panels,
        FREE_PANELS => free_panels,
        USE_PANEL => use_panel,
    }
}

impl UserData for LuaLevel {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // What `tostring(level)` shows (mlua would name the Rust type, `Shared<DungeonLevel>`).
        fields.add_meta_field(MetaMethod::Type, "LuaLevel");
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        register_methods(methods);
    }
}

/// The `warren.dungeon` table.
pub fn table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    register(lua, &t)?;
    Ok(t)
}

/// A panel as a Lua table `{ x, y, w, h, px, py }`.
fn panel_table(lua: &Lua, panels: &Panels, p: Point) -> mlua::Result<Table> {
    let r = panels.rect(p);
    let t = lua.create_table_with_capacity(0, 7)?;
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
    // Room for two more keys: a room's `kind` and `region`, a vault's `panels`.
    super::rects::rect_table_with_room(lua, &r, 2)
}

fn panels(lua: &Lua, this: &LuaLevel, (): ()) -> mlua::Result<Table> {
    let c = Call::gated(lua, &PANELS);
    let l = c.read(this)?;
    let all = l.0.panels.all();
    crate::state::charge(lua, all.len() as u64)?;
    let out = lua.create_table_with_capacity(all.len(), 0)?;
    for (i, &p) in all.iter().enumerate() {
        let t = panel_table(lua, &l.0.panels, p)?;
        t.raw_set("used", l.0.used[i])?;
        out.raw_set(i + 1, t)?;
    }
    Ok(out)
}

fn free_panels(lua: &Lua, this: &LuaLevel, (): ()) -> mlua::Result<Table> {
    let c = Call::gated(lua, &FREE_PANELS);
    let l = c.read(this)?;
    let free = l.0.free_panels();
    crate::state::charge(lua, free.len() as u64)?;
    let out = lua.create_table_with_capacity(free.len(), 0)?;
    for (i, &p) in free.iter().enumerate() {
        out.raw_set(i + 1, panel_table(lua, &l.0.panels, p)?)?;
    }
    Ok(out)
}

fn use_panel(lua: &Lua, this: &LuaLevel, (px, py): (Value, Value)) -> mlua::Result<()> {
    let c = Call::gated(lua, &USE_PANEL);
    let (px, py) = (c.int(0, &px)?, c.int(1, &py)?);
    let mut l = c.write(this)?;
    let p = Point::new(
        px.min(i32::MAX as i64) as i32,
        py.min(i32::MAX as i64) as i32,
    );
    l.0.use_panel(p).map_err(|e| c.fail(e))
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

fn init_level_fn(lua: &Lua, (map, opts, extra): (Value, Value, Extra)) -> mlua::Result<LuaLevel> {
    init(&Call::new(lua, &INIT_LEVEL, &extra)?, &map, &opts)
}

fn init_alias(lua: &Lua, (map, opts, extra): (Value, Value, Extra)) -> mlua::Result<LuaLevel> {
    init(&Call::new(lua, &INIT, &extra)?, &map, &opts)
}

/// `warren.dungeon.init_level(map, { width =, height =, panel_width =, panel_height = })`.
fn init(c: &Call, map: &Value, opts: &Value) -> mlua::Result<LuaLevel> {
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
    super::map::publish_size(c.lua(), &map)?;
    Ok(Shared::new(DungeonLevel(Level::new(panels))))
}

type StreamerArgs = (Value, Value, Value, Extra);

fn draw_streamer(lua: &Lua, (map, rng, s, extra): StreamerArgs) -> mlua::Result<usize> {
    streamer(&Call::new(lua, &DRAW_STREAMER, &extra)?, (&map, &rng, &s))
}

fn streamer_alias(lua: &Lua, (map, rng, s, extra): StreamerArgs) -> mlua::Result<usize> {
    streamer(&Call::new(lua, &STREAMER, &extra)?, (&map, &rng, &s))
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

fn vault_alias(lua: &Lua, (map, rng, level, v, opts, extra): VaultArgs) -> mlua::Result<Value> {
    vault(
        &Call::new(lua, &VAULT, &extra)?,
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
    let Level { panels, used } = &mut l.0;
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

fn room_alias(lua: &Lua, (map, rng, panel, room, limits, extra): RoomArgs) -> mlua::Result<Table> {
    one_room(
        &Call::new(lua, &ROOM, &extra)?,
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

fn rooms_alias(
    lua: &Lua,
    (map, rng, level, rooms, limits, extra): RoomArgs,
) -> mlua::Result<Table> {
    all_rooms(
        &Call::new(lua, &ROOMS, &extra)?,
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
    if let Some(m) = super::rng::weight_problem(&weights, |i| {
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

fn up_stairs_alias(lua: &Lua, (map, above, opts, extra): UpArgs) -> mlua::Result<Table> {
    up(&Call::new(lua, &UP_STAIRS, &extra)?, [&map, &above, &opts])
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

fn down_stairs_alias(lua: &Lua, (map, rng, opts, extra): DownArgs) -> mlua::Result<Table> {
    down(&Call::new(lua, &DOWN_STAIRS, &extra)?, [&map, &rng, &opts])
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
        avoid.push(super::call::terrain_id(c, &m, &name)?);
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
