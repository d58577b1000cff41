//! The `warren` Lua module: every function, method and field a recipe can call, each declared
//! once ([`decl`]) beside its implementation and registered from the same table (the
//! `methods!` and `functions!` macros below), so the runtime checks, the stubs, `warren check`
//! and the API reference all come from one declaration.
//!
//! # Floor plan
//!
//! The files of `api/` stand on four floors. A file may use files on its own floor and on the
//! floors below it, never a floor above, and no files may use each other in a circle; a folder
//! (`map/`, `dungeon/`, `rng/`) is one entry of its floor, its `mod.rs` assembles its children
//! and no child uses its `mod.rs`. `tests/cli/architecture.rs` reads this table and checks both
//! rules on every file.
//!
//! | floor | files | what they hold |
//! |---|---|---|
//! | 1 | `mod.rs` | the assembly: the `warren` table ([`module`]), the types every recipe meets, registered as each state is made ([`register_types`]), and every declaration and class ([`decls`], [`classes()`]) |
//! | 2 | `gen`, `dungeon/`, `tunnel`, `town`, `status`, `toolbox/`, `ctx`, `regions`, `log` | the Lua-visible modules: `warren.gen`, `warren.dungeon`, `warren.tunnel`, `warren.town`, `warren.status_lists`, `warren.toolbox`, `ctx`, `ctx.regions`, `print`; each with the objects only it makes (a level, a tunnel context, a town, status lists, a field) |
//! | 3 | `map/`, `rng/`, `rect`, `rects/` | the objects every module passes around, with their methods and, for the per-cell and per-draw ones, their fast paths |
//! | 4 | `call`, `decl`, `shapes`, `classes`, `gate`, `first_use`, `fast/`, `shared`, `pool`, `index`, `keys`, `meter`, `cost`, `terrain_names` | the calling layer: declarations, argument checks and messages, shapes and option classes several bindings share, gates, types met on first use, the fast calls' machinery, value cells, reused userdata, budget charges |
//!
//! # Where a new binding goes
//!
//! - **A function of a module** (`warren.gen.caves`): in that module's file (for `warren.dungeon`,
//!   its declaration in `dungeon/decls.rs` and its body in `dungeon/functions.rs`). Declare a
//!   [`decl::Decl`] beside the function, add the pair to the module's `functions!` table and
//!   its option classes to the module's `CLASSES`; stubs, `warren check` and the API table pick
//!   it up from there.
//! - **A new module** (`warren.noise`): a new file on floor 2, listed in the table above; set its
//!   table in [`module`] and add its declarations to [`decls`] and its classes to [`classes()`].
//!   It converts arguments only: the work is a function of `warren_core`.
//! - **A method of an object**: in the object's file; for the map, in the `map/` child that owns
//!   that kind of method (or a new child, its list appended to `map::METHOD_LISTS`: the gates
//!   are numbered in that order). A method called once per cell may get a fast path beside its
//!   binding (`map/fast.rs`, `rng/fast.rs`) when `cargo bench --bench calls` shows the difference.
//! - **A new object type**: on floor 3 when several modules pass it around, else in the module
//!   that makes it; give it an [`decl::Owner`] (its `__name`), a range of gate ids
//!   ([`gate`]), and either a slot of its own as a type met on first use (implement
//!   [`first_use::MetOnFirstUse`] and return its values as [`first_use::Fresh`]) or, for a
//!   type every recipe meets, one sample in [`register_types`].
//! - **A shape or options table several bindings share** (a cell list, write options): floor 4,
//!   `shapes` or `classes`. Nothing on floor 4 names an object: a rectangle list is read in
//!   `rects`, a map's cells in `map/`.

