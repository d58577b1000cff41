//! The fixed costs of the Lua host, against plain mlua in one run: entering a recipe, Lua→Rust
//! method calls (two with a fast path, `map:priority` and `rng:int`, one without,
//! `rng:seed`, an mlua method behind its gate, and `rect:center` on a `warren.rect` table),
//! writing one cell (`map:set` without options, with one options table, with a new
//! `{ force = true }` per call; plain mlua: a method reading `force` from the table),
//! `math.random` (against stock Lua's own), and reading a map field (`map.width`) against a
//! plain table field. And what the map's fast calls save: `map:priority`, `map:get` and
//! `map:set` on the run's map (their fast calls) against the same calls on `ctx.above` (their
//! declared bindings, behind their gates).
//!
//! ```text
//! cargo bench --bench calls
//! ```
//!
//! Each figure comes from a recipe (`benches/calls/calls.lua`) that repeats one operation `n`
//! times inside `generate`; the same loop with an empty body is subtracted, so a figure is the
//! operation alone. Plain mlua is a state made with `Lua::new()` holding userdata with the same
//! methods (`priority(x, y)` reading a byte of a grid; `int` and `seed` on warren's generator),
//! registered with `add_method`/`add_method_mut`, and a table `{x, y, w, h}` whose metatable's
//! `center` is an mlua function reading the four fields. Rounds
//! alternate (warren, plain, warren, …) so a busy neighbour slows both alike; medians are
//! printed.

use mlua::{Lua, UserData, UserDataMethods};
use std::time::Instant;
use warren_lua::{Host, ParamValues, Run};

mod common;
use common::median;

// The allocator under the warren binary's memory account (`Classes`: mimalloc, blocks taken
// from their size class), without the account; benches/peers.rs says how the binary's whole
// allocator measured beside plain mimalloc.
#[global_allocator]
static ALLOCATOR: warren::memory::Classes = warren::memory::Classes;

/// Operations per timed generation, maps per round for the entering figure, and rounds.
const N: i64 = 20_000;
const MAPS: u64 = 20_000;
const ROUNDS: usize = 9;

/// The calls recipe on one reused Lua state, and a map to pass as the level above.
struct Warren {
    host: Host,
    above: warren_core::map::Map,
}

impl Warren {
    fn new() -> Warren {
        let host = common::host("benches/calls/calls.lua");
        let params = match host.resolve_params(&[]) {
            Ok(p) => p,
            Err(e) => panic!("calls.lua params: {e}"),
        };
        let run = Run {
            seed: 0,
            params: &params,
            depth: 1,
            above: None,
        };
        let above = match host.generate(&run) {
            Ok(map) => map,
            Err(e) => panic!("calls.lua: {e}"),
        };
        Warren { host, above }
    }

    fn params(&self, mode: &str, n: i64) -> ParamValues {
        let (mode, on) = match mode.strip_suffix("_above") {
            Some(mode) => (mode, "above"),
            None => (mode, "map"),
        };
        let sets = [
            ("mode".to_string(), mode.to_string()),
            ("n".to_string(), n.to_string()),
            ("on".to_string(), on.to_string()),
        ];
        match self.host.resolve_params(&sets) {
            Ok(p) => p,
            Err(e) => panic!("calls.lua params: {e}"),
        }
    }

    /// Seconds for `maps` generations of `mode` with `n` repetitions each (a mode ending in
    /// `_above` calls the map methods on `ctx.above`).
    fn time(&self, mode: &str, n: i64, maps: u64) -> f64 {
        let params = self.params(mode, n);
        let above = mode.ends_with("_above").then_some(&self.above);
        let started = Instant::now();
        for seed in 0..maps {
            let run = Run {
                seed,
                params: &params,
                depth: 1,
                above,
            };
            match self.host.generate(&run) {
                Ok(map) => self.host.recycle(map),
                Err(e) => panic!("calls.lua {mode}: {e}"),
            }
        }
        started.elapsed().as_secs_f64()
    }

    /// Nanoseconds per operation of `mode`, the empty loop subtracted.
    fn per_op(&self, mode: &str) -> f64 {
        let op = self.time(mode, N, 5);
        let loop_ = if mode.ends_with("_above") {
            "loop_above"
        } else {
            "loop"
        };
        let empty = self.time(loop_, N, 5);
        (op - empty) / (5 * N) as f64 * 1e9
    }
}

/// A grid of priorities, as plain mlua code would expose one.
struct Grid {
    width: i64,
    cells: Vec<u8>,
}

