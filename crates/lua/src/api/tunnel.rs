//! `warren.tunnel`: Incursion's tunnel (seed 000) for recipes. A context holds one level's
//! corridor regions, constants, panel size and doors — resolved once, when it is made — and
//! the state that lasts for the level (rooms touched, regions used), so every tunnel of a
//! level shares it.
//!
//! ```lua
//! local tunnels = warren.tunnel.new(map)            -- ctx.regions; or warren.tunnel.new(map, regions, opts)
//! local t = tunnels:dig(map, rng, { from = { x = 3, y = 4 }, to = { x = 60, y = 40 },
//!                                   flags = { "direct", "wander" } })
//! print(t.x, t.y, t.stop, t.style, #t.carved)
//! local report = tunnels:fixup(map, rng, { trials = 26 })
//! ```

use super::call::{did_you_mean, quoted, shown, Call, Extra, Opts};
use super::cost;
use super::decl::{arg, key, key_opt, key_or, opt, Class, Decl, Default, Owner, Ty};
use super::first_use::{self, Fresh, MetOnFirstUse};
use super::gate;
use super::map::notes::point_list;
use super::map::LuaMap;
use super::meter::LuaMeter;
use super::regions::{self, REGIONS};
use super::rng::LuaRng;
use super::shapes::{cell_from, list};
use super::shared::Shared;
use crate::state::charge_bytes;
use mlua::{Lua, MetaMethod, Table, UserData, UserDataFields, UserDataMethods, Value};
use std::sync::Arc;
use warren_core::gen::connectivity::FixupError;
use warren_core::gen::dungeon::{fixup_level, DungeonError, FixupOptions, Join};
use warren_core::gen::meter::Meter;
use warren_core::gen::tunnel::{
    tunnel_prechecked, StopReason, TunnelConfig, TunnelFlags, TunnelLevel, TunnelRequest,
    MAX_CORRIDOR_LENGTH,
};
use warren_core::map::{Adjacency, Dir, Map, Point, TerrainTable};
use warren_core::region::tunnel_config;

/// One level's tunnel settings and state.
pub struct TunnelState {
    /// Styles, constants, panel size and doors.
    pub config: TunnelConfig,
    /// Rooms touched and styles used so far on the level.
    pub level: TunnelLevel,
    /// The terrain table `config` was checked against.
    terrains: Arc<TerrainTable>,
}

/// One level's tunnel settings and state as a Lua userdata: [`TunnelState`] in a cell of
/// warren's own.
pub type LuaTunnels = Shared<TunnelState>;

impl TunnelState {
    /// Makes sure the configuration was checked against `map`'s terrain table (once per
    /// table, not per tunnel).
    pub fn check(&mut self, c: &Call, map: &Map) -> mlua::Result<()> {
        if !Arc::ptr_eq(&self.terrains, map.terrains()) {
            self.config.validate(map).map_err(|e| c.fail(e))?;
            self.terrains = map.terrains().clone();
        }
        Ok(())
    }
}

/// The name of a stop reason, as recipes see it.
pub fn stop_name(stop: StopReason) -> &'static str {
    STOPS[match stop {
        StopReason::Arrived => 0,
        StopReason::Exact => 1,
        StopReason::Connected => 2,
        StopReason::Wandered => 3,
        StopReason::LengthLimit => 4,
        StopReason::StepLimit => 5,
    }]
}

/// Every stop reason's name.
const STOPS: [&str; 6] = [
    "arrived",
    "exact",
    "connected",
    "wandered",
    "length_limit",
    "step_limit",
];

/// The directions a tunnel may set off in.
const START_DIRS: [&str; 4] = ["north", "south", "east", "west"];

/// Tunnel flags from the list at option `key` (`{ "direct", "wander" }`); none when absent.
pub fn flags(o: &Opts, key: &str) -> mlua::Result<TunnelFlags> {
    let Some(t) = o.opt_table(key)? else {
        return Ok(TunnelFlags::default());
    };
    let c = o.call();
    let mut names = Vec::new();
    for (i, v) in list(c, &t, format_args!("opts.{key}"))?
        .into_iter()
        .enumerate()
    {
        let v = v?;
        let name = match &v {
            Value::String(s) => s.to_string_lossy(),
            _ => String::new(),
        };
        if !TunnelFlags::NAMES.contains(&name.as_str()) {
            return Err(c.fail(format!(
                "opts.{key}[{}] = {} is not a tunnel flag{} (valid: {})",
                i + 1,
                shown(&v),
                did_you_mean(&name, &TunnelFlags::NAMES),
                quoted(&TunnelFlags::NAMES)
            )));
        }
        names.push(name);
    }
    TunnelFlags::from_names(&names).map_err(|e| c.fail(e))
}