/// Declares a type's methods once: `DECL => function` pairs become the list of declarations
/// (`$list`, read by stubs, `warren check` and the API reference) and the function that
/// registers the methods on the userdata type; [`gate::install`] then puts each behind its gate.
macro_rules! methods {
    ($(#[$doc:meta])* $vis:vis $list:ident, $register:ident for $ty:ty { $($decl:ident => $f:expr),* $(,)? }) => {
        $(#[$doc])*
        $vis const $list: &[&$crate::api::decl::Decl] = &[$(&$decl),*];

        /// Registers every method of the list as a plain mlua method, to sit behind a gate
        /// ([`crate::api::gate`]) that checks its receiver and number of arguments first.
        $vis fn $register<M: mlua::UserDataMethods<$ty>>(methods: &mut M) {
            $(methods.add_method($decl.name, $f);)*
        }
    };
}

/// Declares a module table's functions once: `DECL => function` pairs become the list of
/// declarations and the function that adds them to the table.
macro_rules! functions {
    ($(#[$doc:meta])* $vis:vis $list:ident, $register:ident { $($decl:ident => $f:expr),* $(,)? }) => {
        $(#[$doc])*
        $vis const $list: &[&$crate::api::decl::Decl] = &[$(&$decl),*];

        /// Adds every function of the list to `table`.
        $vis fn $register(lua: &mlua::Lua, table: &mlua::Table) -> mlua::Result<()> {
            let functions = [$(($decl.name, lua.create_function($f)?)),*];
            functions
                .into_iter()
                .try_for_each(|(name, function)| table.raw_set(name, function))
        }
    };
}

// Floor 2: the Lua-visible modules.
pub mod ctx;
pub mod dungeon;
pub mod gen;
pub mod log;
pub mod regions;
pub mod status;
pub mod toolbox;
pub mod town;
pub mod tunnel;

// Floor 3: the objects.
pub mod map;
pub mod rect;
pub mod rects;
pub mod rng;

// Floor 4: the calling layer.
pub mod call;
pub mod classes;
pub mod cost;
pub mod decl;
pub mod fast;
pub mod first_use;
pub mod gate;
pub mod index;
pub mod keys;
pub mod meter;
pub mod pool;
pub mod shapes;
pub mod shared;
// reached by the crate's tests (tests/lua/), not API
#[doc(hidden)]
pub mod terrain_names;

use decl::{Class, Decl, Owner};
use mlua::{Lua, Table};
use warren_core::map::priority;

/// One step of [`install`]: adds a part of the API to a fresh state, setting what the prelude
/// reads in its `host` table.
type Setup = fn(&Lua, &Table) -> mlua::Result<()>;

/// The steps of [`install`], in order: the objects they make take their ids in this order, so
/// a new step goes last.
const SETUP: &[Setup] = &[state_data, log::install, rng::random::install, warren];

/// Installs warren's API in a fresh sandboxed state (`sandbox::new_state` calls it with the
/// prelude's `host` table before any script runs): the bindings' per-state data, output
/// (`print`, `io.write`), `math.random`, and the `warren` module with its object types.
pub fn install(lua: &Lua, host: &Table) -> mlua::Result<()> {
    SETUP.iter().try_for_each(|setup| setup(lua, host))
}

/// The bindings' per-state data: the pools of reused userdata and the interned keys.
fn state_data(lua: &Lua, _: &Table) -> mlua::Result<()> {
    pool::install(lua);
    lua.set_app_data(keys::Keys::new(lua)?);
    Ok(())
}

/// The `warren` module (`host.warren`), the rectangles' fast indexes and every object type.
fn warren(lua: &Lua, host: &Table) -> mlua::Result<()> {
    let warren = module(lua)?;
    host.set("warren", &warren)?;
    install_indexes(lua)?;
    register_types(lua)
}

/// Gives the rectangle-list userdata their fast `__index` (see [`index`]) and makes the shared
/// rectangle metatable. Called once per state, before any script runs.
pub fn install_indexes(lua: &Lua) -> mlua::Result<()> {
    rects::install_items(lua)?;
    rect::install(lua)
}

/// Makes one value of each userdata type every recipe meets (maps, rngs), so that mlua sets up
/// each type's metatable now: set up during a run, those objects would take ids, and that run
/// would number its own objects differently from the same run in a state that had already met
/// the type. Puts each type's methods behind their gates ([`gate`]). The types only some
/// recipes make are met on first use ([`first_use`]).
pub fn register_types(lua: &Lua) -> mlua::Result<()> {
    use warren_core::map::{Map, TerrainTable};
    let terrains = std::sync::Arc::new(TerrainTable::plain(&[("rock", '#', true)]));
    let sample = Map::new(1, 1, 0, terrains).map_err(mlua::Error::external)?;
    let map = map::new_userdata(lua, sample)?;
    gate::install(lua, &map, &map::METHOD_LISTS, gate::MAP_GATES)?;
    let l = lua.exec_raw_lua(|raw| raw.state());
    // SAFETY: `l` is the state's thread; only its id counter moves.
    unsafe { crate::state::skip_ids(l, LEVEL_AND_TUNNELS_IDS) };
    let rng = lua.create_userdata(rng::LuaRng::new(warren_core::rng::Rng::new(0)))?;
    gate::install(lua, &rng, &[rng::METHODS], gate::RNG_GATES)?;
    // SAFETY: as above.
    unsafe { crate::state::skip_ids(l, TOWN_LISTS_AND_FIELD_IDS) };
    Ok(())
}

/// The ids registering levels and tunnel contexts took here, before rngs, when every type was
/// registered while the state was made: skipped in their place, so that every object made
/// after keeps the id it had then (and with it the order of tables a recipe keys by objects).
const LEVEL_AND_TUNNELS_IDS: u64 = 16;

/// The same for towns, status lists and fields, after rngs: 104 ids (with the values made to
/// meet them and the chunk that made the town and the lists), less one, the error object mlua
/// keeps for a first level of Rust callbacks called from Lua (that chunk made it; the error
/// pool's warm-up makes it now).
const TOWN_LISTS_AND_FIELD_IDS: u64 = 103;

const VERSION: Decl = Decl::field(Owner::Warren, "version", &["string"], "warren's version.");
const PRIO: Decl = Decl::field(
    Owner::Warren,
    "prio",
    &["warren.Prio"],
    "Incursion's write priorities by name (`warren.prio.ROOM_FLOOR`).",
);
const GEN: Decl = Decl::field(
    Owner::Warren,
    "gen",
    &["warren.gen"],
    "Whole generation phases implemented in Rust.",
);
const TOWN: Decl = Decl::field(
    Owner::Warren,
    "town",
    &["warren.town"],
    "TownMaze as phases (seed 002).",
);
const TUNNEL: Decl = Decl::field(
    Owner::Warren,
    "tunnel",
    &["warren.tunnel"],
    "Incursion's tunnel (seed 000) and fix-up.",
);
const TOOLBOX: Decl = Decl::field(
    Owner::Warren,
    "toolbox",
    &["warren.toolbox"],
    "The designer's toolbox: fields, paths, cellular automata, drunkard's walks, BSP, mazes, diffusion-limited aggregation, Voronoi regions, Brogue's loops and lakes.",
);
const DUNGEON: Decl = Decl::field(
    Owner::Warren,
    "dungeon",
    &["warren.dungeon"],
    "Incursion's level phases (seed 003).",
);

/// The `warren` module's own members.
const WARREN: &[&Decl] = &[
    &VERSION,
    &PRIO,
    &GEN,
    &TOWN,
    &TUNNEL,
    &DUNGEON,
    &TOOLBOX,
    &rect::RECT,
    &status::STATUS_LISTS,
];

/// Every declaration of the Lua API, owner by owner.
pub fn decls() -> Vec<&'static Decl> {
    [
        map::decls().as_slice(),
        rng::METHODS,
        rect::FIELDS,
        rect::METHODS,
        rects::METHODS,
        ctx::DECLS,
        WARREN,
        gen::DECLS,
        tunnel::FUNCTIONS,
        tunnel::METHODS,
        dungeon::FUNCTIONS,
        dungeon::METHODS,
        town::FUNCTIONS,
        town::FIELDS,
        town::TOWN_FIELDS,
        town::METHODS,
        status::METHODS,
        toolbox::functions().as_slice(),
        toolbox::field::METHODS,
    ]
    .concat()
}

/// Every table class the declarations name.
pub fn classes() -> Vec<&'static Class> {
    let mut out: Vec<&'static Class> = vec![
        &classes::RECT_LIKE,
        &classes::CELL,
        &classes::WRITE_OPTIONS,
        &classes::PATH_OPTIONS,
        &classes::DOGLEG_OPTIONS,
        &classes::CARVE_OPTIONS,
        &classes::BLIT_OPTIONS,
        &classes::LAYER_SPEC,
        &classes::ROOM_RECORD,
        &classes::COMPONENT,
        &classes::CONNECTIVITY_OPTIONS,
        &classes::PARAM,
        &classes::RECIPE,
    ];
    out.extend(gen::CLASSES);
    out.extend(tunnel::CLASSES);
    out.extend(dungeon::CLASSES);
    out.extend(town::CLASSES);
    out.push(&status::STATUS_LISTS_OPTIONS);
    out.extend(toolbox::classes());
    out
}

/// The classes of `ctx.regions` and its entries (records with more keys than an options
/// table; see [`regions`]).
pub fn region_classes() -> &'static [&'static Class] {
    regions::CLASSES
}