impl UserData for Grid {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("priority", |_, g, (x, y): (i64, i64)| {
            Ok(g.cells[(y * g.width + x) as usize])
        });
        // A write by terrain name, honouring `force` on the edge (row 0), as map:set does.
        methods.add_method_mut(
            "set",
            |_, g, (x, y, t, opts): (i64, i64, mlua::String, Option<mlua::Table>)| {
                let force = match opts {
                    Some(o) => o.get::<Option<bool>>("force")?.unwrap_or(false),
                    None => false,
                };
                let terrain = match &*t.as_bytes() {
                    b"floor" => 1,
                    b"rock wall" => 2,
                    _ => return Err(mlua::Error::runtime("unknown terrain")),
                };
                if y == 0 && !force {
                    return Ok(false);
                }
                g.cells[(y * g.width + x) as usize] = terrain;
                Ok(true)
            },
        );
    }
}

/// A seeded generator, as plain mlua code would expose one.
struct PlainRng(warren_core::rng::Rng);

impl UserData for PlainRng {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method_mut("int", |_, r, (lo, hi): (i64, i64)| Ok(r.0.range(lo, hi)));
        methods.add_method("seed", |_, r, ()| Ok(r.0.seed() as i64));
    }
}

/// A plain mlua state with a grid `g`, a generator `r` and the same loops as calls.lua.
struct Plain {
    lua: Lua,
}

impl Plain {
    fn new() -> Plain {
        let lua = Lua::new();
        let grid = Grid {
            width: 80,
            cells: vec![0; 80 * 50],
        };
        let setup = || -> mlua::Result<()> {
            lua.globals().set("g", grid)?;
            lua.globals()
                .set("r", PlainRng(warren_core::rng::Rng::new(1).stream("bench")))?;
            let center = lua.create_function(|_, t: mlua::Table| {
                let (x, y, w, h): (i32, i32, i32, i32) =
                    (t.get("x")?, t.get("y")?, t.get("w")?, t.get("h")?);
                Ok((x + w / 2, y + h / 2))
            })?;
            let methods = lua.create_table()?;
            methods.set("center", center)?;
            let meta = lua.create_table()?;
            meta.set("__index", methods)?;
            let rect = lua.create_table()?;
            for (k, v) in [("x", 1), ("y", 2), ("w", 5), ("h", 7)] {
                rect.set(k, v)?;
            }
            rect.set_metatable(Some(meta))?;
            lua.globals().set("rt", rect)?;
            lua.load(
                "function method(n) for i = 1, n do g:priority(1, 1) end end
                 function rect(n) for i = 1, n do rt:center() end end
                 function table_field(n) local t = { width = 80 } for i = 1, n do local w = t.width end end
                 function rng(n) for i = 1, n do r:int(1, 6) end end
                 function seed(n) for i = 1, n do r:seed() end end
                 function random(n) for i = 1, n do math.random(1, 6) end end
                 function set(n) for i = 1, n do g:set(i & 7, 1, 'floor') end end
                 function set_opts(n) local force = { force = true }
                   for i = 1, n do g:set(i & 7, 0, 'floor', force) end end
                 function set_new_opts(n)
                   for i = 1, n do g:set(i & 7, 0, 'floor', { force = true }) end end
                 function loop(n) for i = 1, n do end end",
            )
            .exec()
        };
        if let Err(e) = setup() {
            panic!("plain mlua setup: {e}");
        }
        Plain { lua }
    }

    fn time(&self, f: &str, n: i64) -> f64 {
        let func: mlua::Function = match self.lua.globals().get(f) {
            Ok(func) => func,
            Err(e) => panic!("{f}: {e}"),
        };
        let started = Instant::now();
        for _ in 0..5 {
            if let Err(e) = func.call::<()>(n) {
                panic!("{f}: {e}");
            }
        }
        started.elapsed().as_secs_f64()
    }

    fn per_op(&self, f: &str) -> f64 {
        (self.time(f, N) - self.time("loop", N)) / (5 * N) as f64 * 1e9
    }
}

