//! Seeing generation: `map:snapshot(label)` records the map between phases (written as frames
//! by `warren run --frames DIR`), `map:add_layer(name, {rows=, colors=})` attaches a debug layer
//! (shown with `--layer NAME`).

use crate::api::call::Call;
use crate::api::classes::LAYER_SPEC;
use crate::api::decl::{arg, Decl, Owner::Map as M, Ty};
use crate::api::shared::Shared;

use crate::api::shapes::list;
use crate::state::{charge_bytes_for, release_bytes};
use mlua::{Lua, Table, Value};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use warren_core::map::{Layer, Map, Rgb};
use warren_core::render::LayerChoice;

/// The most snapshots one generation may record.
pub const MAX_SNAPSHOTS: usize = 1000;
/// The most cells all kept snapshots of one generation may hold together (streamed ones hold
/// none).
pub const MAX_SNAPSHOT_CELLS: usize = 64 << 20;

/// The map as it was when the recipe called `map:snapshot(label)`.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The recipe's label (`"after rooms"`).
    pub label: String,
    /// The map at that moment.
    pub map: Map,
}

/// Where streamed snapshots go
/// ([`Host::stream_snapshots`](crate::Host::stream_snapshots)): `warren run --frames` writes
/// each one as a frame while the recipe runs, so a run holds no copy of its map however many
/// snapshots it takes.
pub trait SnapshotSink {
    /// Bytes [`SnapshotSink::write`] holds at once while it writes `map`: checked against the
    /// generation's memory limit before it is called, as a binding's allocation is.
    fn bytes_for(&self, map: &Map) -> usize;

    /// Writes the snapshot `label` of `map` (its layers left out, as a kept snapshot's are).
    /// An error stops the generation at the snapshot's line; the sink keeps it to report
    /// (a recipe could catch the Lua error).
    fn write(&mut self, label: &str, map: &Map) -> Result<(), String>;
}

/// A sink as the host and the caller both hold it.
pub type SharedSink = Rc<RefCell<dyn SnapshotSink>>;

/// Snapshots of the generation in progress (Lua app data). While they are not kept
/// ([`Host::record_snapshots`](crate::Host::record_snapshots)), `map:snapshot` only checks its argument, so recipes
/// can leave their snapshots in at no cost.
#[derive(Default)]
pub struct Snapshots {
    /// Recorded so far.
    pub frames: Vec<Snapshot>,
    /// Where each snapshot goes instead of `frames`, when they are streamed
    /// ([`Host::stream_snapshots`](crate::Host::stream_snapshots)).
    pub sink: Option<SharedSink>,
    /// Snapshots streamed to `sink` so far.
    pub streamed: usize,
}

pub(super) const SNAPSHOT: Decl = Decl::method(
    M,
    "snapshot",
    "Records the map as it is now; `warren run --frames DIR` writes one PNG per snapshot. Free when frames are not asked for.",
)
.args(&[arg("label", Ty::Str)]);
const ADD_LAYER: Decl = Decl::method(
    M,
    "add_layer",
    "Attaches a debug layer, shown with `--layer NAME` (replaces a layer of the same name).",
)
.args(&[arg("name", Ty::Str), arg("layer", Ty::Table(&LAYER_SPEC))]);

methods! {
    /// Seeing generation.
    pub METHODS, register for Shared<Map> {
        SNAPSHOT => snapshot,
        ADD_LAYER => add_layer,
    }
}

/// `map:snapshot(label)`.
fn snapshot(lua: &Lua, this: &Shared<Map>, label: Value) -> mlua::Result<()> {
    let c = Call::gated(lua, &SNAPSHOT);
    let mut m = c.write(this)?;
    let Value::String(label) = label else {
        return Err(c.bad(0, &label));
    };
    if !recording(lua) {
        return Ok(());
    }
    let label = label.to_string_lossy();
    // A snapshot leaves the layers out (a kept one is a copy without them).
    let layers = std::mem::take(&mut m.notes.layers);
    let streamed = stream(&c, &label, &m);
    m.notes.layers = layers;
    if streamed? {
        return Ok(());
    }
    let (width, height) = (m.width(), m.height());
    record(&c, width, height, label, || Ok(copy_without_layers(&mut m)))
}

/// A copy of `map` without its layers, as a snapshot holds it.
pub fn copy_without_layers(map: &mut Map) -> Map {
    let layers = std::mem::take(&mut map.notes.layers);
    let copy = map.clone();
    map.notes.layers = layers;
    copy
}

/// Whether snapshots are streamed to a sink now
/// ([`Host::stream_snapshots`](crate::Host::stream_snapshots)).
pub fn streaming(lua: &Lua) -> bool {
    lua.app_data_ref::<Snapshots>()
        .is_some_and(|s| s.sink.is_some())
}

/// Streams `map` as the snapshot `label` when a sink takes the snapshots, and returns whether
/// one did. What the sink holds while it writes is checked against the memory limit first;
/// the writing's time is left out of the generation's clock. At most [`MAX_SNAPSHOTS`] a
/// generation, as when they are kept; the cells they hold together are not limited, as none
/// is held.
pub fn stream(c: &Call, label: &str, map: &Map) -> mlua::Result<bool> {
    let lua = c.lua();
    let sink = match lua.app_data_mut::<Snapshots>() {
        Some(mut shots) => match shots.sink.clone() {
            Some(sink) if shots.streamed >= MAX_SNAPSHOTS => {
                drop((shots, sink));
                return Err(c.fail(format!("too many snapshots (at most {MAX_SNAPSHOTS})")));
            }
            Some(sink) => {
                shots.streamed += 1;
                sink
            }
            None => return Ok(false),
        },
        None => return Ok(false),
    };
    let bytes = sink.borrow().bytes_for(map);
    charge_bytes_for(lua, bytes, &c.decl().call_name())?;
    let started = std::time::Instant::now();
    let written = sink.borrow_mut().write(label, map);
    release_bytes(lua, bytes);
    crate::state::state(lua)
        .budget
        .exclude_time(started.elapsed());
    written.map(|()| true).map_err(|e| c.fail(e))
}

