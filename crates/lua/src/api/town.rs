//! `warren.town`: TownMaze (seed 002) as one Lua object with one method per step of the
//! original ([`warren_core::gen::town::Town`]), so a recipe reads like `townmain.c`.
//!
//! ```lua
//! local town = warren.town.new { height = 23, width = 77, gates = 4, leftgates = 2 }
//! town:make_unused(ctx.rng); town:make_gates(ctx.rng); town:make_courts(ctx.rng)
//! town:connect_streets(ctx.rng); town:finish_alleys(ctx.rng)
//! town:close_doors(ctx.rng); town:close_gates(ctx.rng); town:cleanup_map()
//! town:write(map)                                   -- terrains from [town]
//! ```
//!
//! Cells are addressed `x, y`: 0-based cell column and row of the town's cell grid
//! (`town.cols` × `town.rows`); the display grid is `town.width` × `town.height` characters.

use super::call::{Call, Extra};
use super::decl::{arg, key, key_or, opt, Arg, Class, Decl, Default, Owner, Ty};
use super::first_use::{self, Fresh, MetOnFirstUse};
use super::gate;
use super::map::{debug, LuaMap};
use super::meter::LuaMeter;
use super::regions::{self, TOWN_STYLE};
use super::rng::LuaRng;
use super::shared::Shared;
use crate::budget::Reservation;
use crate::state::{charge_bytes_for, release_bytes};
use mlua::{Lua, MetaMethod, Table, UserData, UserDataFields, UserDataMethods, Value};
use warren_core::gen::meter::Meter;
use warren_core::gen::town::params::{MAX_SIDE, MAX_STRAIGHTNESS, MIN_SIDE};
use warren_core::gen::town::{CellStatus, DeadStreets, Heading, Town, TownError, TownParams};
use warren_core::map::Map;
use warren_core::rng::Rng;

/// A town and what it costs.
pub struct TownState {
    town: Town,
    _charge: Reservation,
    /// Made while the recipe loaded, outside any run (see [`crate::state::touch`]).
    at_load: bool,
}

/// A town as a Lua userdata: [`TownState`] in a cell of warren's own.
pub type LuaTown = Shared<TownState>;

impl TownState {
    /// The town, to change it (a town made at load then leaves the state dirty).
    fn town_mut(&mut self, lua: &Lua) -> &mut Town {
        crate::state::touch(lua, self.at_load);
        &mut self.town
    }
}

/// The heading names, in [`Heading::ALL`] order.
const HEADINGS: [&str; 4] = ["north", "east", "south", "west"];

/// Roughly the bytes a town holds: its characters, two sets of status lists, street numbers,
/// directions and which neighbours each cell has.
fn town_bytes(p: &TownParams) -> usize {
    let chars = (p.height.max(0) as usize).saturating_mul(p.width.max(0) as usize);
    chars + (chars / 4) * (2 * (1 + 4 + 4) + 4 + 1 + 1)
}

const P: TownParams = TownParams::DEFAULT;

/// What `warren.town.new` takes: TownMaze's flags.
const TOWN_OPTIONS: Class = Class {
    name: "warren.TownOptions",
    parent: None,
    doc: "Options of `warren.town.new`: TownMaze's flags. The rules between them (odd sizes, counts that fit the size, `leftgates ≤ gates`, at least one gate or courtyard) are checked together, and every broken rule is reported at once.",
    fields: &[
        key_or("height", Ty::INT, Default::Int(P.height), "Height in characters (`-h`); odd, 11..=4095."),
        key_or("width", Ty::INT, Default::Int(P.width), "Width in characters (`-w`); odd, 11..=4095."),
        key_or("gates", Ty::INT, Default::Int(P.gates), "Gates seeded in the town wall (`-g`); at most 2*((height-6)/7) + 2*((width-6)/7)."),
        key_or("leftgates", Ty::INT, Default::Int(P.leftgates), "Gates still open at the end (`-l`); at most `gates`."),
        key_or("courts", Ty::INT, Default::Int(P.courts), "Courtyards seeded inside the town (`-c`); at most ((height-5)/6)*((width-5)/6)."),
        key_or("unused", Ty::INT, Default::Int(P.unused), "Solid blocks inside the town (`-u`); at most ((height-1)/14)*((width-1)/14)."),
        key_or("straightness", Ty::INT, Default::Int(P.straightness), "Chance in 1000 that a street refuses to bend (`-s`); 0..=998."),
    ],
};