/// Builds the `warren` module table (the prelude freezes it).
pub fn module(lua: &Lua) -> mlua::Result<Table> {
    let w = lua.create_table()?;
    w.set(VERSION.name, env!("CARGO_PKG_VERSION"))?;
    let prio = lua.create_table()?;
    for (name, value) in priority::NAMED {
        prio.set(name, value)?;
    }
    w.set(PRIO.name, prio)?;
    w.set(GEN.name, gen::table(lua)?)?;
    w.set(TOWN.name, town::table(lua)?)?;
    w.set(status::STATUS_LISTS.name, status::constructor(lua)?)?;
    w.set(TUNNEL.name, tunnel::table(lua)?)?;
    w.set(DUNGEON.name, dungeon::table(lua)?)?;
    w.set(TOOLBOX.name, toolbox::table(lua)?)?;
    w.set(rect::RECT.name, lua.create_function(rect::rect)?)?;
    // A Rust panic on demand, to test that panics become internal errors that scripts cannot
    // catch. Debug builds only: release builds have no way to make warren panic on purpose.
    #[cfg(debug_assertions)]
    w.set(
        "debug_panic",
        lua.create_function(|_, msg: String| -> mlua::Result<()> { panic!("{msg}") })?,
    )?;
    Ok(w)
}