/// What `warren.tunnel.new` takes besides the regions.
const TUNNELS_OPTIONS: Class = Class {
    name: "warren.TunnelsOptions",
    parent: None,
    doc: "Options of `warren.tunnel.new`.",
    fields: &[
        key_opt(
            "panel_width",
            Ty::int(1, 4096),
            "Panel width in cells (default `[dungeon] panel_width`).",
        ),
        key_opt(
            "panel_height",
            Ty::int(1, 4096),
            "Panel height in cells (default `[dungeon] panel_height`).",
        ),
        key_opt(
            "corridor",
            Ty::Str,
            "The level's own corridor region, used for short tunnels and the fix-up's paths (default `[dungeon] corridor`, else the first).",
        ),
        key_opt(
            "depth",
            Ty::int(1, 1000),
            "The level's depth (default `ctx.depth`): on levels at most `[dungeon] wooden_door_depth` deep, regions whose door is not wooden make `[dungeon] wooden_door` doors (unless they keep their doors).",
        ),
    ],
};

/// What `tunnels:dig` takes.
const DIG_OPTIONS: Class = Class {
    name: "warren.DigOptions",
    parent: None,
    doc: "Options of `tunnels:dig`.",
    fields: &[
        key("from", Ty::Cell, "Where the tunnel starts."),
        key("to", Ty::Cell, "Where it heads."),
        key_opt(
            "flags",
            Ty::Strings,
            "Incursion's tunnel flags: `connect`, `direct`, `length`, `notouch`, `exact`, `wander`, `natural`.",
        ),
        key_opt(
            "start_dir",
            Ty::Choice(&START_DIRS),
            "The direction to set off in (default: towards `to`).",
        ),
        key_opt(
            "length",
            Ty::int(1, MAX_CORRIDOR_LENGTH as i64),
            "The length limit of the `length` flag.",
        ),
    ],
};

/// What `tunnels:dig` returns.
const DIG_REPORT: Class = Class {
    name: "warren.DigReport",
    parent: None,
    doc: "What `tunnels:dig` did.",
    fields: &[
        key("x", Ty::INT, "Column where the tunnel ended."),
        key("y", Ty::INT, "Row where it ended."),
        key("stop", Ty::Choice(&STOPS), "Why it stopped."),
        key("style", Ty::Str, "The corridor region it was drawn with."),
        key(
            "carved",
            Ty::Cells,
            "The cells given corridor floor, in order.",
        ),
        key("doors", Ty::Cells, "The doors made, in order."),
        key("steps", Ty::INT, "Steps walked."),
    ],
};

/// What `tunnels:fixup` takes.
const FIXUP_OPTIONS: Class = Class {
    name: "warren.FixupOptions",
    parent: None,
    doc: "Options of `tunnels:fixup`.",
    fields: &[
        key_opt(
            "trials",
            Ty::int(0, 100_000),
            "Trials before giving up with an error naming the seed (default `[dungeon] fixup_trials`).",
        ),
        key_or(
            "connectivity",
            Ty::Choice(&Adjacency::NAMES),
            Default::Str("8"),
            "How a walker moves: the level ends as one area for a walker stepping 8 ways (diagonals included) or 4.",
        ),
        key_opt(
            "bridge",
            Ty::Terrain,
            "Open, safe terrain laid across hazards (chasms, magma) where only they cut the level (usually `[dungeon] bridge`); without it a level only a hazard could join is an error naming the seed.",
        ),
    ],
};