/// What `warren.town.capacity` returns.
const TOWN_CAPACITY: Class = Class {
    name: "warren.TownCapacity",
    parent: None,
    doc: "The most gates, courtyards and unused blocks a town of one size accepts.",
    fields: &[
        key("gates", Ty::INT, "Most gates."),
        key("courts", Ty::INT, "Most courtyards."),
        key("unused", Ty::INT, "Most unused blocks."),
    ],
};

/// What `town:write` takes.
const WRITE_TOWN_OPTIONS: Class = Class {
    name: "warren.WriteTownOptions",
    parent: None,
    doc: "Options of `town:write`.",
    fields: &[
        super::decl::key_opt(
            "style",
            Ty::Table(&TOWN_STYLE),
            "The terrains (default `ctx.regions.town`).",
        ),
        key_or(
            "view",
            Ty::Choice(&["map", "debug"]),
            Default::Str("map"),
            "The town, or its debug view (needs `style.debug`).",
        ),
    ],
};

/// What `town:write` returns.
const DRAWN_TOWN: Class = Class {
    name: "warren.DrawnTown",
    parent: None,
    doc: "What `town:write` recorded.",
    fields: &[
        key("rooms", Ty::INT, "Rooms recorded."),
        key("gates", Ty::INT, "Open gates."),
        key(
            "street_cells",
            Ty::INT,
            "Street cells in the street corridor.",
        ),
    ],
};

/// The classes of `warren.town` (for the stubs).
pub const CLASSES: &[&Class] = &[
    &TOWN_OPTIONS,
    &TOWN_CAPACITY,
    &WRITE_TOWN_OPTIONS,
    &DRAWN_TOWN,
    &CONNECT_STREETS_OPTIONS,
];

const M: Owner = Owner::Town;
const T: Owner = Owner::TownMap;
const SIDE: Ty = Ty::int(MIN_SIDE, MAX_SIDE);

const NEW: Decl = Decl::function(
    M,
    "new",
    "Steps 1 and 2: checks every rule of TownMaze's parameters (all broken rules in one error), then makes and fills the town.",
)
.args(&[opt("opts", Ty::Table(&TOWN_OPTIONS))])
.returns(&["warren.Town"]);
const CAPACITY: Decl = Decl::function(
    M,
    "capacity",
    "The most gates, courtyards and unused blocks a town of `width` × `height` characters accepts.",
)
.args(&[arg("width", SIDE), arg("height", SIDE)])
.returns(&["warren.TownCapacity"]);
const MIN_SIDE_FIELD: Decl = Decl::field(
    M,
    "MIN_SIDE",
    &["integer"],
    "Smallest height or width (11).",
);
const MAX_SIDE_FIELD: Decl = Decl::field(
    M,
    "MAX_SIDE",
    &["integer"],
    "Largest height or width (4095).",
);
const MAX_STRAIGHTNESS_FIELD: Decl = Decl::field(
    M,
    "MAX_STRAIGHTNESS",
    &["integer"],
    "Largest straightness (998).",
);

functions! {
    /// `warren.town`'s functions.
    pub FUNCTIONS, register {
        NEW => new,
        CAPACITY => capacity,
    }
}

/// `warren.town`'s constants.
pub const FIELDS: &[&Decl] = &[&MIN_SIDE_FIELD, &MAX_SIDE_FIELD, &MAX_STRAIGHTNESS_FIELD];

/// The `warren.town` table.
pub fn table(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    register(lua, &t)?;
    t.set(MIN_SIDE_FIELD.name, MIN_SIDE)?;
    t.set(MAX_SIDE_FIELD.name, MAX_SIDE)?;
    t.set(MAX_STRAIGHTNESS_FIELD.name, MAX_STRAIGHTNESS)?;
    Ok(t)
}

/// A town step's error: a budget that ran out, or the step's own message.
fn step_error(c: &Call, meter: &mut LuaMeter, e: TownError) -> mlua::Error {
    match e {
        TownError::Stopped(_) => meter.stopped(),
        e => c.fail(e),
    }
}

