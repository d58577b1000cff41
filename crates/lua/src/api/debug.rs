//! Seeing generation: `map:snapshot(label)` records the map between phases (written as frames
//! by `warren run --frames DIR`), `map:add_layer(name, {rows=, colors=})` attaches a debug layer
//! (shown with `--layer NAME`).

use super::args::{known_keys, list};
use crate::fail;
use mlua::{Lua, Table, Value};
use std::collections::BTreeMap;
use warren_core::map::{Layer, Map, Rgb};
use warren_core::render::LayerChoice;

/// The most snapshots one generation may record.
pub const MAX_SNAPSHOTS: usize = 1000;
/// The most cells all snapshots of one generation may hold together.
pub const MAX_SNAPSHOT_CELLS: usize = 64 << 20;

/// The map as it was when the recipe called `map:snapshot(label)`.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The recipe's label (`"after rooms"`).
    pub label: String,
    /// The map at that moment.
    pub map: Map,
}

/// Snapshots of the generation in progress (Lua app data). While not enabled, `map:snapshot`
/// only checks its argument, so recipes can leave their snapshots in at no cost.
#[derive(Debug, Default)]
pub struct Snapshots {
    /// Whether snapshots are kept.
    pub enabled: bool,
    /// Recorded so far.
    pub frames: Vec<Snapshot>,
}

/// `map:snapshot(label)`.
pub fn snapshot(lua: &Lua, map: &Map, label: Value) -> mlua::Result<()> {
    let Value::String(label) = label else {
        return Err(fail(
            lua,
            format!(
                "map:snapshot: label must be a string, got {}",
                label.type_name()
            ),
        ));
    };
    let Some(mut shots) = lua.app_data_mut::<Snapshots>() else {
        return Ok(());
    };
    if !shots.enabled {
        return Ok(());
    }
    let cells: usize = shots.frames.iter().map(|s| s.map.len()).sum();
    if shots.frames.len() >= MAX_SNAPSHOTS || cells + map.len() > MAX_SNAPSHOT_CELLS {
        drop(shots);
        return Err(fail(
            lua,
            format!(
                "map:snapshot: too many snapshots (at most {MAX_SNAPSHOTS}, holding at most {MAX_SNAPSHOT_CELLS} cells together)"
            ),
        ));
    }
    let mut copy = map.clone();
    copy.notes.layers.clear();
    shots.frames.push(Snapshot {
        label: label.to_string_lossy(),
        map: copy,
    });
    Ok(())
}

/// `map:add_layer(name, { rows = {…}, colors = { [glyph] = "#rrggbb" } })`.
pub fn add_layer(lua: &Lua, map: &mut Map, name: String, spec: Table) -> mlua::Result<()> {
    let call = "map:add_layer";
    if name.is_empty() || LayerChoice::BUILT_IN.contains(&name.as_str()) {
        return Err(fail(
            lua,
            format!(
                "{call}: name '{name}' is empty or built in ({}); choose another",
                LayerChoice::BUILT_IN.join(", ")
            ),
        ));
    }
    if !map.notes.layers.contains_key(&name)
        && map.notes.layers.len() >= warren_core::map::layer::MAX_LAYERS
    {
        return Err(fail(
            lua,
            format!(
                "{call}: a map may carry at most {} layers",
                warren_core::map::layer::MAX_LAYERS
            ),
        ));
    }
    known_keys(lua, &spec, call, &["rows", "colors"])?;
    let rows = match spec.get::<Value>("rows")? {
        Value::Table(t) => list(lua, &t, call)?
            .into_iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::String(s) => Ok(s.to_string_lossy()),
                other => Err(fail(
                    lua,
                    format!(
                        "{call}: rows[{}] must be a string, got {}",
                        i + 1,
                        other.type_name()
                    ),
                )),
            })
            .collect::<mlua::Result<Vec<String>>>()?,
        other => {
            return Err(fail(
                lua,
                format!(
                    "{call}: rows must be a list of strings (one per map row), got {}",
                    other.type_name()
                ),
            ))
        }
    };
    let colors = colors(lua, spec.get::<Value>("colors")?, call)?;
    let layer = Layer::from_rows(map.width(), map.height(), &rows, &colors)
        .map_err(|e| fail(lua, format!("{call}: {e}")))?;
    map.notes.layers.insert(name, layer);
    Ok(())
}

/// The `colors` table: one-character keys, `#rrggbb` values.
fn colors(lua: &Lua, v: Value, call: &str) -> mlua::Result<BTreeMap<char, Rgb>> {
    let mut out = BTreeMap::new();
    let t = match v {
        Value::Nil => return Ok(out),
        Value::Table(t) => t,
        other => {
            return Err(fail(
                lua,
                format!(
                    "{call}: colors must be a table {{ [glyph] = \"#rrggbb\" }}, got {}",
                    other.type_name()
                ),
            ))
        }
    };
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair?;
        let key = k.to_string().unwrap_or_default();
        let mut chars = key.chars();
        let (Some(g), None) = (chars.next(), chars.next()) else {
            return Err(fail(
                lua,
                format!("{call}: colors key '{key}' must be a single glyph"),
            ));
        };
        let text = v.to_string().unwrap_or_default();
        let c = Rgb::parse(&text).ok_or_else(|| {
            fail(
                lua,
                format!("{call}: colors['{key}'] = '{text}' is not a colour \"#rrggbb\""),
            )
        })?;
        out.insert(g, c);
    }
    Ok(out)
}