/// One tunnel of a fix-up report.
const FIXUP_STEP: Class = Class {
    name: "warren.FixupStep",
    parent: None,
    doc: "One tunnel `tunnels:fixup` drew, and why.",
    fields: &[
        key("trial", Ty::INT, "The trial (1-based) that drew it."),
        key(
            "from",
            Ty::Cell,
            "The connected cell nearest the cut-off area.",
        ),
        key(
            "to",
            Ty::Cell,
            "The cut-off area's cell nearest the connected area.",
        ),
        key(
            "distance",
            Ty::INT,
            "Chebyshev distance from `from` to `to`.",
        ),
        key(
            "area",
            Ty::AnyTable,
            "The cut-off area: `{x=, y=, size=}` (its first cell and size).",
        ),
        key("why", Ty::Str, "The reason, in words."),
        key(
            "how",
            Ty::Choice(&["tunnel", "path", "already joined"]),
            "How it was joined.",
        ),
        key_opt("style", Ty::Str, "The corridor region of a `tunnel`."),
        key_opt("stop", Ty::Choice(&STOPS), "Why the tunnel stopped."),
        key_opt("carved", Ty::INT, "Cells floored."),
    ],
};

/// What `tunnels:fixup` returns.
const FIXUP_REPORT: Class = Class {
    name: "warren.FixupReport",
    parent: None,
    doc: "What `tunnels:fixup` did.",
    fields: &[
        key(
            "areas_before",
            Ty::INT,
            "Separate open areas before the fix-up.",
        ),
        key("trials", Ty::INT, "Trials used."),
        key(
            "tunnels",
            Ty::TableList(&FIXUP_STEP),
            "Every tunnel drawn, in order.",
        ),
    ],
};

/// The classes of `warren.tunnel` (for the stubs).
pub const CLASSES: &[&Class] = &[
    &TUNNELS_OPTIONS,
    &DIG_OPTIONS,
    &DIG_REPORT,
    &FIXUP_OPTIONS,
    &FIXUP_STEP,
    &FIXUP_REPORT,
];

const MAP: super::decl::Arg = arg("map", Ty::Map);
const RNG: super::decl::Arg = arg("rng", Ty::Rng);
const NEW: Decl = Decl::function(
    Owner::Tunnel,
    "new",
    "One level's tunnel context: the corridor regions (by weight), `[dungeon]`'s corridor constants, the panel size and the door of every corridor and room region, from `regions` (default `ctx.regions`; or a table `{ dungeon =, corridor =, room = }` of views and hand-made entries). Keeps the rooms touched and regions used on the level.",
)
.args(&[
    MAP,
    opt("regions", Ty::Table(&REGIONS)),
    opt("opts", Ty::Table(&TUNNELS_OPTIONS)),
])
.returns(&["warren.Tunnels"]);

functions! {
    /// `warren.tunnel`'s functions.
    pub FUNCTIONS, register {
        NEW => new,
    }
}

const DIG: Decl = Decl::method(
    Owner::Tunnels,
    "dig",
    "Digs one tunnel (Incursion's `Map::Tunnel`) from `opts.from` towards `opts.to`, records it as a corridor and its doors; returns where and why it stopped.",
)
.args(&[MAP, RNG, arg("opts", Ty::Table(&DIG_OPTIONS))])
.returns(&["warren.DigReport"]);
const FIXUP: Decl = Decl::method(
    Owner::Tunnels,
    "fixup",
    "Joins every passable area into one for a walker stepping as `opts.connectivity` says: floods from the first passable cell and tunnels (`connect`, `direct`, `length`) to each area it missed, carving the shortest path (laying `opts.bridge` across hazards) when a tunnel fails, until one area remains; an error naming the seed after `trials` trials. Tags the map's `connectivity`. Returns every tunnel with how and why.",
)
.args(&[MAP, RNG, opt("opts", Ty::Table(&FIXUP_OPTIONS))])
.returns(&["warren.FixupReport"]);

methods! {
    /// A tunnel context's methods.
    pub METHODS, register_methods for LuaTunnels {
        DIG => dig,
        FIXUP => fixup,
    }
}

/// The `warren.tunnel` table.
pub fn table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    register(lua, &t)?;
    Ok(t)
}

type NewArgs = (Value, Value, Value, Extra);

fn new(lua: &Lua, (map, regions, opts, extra): NewArgs) -> mlua::Result<Fresh<TunnelState>> {
    make(&Call::new(lua, &NEW, &extra)?, (map, regions, opts))
}