fn new(lua: &Lua, (opts, extra): (Value, Extra)) -> mlua::Result<Fresh<TownState>> {
    let c = Call::new(lua, &NEW, &extra)?;
    let o = c.options(0, &opts)?;
    let p = TownParams {
        height: o.int("height")?,
        width: o.int("width")?,
        gates: o.int("gates")?,
        leftgates: o.int("leftgates")?,
        courts: o.int("courts")?,
        unused: o.int("unused")?,
        straightness: o.int("straightness")?,
    };
    // Check before charging, so that a huge bad size reports its rule, not the memory limit.
    p.validate()
        .map_err(|e| c.fail(format!("invalid town parameters: {e}")))?;
    let charge = crate::state::reserve(lua, town_bytes(&p), &NEW.call_name())?;
    let mut meter = LuaMeter::new(lua);
    let town = Town::new(&p, &mut meter).map_err(|e| step_error(&c, &mut meter, e))?;
    Ok(Fresh::new(TownState {
        town,
        _charge: charge,
        at_load: !crate::state::in_run(lua),
    }))
}

/// `{ gates =, courts =, unused = }` for a town of `width` × `height`.
fn capacity_table(lua: &Lua, width: i64, height: i64) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("gates", TownParams::max_gates(height, width))?;
    t.raw_set("courts", TownParams::max_courts(height, width))?;
    t.raw_set("unused", TownParams::max_unused(height, width))?;
    Ok(t)
}

fn capacity(lua: &Lua, (width, height, extra): (Value, Value, Extra)) -> mlua::Result<Table> {
    let c = Call::new(lua, &CAPACITY, &extra)?;
    capacity_table(lua, c.int(0, &width)?, c.int(1, &height)?)
}

const RNG: Arg = arg("rng", Ty::Rng);
const X: Arg = arg("x", Ty::int(0, i64::MAX));
const Y: Arg = arg("y", Ty::int(0, i64::MAX));
const HEADING: Arg = opt("heading", Ty::Choice(&HEADINGS));

const HEIGHT: Decl = Decl::field(T, "height", &["integer"], "Height in characters.");
const WIDTH: Decl = Decl::field(T, "width", &["integer"], "Width in characters.");
const ROWS: Decl = Decl::field(T, "rows", &["integer"], "Cell rows (y runs 0..rows-1).");
const COLS: Decl = Decl::field(T, "cols", &["integer"], "Cell columns (x runs 0..cols-1).");

/// A town's fields.
pub const TOWN_FIELDS: &[&Decl] = &[&HEIGHT, &WIDTH, &ROWS, &COLS];

/// A step that takes the rng and returns how many it placed.
const fn seeding(name: &'static str, doc: &'static str) -> Decl {
    Decl::method(T, name, doc)
        .args(&[RNG])
        .returns(&["integer"])
}

const FILL: Decl = Decl::method(
    T,
    "fill",
    "Step 3 (`fillmaze`): a solid block of doorless rooms again, the four corners unused.",
);
const MAKE_UNUSED: Decl = seeding(
    "make_unused",
    "Step 4a: unused blocks inside the town, each in a wide band of isolated rooms; returns how many.",
);
const MAKE_GATES: Decl = seeding(
    "make_gates",
    "Step 4b: gates in the town wall, streets heading inwards; returns how many.",
);
const MAKE_COURTS: Decl = seeding(
    "make_courts",
    "Step 4c: courtyards, streets seeded inside the town; returns how many.",
);
/// What `town:connect_streets` takes.
const CONNECT_STREETS_OPTIONS: Class = Class {
    name: "warren.ConnectStreetsOptions",
    parent: None,
    doc: "Options of `town:connect_streets`.",
    fields: &[key_or(
        "dead_streets",
        Ty::Choice(&DeadStreets::NAMES),
        Default::Str("freely"),
        "The third strategy, streets through rooms that already have a street beside them (which TownMaze warns destroys back-to-back rooms): `freely` as TownMaze, or `sparingly`, one street at a time before going back to the first two.",
    )],
};