/// Whether snapshots are kept now ([`Host::record_snapshots`](crate::Host::record_snapshots)):
/// when not, a snapshot call only checks its arguments, so recipes can leave their snapshots
/// in at no cost.
pub fn recording(lua: &Lua) -> bool {
    crate::state::state(lua).snapshots.get()
}

/// Keeps the `width × height` map that `make` returns (a copy without layers) as the next
/// snapshot, labelled `label`, within [`MAX_SNAPSHOTS`] and [`MAX_SNAPSHOT_CELLS`]. Its memory
/// is charged before it is made; the account holds it until the generation ends (the host then
/// counts the snapshots it keeps).
pub fn record(
    c: &Call,
    width: i32,
    height: i32,
    label: String,
    make: impl FnOnce() -> mlua::Result<Map>,
) -> mlua::Result<()> {
    let lua = c.lua();
    let Some(shots) = lua.app_data_ref::<Snapshots>() else {
        return Ok(());
    };
    let cells: usize = shots.frames.iter().map(|s| s.map.len()).sum();
    let more = width.max(0) as usize * height.max(0) as usize;
    if shots.frames.len() >= MAX_SNAPSHOTS || cells + more > MAX_SNAPSHOT_CELLS {
        drop(shots);
        return Err(c.fail(format!(
            "too many snapshots (at most {MAX_SNAPSHOTS}, holding at most {MAX_SNAPSHOT_CELLS} cells together)"
        )));
    }
    drop(shots);
    let bytes = Map::bytes_for(width.into(), height.into());
    charge_bytes_for(lua, bytes, &c.decl().call_name())?;
    let map = make()?;
    let Some(mut shots) = lua.app_data_mut::<Snapshots>() else {
        return Ok(());
    };
    shots.frames.push(Snapshot { label, map });
    Ok(())
}

/// `map:add_layer(name, { rows = {…}, colors = { [glyph] = "#rrggbb" } })`.
fn add_layer(lua: &Lua, this: &Shared<Map>, (name, spec): (Value, Value)) -> mlua::Result<()> {
    let c = Call::gated(lua, &ADD_LAYER);
    let name = c.str(0, &name)?;
    let o = c.options(1, &spec)?;
    let mut m = c.write(this)?;
    let map = &mut m;
    if name.is_empty() || LayerChoice::BUILT_IN.contains(&name.as_str()) {
        return Err(c.fail(format!(
            "name '{name}' is empty or built in ({}); choose another",
            LayerChoice::BUILT_IN.join(", ")
        )));
    }
    if !map.notes.layers.contains_key(&name)
        && map.notes.layers.len() >= warren_core::map::layer::MAX_LAYERS
    {
        return Err(c.fail(format!(
            "a map may carry at most {} layers",
            warren_core::map::layer::MAX_LAYERS
        )));
    }
    // Counted before the rows are converted or the layer made; given back if it is not kept
    // or when it replaces a layer of the same name.
    let bytes = Layer::bytes_for(map.width(), map.height());
    charge_bytes_for(lua, bytes, &ADD_LAYER.call_name())?;
    let made = make_layer(&c, &o, map.width(), map.height());
    let replaced = match made {
        Ok(layer) => map.notes.layers.insert(name, layer),
        Err(e) => {
            release_bytes(lua, bytes);
            return Err(e);
        }
    };
    if replaced.is_some() {
        release_bytes(lua, bytes);
    }
    Ok(())
}

/// The layer `add_layer`'s options describe, for a `width × height` map.
fn make_layer(
    c: &Call,
    o: &crate::api::call::Opts<'_, '_>,
    width: i32,
    height: i32,
) -> mlua::Result<Layer> {
    let rows = list(c, &o.table("rows")?, "layer.rows")?
        .into_iter()
        .enumerate()
        .map(|(i, v)| match v? {
            Value::String(s) => Ok(s.to_string_lossy()),
            other => Err(c.fail(format!(
                "layer.rows[{}] must be a string (one per map row), got {}",
                i + 1,
                crate::api::call::shown(&other)
            ))),
        })
        .collect::<mlua::Result<Vec<String>>>()?;
    let colors = colors(c, o.opt_table("colors")?)?;
    Layer::from_rows(width, height, &rows, &colors).map_err(|e| c.fail(e))
}

/// The `colors` table: one-character keys, `#rrggbb` values.
fn colors(c: &Call, t: Option<Table>) -> mlua::Result<BTreeMap<char, Rgb>> {
    let mut out = BTreeMap::new();
    let Some(t) = t else { return Ok(out) };
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair?;
        let key = k.to_string().unwrap_or_default();
        let mut chars = key.chars();
        let (Some(g), None) = (chars.next(), chars.next()) else {
            return Err(c.fail(format!("layer.colors key '{key}' must be a single glyph")));
        };
        let text = v.to_string().unwrap_or_default();
        let rgb = Rgb::parse(&text).ok_or_else(|| {
            c.fail(format!(
                "layer.colors['{key}'] = '{text}' is not a colour \"#rrggbb\""
            ))
        })?;
        out.insert(g, rgb);
    }
    Ok(out)
}