/// `warren.tunnel.new(map, regions?, opts?)`.
fn make(c: &Call, (map, regions, opts): (Value, Value, Value)) -> mlua::Result<Fresh<TunnelState>> {
    let map = c.data::<LuaMap>(0, &map)?;
    let o = c.options(2, &opts)?;
    let m = LuaMap::read_ud(&map)?;
    if !regions.is_nil() && !matches!(regions, Value::Table(_)) {
        return Err(c.bad(1, &regions));
    }
    let r = regions::tunnel_regions(c, &regions, "argument 2 (regions)", &m)?;
    let (pw, ph) = r.dungeon.panel_size();
    let panel = (
        o.opt_int("panel_width")?.map_or(pw, |v| v as i32),
        o.opt_int("panel_height")?.map_or(ph, |v| v as i32),
    );
    let corridor = o.opt_str("corridor")?;
    let depth = o
        .opt_int("depth")?
        .map_or_else(|| crate::state::run_depth(c.lua()), |d| d as u32);
    let config = tunnel_config(
        &r.dungeon,
        &r.corridors,
        &r.rooms,
        panel,
        corridor.as_deref(),
        depth,
    )
    .map_err(|e| c.fail(e))?;
    config.validate(&m).map_err(|e| c.fail(e))?;
    charge_bytes(
        c.lua(),
        config.styles.len() * 64 + config.doors.by_region.len() * 32,
    )?;
    Ok(Fresh::new(TunnelState {
        config,
        level: TunnelLevel::default(),
        terrains: m.terrains().clone(),
    }))
}

impl UserData for LuaTunnels {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // What `tostring(tunnels)` shows (mlua would name the Rust type, `Shared<TunnelState>`).
        fields.add_meta_field(MetaMethod::Type, Owner::Tunnels.type_name());
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        debug_assert!(
            first_use::meeting::<TunnelState>(),
            "a tunnel context made without `first_use::Fresh`"
        );
        register_methods(methods);
    }
}