const CONNECT_STREETS: Decl = Decl::method(
    T,
    "connect_streets",
    "Step 5: extends the streets until they are all one street.",
)
.args(&[RNG, opt("opts", Ty::Table(&CONNECT_STREETS_OPTIONS))]);
const FINISH_ALLEYS: Decl = Decl::method(
    T,
    "finish_alleys",
    "Step 6: runs alleys until no room is isolated.",
)
.args(&[RNG]);
const CLOSE_DOORS: Decl = Decl::method(
    T,
    "close_doors",
    "Step 7: every room keeps one door, chosen at random.",
)
.args(&[RNG]);
const CLOSE_GATES: Decl = seeding(
    "close_gates",
    "Step 8: walls up gates until `leftgates` remain; returns how many were closed.",
);
const CLEANUP_MAP: Decl = Decl::method(
    T,
    "cleanup_map",
    "Step 9: removes lone pillars standing among streets; returns how many.",
)
.returns(&["integer"]);
const LAY_STREET: Decl = Decl::method(
    T,
    "lay_street",
    "Makes cell (x, y) a street (`makestreet`), joined to a neighbouring street; with no heading the straightness roll may refuse a bend. Returns whether a street was made.",
)
.args(&[RNG, X, Y, HEADING])
.returns(&["boolean"]);
const CELL_STATUS: Decl = Decl::method(
    T,
    "cell_status",
    "Cell (x, y)'s status: `isolated`, `live`, `dead`, `street` or `unused`.",
)
.args(&[X, Y])
.returns(&["string"]);
const STREET_HEADING: Decl = Decl::method(
    T,
    "street_heading",
    "The way the street at (x, y) runs, or nil for other cells.",
)
.args(&[X, Y])
.returns(&["string?"]);
const COUNT: Decl = Decl::method(T, "count", "How many cells have a status.")
    .args(&[arg("status", Ty::Choice(&CellStatus::NAMES))])
    .returns(&["integer"]);
const DISTINCT_STREETS: Decl = Decl::method(
    T,
    "distinct_streets",
    "How many separate streets there are.",
)
.returns(&["integer"]);
const RENDER: Decl =
    Decl::method(T, "render", "The town as TownMaze printed it (`showmaze`).").returns(&["string"]);
const RENDER_DEBUG: Decl = Decl::method(
    T,
    "render_debug",
    "The debug view (`showdebugmaze`): each cell's status letter or street direction.",
)
.returns(&["string"]);
const WRITE: Decl = Decl::method(
    T,
    "write",
    "Step 10: draws the town at the map's top-left corner (with force) and records its rooms, doors, gates and streets.",
)
.args(&[arg("map", Ty::Map), opt("opts", Ty::Table(&WRITE_TOWN_OPTIONS))])
.returns(&["warren.DrawnTown"]);

const SNAPSHOT: Decl = Decl::method(
    T,
    "snapshot",
    "Records the town as it is now, drawn as `town:write` would draw it onto a copy of the map, as a `map:snapshot` step (`warren run --frames DIR`, the steps of `warren serve`). The map itself is not touched; free when snapshots are not kept.",
)
.args(&[
    arg("map", Ty::Map),
    arg("label", Ty::Str),
    opt("opts", Ty::Table(&WRITE_TOWN_OPTIONS)),
]);

methods! {
    /// A town's methods.
    pub METHODS, register_methods for LuaTown {
        FILL => fill,
        MAKE_UNUSED => make_unused,
        MAKE_GATES => make_gates,
        MAKE_COURTS => make_courts,
        CONNECT_STREETS => connect_streets,
        FINISH_ALLEYS => finish_alleys,
        CLOSE_DOORS => close_doors,
        CLOSE_GATES => close_gates,
        CLEANUP_MAP => cleanup_map,
        LAY_STREET => lay_street,
        CELL_STATUS => cell_status,
        STREET_HEADING => street_heading,
        COUNT => count,
        DISTINCT_STREETS => distinct_streets,
        RENDER => render,
        RENDER_DEBUG => render_debug,
        WRITE => write,
        SNAPSHOT => snapshot,
    }
}