fn main() {
    let warren = Warren::new();
    let plain = Plain::new();
    // Warm up both.
    warren.time("method", N, 3);
    plain.time("method", N);

    let mut rows: [Vec<f64>; 24] = Default::default();
    for _ in 0..ROUNDS {
        rows[0].push(warren.time("loop", 0, MAPS) / MAPS as f64 * 1e9);
        rows[1].push(warren.per_op("method"));
        rows[2].push(plain.per_op("method"));
        rows[3].push(warren.per_op("field"));
        rows[4].push(warren.per_op("table"));
        rows[5].push(plain.per_op("table_field"));
        rows[6].push(warren.per_op("rng"));
        rows[7].push(plain.per_op("rng"));
        rows[8].push(warren.per_op("seed"));
        rows[9].push(plain.per_op("seed"));
        rows[10].push(warren.per_op("random"));
        rows[11].push(plain.per_op("random"));
        rows[12].push(warren.per_op("rect"));
        rows[13].push(plain.per_op("rect"));
        rows[14].push(warren.per_op("set"));
        rows[15].push(plain.per_op("set"));
        rows[16].push(warren.per_op("set_opts"));
        rows[17].push(plain.per_op("set_opts"));
        rows[18].push(warren.per_op("set_new_opts"));
        rows[19].push(plain.per_op("set_new_opts"));
        rows[20].push(warren.per_op("method_above"));
        rows[21].push(warren.per_op("get"));
        rows[22].push(warren.per_op("get_above"));
        rows[23].push(warren.per_op("set_above"));
    }
    let [enter, method, plain_method, field, table, plain_table, rng, plain_rng, seed, plain_seed, random, plain_random, rect, plain_rect, set, plain_set, set_opts, plain_set_opts, set_new_opts, plain_set_new_opts, method_above, get, get_above, set_above] =
        rows.map(median);
    println!("fixed costs, medians of {ROUNDS} alternating rounds:");
    println!(
        "  entering a recipe (16×16 map, empty generate): {:8.1} ns per map",
        enter
    );
    println!(
        "  map:priority(x, y), warren:                      {:8.1} ns per call",
        method
    );
    println!(
        "  the same method, plain mlua add_method:          {:8.1} ns per call",
        plain_method
    );
    println!(
        "  ratio warren / plain mlua:                       {:8.2}",
        method / plain_method
    );
    println!(
        "  rng:int(1, 6), warren:                           {:8.1} ns per call",
        rng
    );
    println!(
        "  the same method, plain mlua add_method_mut:      {:8.1} ns per call",
        plain_rng
    );
    println!(
        "  ratio warren / plain mlua:                       {:8.2}",
        rng / plain_rng
    );
    println!(
        "  rng:seed() (no fast path), warren:               {:8.1} ns per call",
        seed
    );
    println!(
        "  the same method, plain mlua add_method:          {:8.1} ns per call",
        plain_seed
    );
    println!(
        "  ratio warren / plain mlua:                       {:8.2}",
        seed / plain_seed
    );
    println!(
        "  rect:center() on a warren.rect table, warren:    {:8.1} ns per call",
        rect
    );
    println!(
        "  the same on a table, plain mlua function:        {:8.1} ns per call",
        plain_rect
    );
    println!(
        "  ratio warren / plain mlua:                       {:8.2}",
        rect / plain_rect
    );
    println!(
        "  math.random(1, 6), warren (from ctx.rng):        {:8.1} ns per call",
        random
    );
    println!(
        "  math.random(1, 6), plain Lua's own (C):          {:8.1} ns per call",
        plain_random
    );
    println!(
        "  map.width, warren:                               {:8.1} ns per read",
        field
    );
    println!(
        "  t.width, a plain table in a recipe:              {:8.1} ns per read",
        table
    );
    println!(
        "  t.width, a plain table in plain mlua:            {:8.1} ns per read",
        plain_table
    );
    for (what, warren, plain) in [
        ("map:set(x, y, t)", set, plain_set),
        (
            "map:set(x, y, t, opts), one options table",
            set_opts,
            plain_set_opts,
        ),
        (
            "map:set(x, y, t, { force = true })",
            set_new_opts,
            plain_set_new_opts,
        ),
    ] {
        println!(
            "  {what:<47} {warren:8.1} ns per call (plain mlua {plain:.1}, ratio {:.2})",
            warren / plain
        );
    }
    println!("the map's fast calls against their declared bindings (the same call on ctx.above):");
    for (call, fast, declared) in [
        ("map:priority(1, 1)", method, method_above),
        ("map:get(1, 1)", get, get_above),
        ("map:set(x, y, \"floor\")", set, set_above),
    ] {
        println!(
            "  {call:<26} fast {fast:6.1} ns, declared {declared:6.1} ns per call ({:.2}x)",
            declared / fast
        );
    }
}