/// Tunnel contexts are met on first use (`warren.tunnel.new`).
impl MetOnFirstUse for TunnelState {
    const SLOT: u32 = 1;
    const METHODS: &'static [&'static [&'static Decl]] = &[METHODS];
    const GATES: u64 = gate::TUNNELS_GATES;
}

/// The run's seed, for error messages.
fn run_seed(lua: &Lua) -> String {
    crate::state::with_run(lua, |d| LuaRng::read_ud(&d.rng).ok().map(|r| r.seed()))
        .flatten()
        .map_or_else(|| "unknown".into(), |s| s.to_string())
}

fn dig(
    lua: &Lua,
    this: &LuaTunnels,
    (map, rng, opts): (Value, Value, Value),
) -> mlua::Result<Table> {
    let c = Call::gated(lua, &DIG);
    let map = c.data::<LuaMap>(0, &map)?;
    let rng = c.data::<LuaRng>(1, &rng)?;
    let o = c.options(2, &opts)?;
    let mut t = c.write(this)?;
    let mut m = LuaMap::write_ud(&map)?;
    let from = cell_from(&c, &m, &o.value("from"), "opts.from")?;
    let to = cell_from(&c, &m, &o.value("to"), "opts.to")?;
    let mut req = TunnelRequest::new(from, to, flags(&o, "flags")?);
    if o.has("start_dir") {
        let name = START_DIRS[o.choice("start_dir")?];
        req.start_dir = Dir::from_name(name);
    }
    req.length_limit = o.opt_int("length")?.map(|n| n as u32);
    t.check(&c, &m)?;
    let TunnelState { config, level, .. } = &mut *t;
    let mut r = LuaRng::write_ud(&rng)?;
    let out = tunnel_prechecked(&mut m, config, level, &req, &mut r).map_err(|e| c.fail(e))?;
    let mut meter = LuaMeter::new(lua);
    meter
        .work(u64::from(out.steps) + out.carved.len() as u64)
        .map_err(|_| meter.stopped())?;
    charge_bytes(lua, cost::cells(out.carved.len()) + 64)?;
    let res = lua.create_table()?;
    res.raw_set("x", out.end.x)?;
    res.raw_set("y", out.end.y)?;
    res.raw_set("stop", stop_name(out.stop))?;
    res.raw_set("style", config.styles[out.style].name.as_str())?;
    res.raw_set("carved", point_list(lua, &out.carved)?)?;
    res.raw_set("doors", point_list(lua, &out.doors)?)?;
    res.raw_set("steps", out.steps)?;
    Ok(res)
}

/// `{x=, y=}`.
fn cell_table(lua: &Lua, p: Point) -> mlua::Result<Table> {
    let t = lua.create_table_with_capacity(0, 3)?;
    t.raw_set("x", p.x)?;
    t.raw_set("y", p.y)?;
    Ok(t)
}

fn fixup(
    lua: &Lua,
    this: &LuaTunnels,
    (map, rng, opts): (Value, Value, Value),
) -> mlua::Result<Table> {
    let c = Call::gated(lua, &FIXUP);
    let map = c.data::<LuaMap>(0, &map)?;
    let rng = c.data::<LuaRng>(1, &rng)?;
    let o = c.options(2, &opts)?;
    let trials = match o.opt_int("trials")? {
        Some(n) => n as u32,
        None => regions::dungeon(&c)?.fixup_trials(),
    };
    let adjacency = Adjacency::from_name(Adjacency::NAMES[o.choice("connectivity")?])
        .expect("declared choices are adjacency names");
    let mut t = c.write(this)?;
    let mut meter = LuaMeter::new(lua);
    let result = {
        let mut m = LuaMap::write_ud(&map)?;
        t.check(&c, &m)?;
        let bridge = o.opt_terrain("bridge", &m)?;
        if let Some(id) = bridge {
            let terrain = m.terrains().get(id);
            if terrain.solid || terrain.hazard {
                return Err(c.fail(format!(
                    "opts.bridge = '{}' must be open and no hazard (a walker crosses the hazard on it)",
                    terrain.name
                )));
            }
        }
        let fix = FixupOptions {
            trials,
            adjacency,
            bridge,
        };
        let corridors = m.notes.corridors.len();
        let TunnelState { config, level, .. } = &mut *t;
        let mut r = LuaRng::write_ud(&rng)?;
        let result = fixup_level(&mut m, config, level, &mut r, &fix, &mut meter);
        let added: usize = m.notes.corridors[corridors..]
            .iter()
            .map(cost::corridor)
            .sum();
        charge_bytes(lua, added)?;
        result
    };
    let report = result.map_err(|e| match e {
        FixupError::Connector {
            error: DungeonError::Stopped(_),
            ..
        } => meter.stopped(),
        e => c.fail(format!("seed {}: {e}", run_seed(lua))),
    })?;
    let list = lua.create_table_with_capacity(report.tunnels.len(), 0)?;
    for (i, step) in report.tunnels.iter().enumerate() {
        let e = lua.create_table()?;
        e.raw_set("trial", step.trial)?;
        e.raw_set("from", cell_table(lua, step.from)?)?;
        e.raw_set("to", cell_table(lua, step.to)?)?;
        e.raw_set("distance", step.distance)?;
        let area = cell_table(lua, step.component.representative)?;
        area.raw_set("size", step.component.size)?;
        e.raw_set("area", area)?;
        e.raw_set("why", step.to_string())?;
        match &step.drawn {
            Join::Already => e.raw_set("how", "already joined")?,
            Join::Tunnel {
                style,
                stop,
                carved,
            } => {
                e.raw_set("how", "tunnel")?;
                e.raw_set("style", t.config.styles[*style].name.as_str())?;
                e.raw_set("stop", stop_name(*stop))?;
                e.raw_set("carved", *carved)?;
            }
            Join::Path {
                tunnel_stop,
                carved,
            } => {
                e.raw_set("how", "path")?;
                e.raw_set("stop", stop_name(*tunnel_stop))?;
                e.raw_set("carved", *carved)?;
            }
        }
        list.raw_set(i + 1, e)?;
    }
    crate::state::charge(lua, report.tunnels.len() as u64 * 8)?;
    let out = lua.create_table()?;
    out.raw_set("areas_before", report.components_before)?;
    out.raw_set("trials", report.trials)?;
    out.raw_set("tunnels", list)?;
    Ok(out)
}