impl UserData for LuaTown {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // What `tostring(town)` shows (mlua would name the Rust type, `Shared<TownState>`).
        fields.add_meta_field(MetaMethod::Type, Owner::TownMap.type_name());
        fields.add_field_method_get(HEIGHT.name, |_, t| Ok(t.read_or_busy()?.town.height()));
        fields.add_field_method_get(WIDTH.name, |_, t| Ok(t.read_or_busy()?.town.width()));
        fields.add_field_method_get(ROWS.name, |_, t| Ok(t.read_or_busy()?.town.rows()));
        fields.add_field_method_get(COLS.name, |_, t| Ok(t.read_or_busy()?.town.cols()));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        debug_assert!(
            first_use::meeting::<TownState>(),
            "a town made without `first_use::Fresh`"
        );
        register_methods(methods);
    }
}

/// Towns are met on first use (`warren.town.new`).
impl MetOnFirstUse for TownState {
    const SLOT: u32 = 2;
    const METHODS: &'static [&'static [&'static Decl]] = &[METHODS];
    const GATES: u64 = gate::TOWN_GATES;
}

/// Runs step `f` of the town `this` with the rng of argument 1, metered.
fn with_rng<R>(
    c: &Call,
    this: &LuaTown,
    rng: &Value,
    f: impl FnOnce(&mut Town, &mut Rng, &mut dyn Meter) -> Result<R, TownError>,
) -> mlua::Result<R> {
    let rng = c.data::<LuaRng>(0, rng)?;
    let mut t = c.write(this)?;
    let mut r = LuaRng::write_ud(&rng)?;
    let mut meter = LuaMeter::new(c.lua());
    f(t.town_mut(c.lua()), &mut r, &mut meter).map_err(|e| step_error(c, &mut meter, e))
}

fn fill(lua: &Lua, this: &LuaTown, (): ()) -> mlua::Result<()> {
    let c = Call::gated(lua, &FILL);
    let mut t = c.write(this)?;
    let mut meter = LuaMeter::new(lua);
    t.town_mut(lua)
        .fill(&mut meter)
        .map_err(|_| meter.stopped())
}

fn make_unused(lua: &Lua, this: &LuaTown, rng: Value) -> mlua::Result<usize> {
    let c = Call::gated(lua, &MAKE_UNUSED);
    with_rng(&c, this, &rng, |t, r, m| Ok(t.make_unused(r, m)?))
}

fn make_gates(lua: &Lua, this: &LuaTown, rng: Value) -> mlua::Result<usize> {
    let c = Call::gated(lua, &MAKE_GATES);
    with_rng(&c, this, &rng, |t, r, m| Ok(t.make_gates(r, m)?))
}

fn make_courts(lua: &Lua, this: &LuaTown, rng: Value) -> mlua::Result<usize> {
    let c = Call::gated(lua, &MAKE_COURTS);
    with_rng(&c, this, &rng, |t, r, m| Ok(t.make_courts(r, m)?))
}

fn connect_streets(lua: &Lua, this: &LuaTown, (rng, opts): (Value, Value)) -> mlua::Result<()> {
    let c = Call::gated(lua, &CONNECT_STREETS);
    let o = c.options(1, &opts)?;
    let dead = DeadStreets::from_name(DeadStreets::NAMES[o.choice("dead_streets")?])
        .expect("declared choices are policy names");
    with_rng(&c, this, &rng, |t, r, m| t.connect_streets_with(r, dead, m))
}

fn finish_alleys(lua: &Lua, this: &LuaTown, rng: Value) -> mlua::Result<()> {
    let c = Call::gated(lua, &FINISH_ALLEYS);
    with_rng(&c, this, &rng, |t, r, m| t.finish_alleys(r, m))
}

fn close_doors(lua: &Lua, this: &LuaTown, rng: Value) -> mlua::Result<()> {
    let c = Call::gated(lua, &CLOSE_DOORS);
    with_rng(&c, this, &rng, |t, r, m| Ok(t.close_doors(r, m)?))
}

fn close_gates(lua: &Lua, this: &LuaTown, rng: Value) -> mlua::Result<usize> {
    let c = Call::gated(lua, &CLOSE_GATES);
    with_rng(&c, this, &rng, |t, r, m| Ok(t.close_gates(r, m)?))
}

fn cleanup_map(lua: &Lua, this: &LuaTown, (): ()) -> mlua::Result<usize> {
    let c = Call::gated(lua, &CLEANUP_MAP);
    let mut t = c.write(this)?;
    let mut meter = LuaMeter::new(lua);
    t.town_mut(lua)
        .cleanup_map(&mut meter)
        .map_err(|_| meter.stopped())
}

/// Cell (x, y) of the town, as (row, col); an error naming the grid when it is off it.
fn cell(
    c: &Call,
    town: &Town,
    (xi, x): (usize, &Value),
    y: &Value,
) -> mlua::Result<(usize, usize)> {
    let (x, y) = (c.int(xi, x)?, c.int(xi + 1, y)?);
    let (cols, rows) = (town.cols() as i64, town.rows() as i64);
    if x >= cols || y >= rows {
        return Err(c.fail(format!(
            "cell ({x}, {y}) is outside the town's {cols}×{rows} cells (x 0..={}, y 0..={})",
            cols - 1,
            rows - 1
        )));
    }
    Ok((y as usize, x as usize))
}

/// The optional heading of argument `i`.
fn heading_arg(c: &Call, i: usize, v: &Value) -> mlua::Result<Option<Heading>> {
    match v {
        Value::Nil => Ok(None),
        v => Ok(Some(Heading::ALL[c.choice(i, v)?])),
    }
}

type StreetArgs = (Value, Value, Value, Value);

fn lay_street(lua: &Lua, this: &LuaTown, (rng, x, y, heading): StreetArgs) -> mlua::Result<bool> {
    let c = Call::gated(lua, &LAY_STREET);
    let rng = c.data::<LuaRng>(0, &rng)?;
    let heading = heading_arg(&c, 3, &heading)?;
    let mut t = c.write(this)?;
    let (row, col) = cell(&c, &t.town, (1, &x), &y)?;
    let mut r = LuaRng::write_ud(&rng)?;
    t.town_mut(lua)
        .make_street(&mut r, row, col, heading)
        .map_err(|e| match e {
            TownError::NotARoom { status, .. } => c.fail(format!(
                "cell ({col}, {row}) is {}: only isolated, live or dead cells can become streets",
                CellStatus::NAMES[status.index()]
            )),
            e => c.fail(e),
        })
}

type CellArgs = (Value, Value);

fn cell_status(lua: &Lua, this: &LuaTown, (x, y): CellArgs) -> mlua::Result<&'static str> {
    let c = Call::gated(lua, &CELL_STATUS);
    let t = c.read(this)?;
    let (row, col) = cell(&c, &t.town, (0, &x), &y)?;
    let s = t.town.status(row, col).map_err(|e| c.fail(e))?;
    Ok(CellStatus::NAMES[s.index()])
}

