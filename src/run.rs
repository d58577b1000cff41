//! Running a recipe end to end: find the regions, load the host, generate one or more levels,
//! render them. The CLI and games embedding warren share this path.

use crate::error::{Error, Result};
use crate::map::Map;
use crate::region::Registry;
use crate::render::{self, json, Format, LayerChoice, View};
use crate::rng::Rng;
use crate::script::{Host, Limits, ParamValue, ParamValues, Run};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The nearest `regions/` directory in the script's directory or one of its ancestors.
pub fn find_regions(script: &Path) -> Option<PathBuf> {
    let start = script.parent().unwrap_or(Path::new("."));
    let start = if start.as_os_str().is_empty() {
        Path::new(".")
    } else {
        start
    };
    let abs = start.canonicalize().ok()?;
    abs.ancestors()
        .map(|d| d.join("regions"))
        .find(|d| d.is_dir())
}

/// Loads the registry from `dir`, or from the directory [`find_regions`] picks.
pub fn load_registry(dir: Option<&Path>, script: &Path) -> Result<Registry> {
    let dir = match dir {
        Some(d) => d.to_path_buf(),
        None => find_regions(script).ok_or_else(|| {
            Error::Io(format!(
                "{}: no regions/ directory beside or above the script; pass --regions DIR",
                script.display()
            ))
        })?,
    };
    Ok(Registry::load_dir(&dir)?)
}

/// The seed of level `depth` (1-based) of a run with `seed`. Level 1 uses the run's seed, so a
/// one-level run and the first level of a multi-level run are the same map.
pub fn level_seed(seed: u64, depth: u32) -> u64 {
    if depth <= 1 {
        seed
    } else {
        Rng::new(seed).stream(&format!("level {depth}")).seed()
    }
}

/// One generated level and what made it.
#[derive(Clone, Debug)]
pub struct Level {
    /// The map.
    pub map: Map,
    /// Its seed.
    pub seed: u64,
    /// Its depth (1-based).
    pub depth: u32,
}

/// Generates levels 1..=`count`, each seeing the one above.
pub fn generate_levels(
    host: &Host,
    seed: u64,
    params: &ParamValues,
    count: u32,
) -> Result<Vec<Level>> {
    let mut levels: Vec<Level> = Vec::with_capacity(count as usize);
    for depth in 1..=count {
        let s = level_seed(seed, depth);
        let map = host.generate(&Run {
            seed: s,
            params,
            depth,
            above: levels.last().map(|l| &l.map),
        })?;
        levels.push(Level {
            map,
            seed: s,
            depth,
        });
    }
    Ok(levels)
}

/// Parameter values as JSON (for the output header).
pub fn params_json(params: &ParamValues) -> std::collections::BTreeMap<String, serde_json::Value> {
    params
        .iter()
        .map(|(k, v)| {
            let j = match v {
                ParamValue::Int(i) => serde_json::json!(i),
                ParamValue::Float(f) => serde_json::json!(f),
                ParamValue::Bool(b) => serde_json::json!(b),
                ParamValue::Text(s) => serde_json::json!(s),
            };
            (k.clone(), j)
        })
        .collect()
}

/// Renders levels in `format`. Text formats separate levels with a blank line; PNG stacks
/// them top to bottom with a one-cell gap; JSON uses `{format, levels}` for more than one.
pub fn render(
    levels: &[Level],
    recipe: &str,
    params: &ParamValues,
    format: Format,
    scale: u32,
) -> Result<Vec<u8>> {
    render_layer(levels, recipe, params, format, scale, &LayerChoice::Terrain)
}

/// Like [`render()`], drawing `layer` instead of the terrain. JSON keeps `rows`/`legend` as the
/// terrain and adds the layer beside them.
pub fn render_layer(
    levels: &[Level],
    recipe: &str,
    params: &ParamValues,
    format: Format,
    scale: u32,
    layer: &LayerChoice,
) -> Result<Vec<u8>> {
    let views = levels
        .iter()
        .map(|l| layer.view(&l.map).map_err(Error::Param))
        .collect::<Result<Vec<View>>>()?;
    Ok(match format {
        Format::Ascii => views
            .iter()
            .map(render::text::ascii)
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes(),
        Format::Ansi => views
            .iter()
            .map(render::text::ansi)
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes(),
        Format::Json => {
            let pj = params_json(params);
            let metas: Vec<(Map, json::Meta)> = levels
                .iter()
                .zip(&views)
                .map(|(l, v)| {
                    (
                        l.map.clone(),
                        json::Meta {
                            recipe,
                            seed: l.seed,
                            depth: l.depth,
                            params: pj.clone(),
                            layer: (*layer != LayerChoice::Terrain).then(|| json::LayerRows {
                                name: layer.name().to_string(),
                                rows: v.rows(),
                            }),
                        },
                    )
                })
                .collect();
            if metas.len() == 1 {
                json::single(&metas[0].0, &metas[0].1).into_bytes()
            } else {
                json::levels(&metas).into_bytes()
            }
        }
        Format::Png => {
            let stacked = stack(&views);
            render::png::encode(&stacked, scale as usize).map_err(Error::Io)?
        }
    })
}

/// Stacks views vertically with a blank row between them.
fn stack(views: &[View]) -> View {
    if views.len() == 1 {
        return views[0].clone();
    }
    let width = views.iter().map(|v| v.width).max().unwrap_or(0);
    let mut out = View {
        width,
        height: 0,
        glyphs: Vec::new(),
        colors: Vec::new(),
    };
    for (i, v) in views.iter().enumerate() {
        if i > 0 {
            out.glyphs.extend(std::iter::repeat_n(' ', width));
            out.colors
                .extend(std::iter::repeat_n(crate::map::Rgb(0, 0, 0), width));
            out.height += 1;
        }
        for y in 0..v.height {
            let row = y * v.width;
            out.glyphs.extend_from_slice(&v.glyphs[row..row + v.width]);
            out.colors.extend_from_slice(&v.colors[row..row + v.width]);
            out.glyphs.extend(std::iter::repeat_n(' ', width - v.width));
            out.colors.extend(std::iter::repeat_n(
                crate::map::Rgb(0, 0, 0),
                width - v.width,
            ));
        }
        out.height += v.height;
    }
    out
}

/// One call for games: load the regions and recipe, generate one map.
pub fn generate(
    script: &Path,
    regions: Option<&Path>,
    seed: u64,
    sets: &[(String, String)],
) -> Result<Map> {
    let registry = Arc::new(load_registry(regions, script)?);
    let limits = Limits::from_region(&registry.limits);
    let host = Host::load(script, registry, limits)?;
    let params = host.resolve_params(sets)?;
    host.generate(&Run {
        seed,
        params: &params,
        depth: 1,
        above: None,
    })
}