fn street_heading(
    lua: &Lua,
    this: &LuaTown,
    (x, y): CellArgs,
) -> mlua::Result<Option<&'static str>> {
    let c = Call::gated(lua, &STREET_HEADING);
    let t = c.read(this)?;
    let (row, col) = cell(&c, &t.town, (0, &x), &y)?;
    let h = t.town.heading(row, col).map_err(|e| c.fail(e))?;
    Ok(h.map(|h| HEADINGS[h as usize]))
}

fn count(lua: &Lua, this: &LuaTown, status: Value) -> mlua::Result<usize> {
    let c = Call::gated(lua, &COUNT);
    let i = c.choice(0, &status)?;
    let t = c.read(this)?;
    let status = CellStatus::from_index(i).unwrap_or(CellStatus::Unused);
    Ok(t.town.count(status))
}

fn distinct_streets(lua: &Lua, this: &LuaTown, (): ()) -> mlua::Result<usize> {
    let c = Call::gated(lua, &DISTINCT_STREETS);
    Ok(c.read(this)?.town.distinct_streets())
}

fn render(lua: &Lua, this: &LuaTown, (): ()) -> mlua::Result<String> {
    let c = Call::gated(lua, &RENDER);
    let t = c.read(this)?;
    crate::state::charge(lua, super::cost::cell_work(t.town.lists().len() as u64 * 4))?;
    Ok(t.town.render())
}

fn render_debug(lua: &Lua, this: &LuaTown, (): ()) -> mlua::Result<String> {
    let c = Call::gated(lua, &RENDER_DEBUG);
    let t = c.read(this)?;
    crate::state::charge(lua, super::cost::cell_work(t.town.lists().len() as u64 * 4))?;
    Ok(t.town.render_debug())
}

/// `town:write(map, { style = ctx.regions.town, view = "map" | "debug" })`.
fn write(lua: &Lua, this: &LuaTown, (map, opts): (Value, Value)) -> mlua::Result<Table> {
    let c = Call::gated(lua, &WRITE);
    let map = c.data::<LuaMap>(0, &map)?;
    let o = c.options(1, &opts)?;
    let t = c.read(this)?;
    let mut m = LuaMap::write_ud(&map)?;
    let drawn = draw(&c, &o, &t.town, &mut m)?;
    let out = lua.create_table()?;
    out.raw_set("rooms", drawn.rooms)?;
    out.raw_set("gates", drawn.gates)?;
    out.raw_set("street_cells", drawn.street_cells)?;
    Ok(out)
}

/// `town:snapshot(map, label, { style, view })`: `town:write` onto a copy of the map, kept as
/// a snapshot; only the arguments' kinds are checked while snapshots are not kept.
fn snapshot(
    lua: &Lua,
    this: &LuaTown,
    (map, label, opts): (Value, Value, Value),
) -> mlua::Result<()> {
    let c = Call::gated(lua, &SNAPSHOT);
    let map = c.data::<LuaMap>(0, &map)?;
    let Value::String(label) = label else {
        return Err(c.bad(1, &label));
    };
    if !debug::recording(lua) {
        // Called at every step of every town: while snapshots are not kept, only the kinds
        // of the arguments are checked (reading the options costs more than the rest).
        return match opts {
            Value::Nil | Value::Table(_) => Ok(()),
            other => Err(c.bad(2, &other)),
        };
    }
    let label = label.to_string_lossy();
    let o = c.options(2, &opts)?;
    let t = c.read(this)?;
    let mut m = LuaMap::write_ud(&map)?;
    let (width, height) = (m.width(), m.height());
    if debug::streaming(lua) {
        // The drawn copy is held while the sink writes it, then dropped.
        let bytes = Map::bytes_for(width.into(), height.into());
        charge_bytes_for(lua, bytes, &c.decl().call_name())?;
        let mut copy = debug::copy_without_layers(&mut m);
        let streamed = draw(&c, &o, &t.town, &mut copy)
            .and_then(|_| debug::stream(&c, &label, &copy).map(drop));
        drop(copy);
        release_bytes(lua, bytes);
        return streamed;
    }
    debug::record(&c, width, height, label, || {
        let mut copy = debug::copy_without_layers(&mut m);
        draw(&c, &o, &t.town, &mut copy)?;
        Ok(copy)
    })
}

/// Draws `town` onto `m` with the style and view the options of `write` or `snapshot` name.
fn draw(
    c: &Call,
    o: &super::call::Opts<'_, '_>,
    town: &Town,
    m: &mut warren_core::map::Map,
) -> mlua::Result<warren_core::gen::town::Drawn> {
    let debug = o.choice("view")? == 1;
    let style = match &o.value("style") {
        Value::Nil => {
            let reg = regions::registry(c)?;
            match reg.resolved.town {
                Some(style) if std::sync::Arc::ptr_eq(reg.terrains(), m.terrains()) => style,
                _ => {
                    return Err(c.fail(
                        "no [town] section in the region files; add one, or pass opts.style",
                    ))
                }
            }
        }
        v => regions::town(c, v, "opts.style", m)?,
    };
    let debug = match (debug, style.debug) {
        (false, _) => None,
        (true, Some(d)) => Some(d),
        (true, None) => {
            return Err(c.fail(
                "view 'debug' needs style.debug (a [town.debug] section in the region files)",
            ))
        }
    };
    let mut meter = LuaMeter::new(c.lua());
    town.draw(m, &style.terrains, debug.as_ref(), &mut meter)
        .map_err(|e| match e {
            TownError::Map(e) => c.fail(format!(
                "the {}×{} town does not fit the map: {e}",
                town.width(),
                town.height()
            )),
            e => step_error(c, &mut meter, e),
        })
}
