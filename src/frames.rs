//! Step-by-step frames: generate with `map:snapshot` turned on and write one PNG per snapshot
//! (numbered, labelled in the file name), one of the finished map, and an animated GIF of them
//! all.

use crate::output::{AtomicFile, Inputs};
use crate::render::{gif, png, LayerChoice, Picture, VIEW_BYTES_PER_CELL};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use warren_core::map::Map;
use warren_lua::api::map::debug::Snapshot;
use warren_lua::error::{Error, Result};
use warren_lua::run::{level_seed, GeneratedLevel};
use warren_lua::{Host, ParamValues, Run};

/// A level and the snapshots its recipe took on the way.
#[derive(Clone, Debug)]
pub struct Steps {
    /// The finished level.
    pub level: GeneratedLevel,
    /// Snapshots, oldest first.
    pub snapshots: Vec<Snapshot>,
}

/// Generates levels 1..=`count` like [`warren_lua::run::generate_levels`], keeping every snapshot.
pub fn generate_steps(
    host: &Host,
    seed: u64,
    params: &ParamValues,
    count: u32,
) -> Result<Vec<Steps>> {
    warren_lua::run::check_levels(host, params, count)?;
    host.record_snapshots(true);
    host.take_snapshots();
    // Every level made so far, and its snapshots, stay in the memory account of the ones below.
    let mut kept = Vec::with_capacity(count as usize);
    let steps = (1..=count).try_fold(Vec::<Steps>::new(), |mut out, depth| {
        let s = level_seed(seed, depth);
        let map = host.generate(&Run {
            seed: s,
            params,
            depth,
            above: out.last().map(|l| &l.level.map),
        })?;
        let snapshots = host.take_snapshots();
        let bytes = snapshots.iter().map(|s| s.map.bytes()).sum::<usize>();
        kept.push(host.keep(bytes.saturating_add(map.bytes())));
        out.push(Steps {
            level: GeneratedLevel {
                map,
                seed: s,
                depth,
            },
            snapshots,
        });
        Ok(out)
    });
    host.take_snapshots();
    host.record_snapshots(false);
    steps
}

/// Bytes writing the frames of `steps` in `layer` at `scale` holds at once beside the maps: for
/// a layer other than the terrain, one frame's view (a glyph and a colour per cell); and what
/// one animation frame holds while it is encoded ([`gif::frame_bytes`]: a row of pixels, and a
/// colour per cell should the frame have more than 256 colours). The PNG frames stream.
pub fn memory_needed(steps: &[Steps], layer: &LayerChoice, scale: u32) -> usize {
    let scale = scale.max(1) as usize;
    steps
        .iter()
        .map(|step| {
            let map = &step.level.map;
            let cols = map.width() as usize;
            let few_colours = || {
                map.terrains()
                    .iter()
                    .map(|t| t.color)
                    .collect::<HashSet<_>>()
                    .len()
                    <= 256
            };
            if *layer == LayerChoice::Terrain && few_colours() {
                gif::frame_bytes(cols, map.len(), scale, false)
            } else {
                let view = map.len().saturating_mul(VIEW_BYTES_PER_CELL);
                view.saturating_add(gif::frame_bytes(cols, map.len(), scale, true))
            }
        })
        .max()
        .unwrap_or(0)
}

/// Bytes the levels and snapshots of `steps` hold.
pub fn held(steps: &[Steps]) -> usize {
    let maps = steps
        .iter()
        .flat_map(|s| s.snapshots.iter().map(|s| &s.map).chain([&s.level.map]));
    maps.map(|m| m.bytes()).sum()
}

/// Writes the frames of every level into `dir` (created if needed) and returns their paths in
/// order: `000-after-rooms.png`, …, `NNN-final.png`, then `animation.gif` with all of them
/// (deeper levels prefix their files with `level2-` …). A frame that would land on one of
/// `inputs` is refused before anything is written.
pub fn write_frames(
    dir: &Path,
    steps: &[Steps],
    layer: &LayerChoice,
    scale: u32,
    inputs: &Inputs,
) -> Result<Vec<PathBuf>> {
    inputs.check("--frames", dir)?;
    for name in steps.iter().flat_map(frame_names) {
        inputs.check("--frames", &dir.join(name))?;
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::Io(format!("{}: cannot create: {e}", dir.display())))?;
    let mut written = Vec::new();
    for step in steps {
        let names = frame_names(step);
        let maps: Vec<&Map> = step
            .snapshots
            .iter()
            .map(|s| &s.map)
            .chain([&step.level.map])
            .collect();
        let final_map = &step.level.map;
        let animation_name = names.last().map_or("animation.gif", String::as_str);
        let animation_path = dir.join(animation_name);
        let fail =
            |e: String| Error::Io(format!("{}: cannot write: {e}", animation_path.display()));
        let file = AtomicFile::create(&animation_path).map_err(|e| fail(e.to_string()))?;
        let mut animation = gif::Animation::new(
            file,
            final_map.width() as usize,
            final_map.height() as usize,
            scale as usize,
        )
        .map_err(Error::Io)?;
        for (i, (map, name)) in maps.iter().zip(&names).enumerate() {
            let layer = match layer {
                // A recipe layer added after a snapshot is not in it: show such frames as terrain.
                LayerChoice::Custom(n) if !map.notes.layers.contains_key(n) => {
                    &LayerChoice::Terrain
                }
                _ => layer,
            };
            let view = match layer {
                LayerChoice::Terrain => None,
                _ => Some(layer.view(map).map_err(Error::Param)?),
            };
            let picture = view.as_ref().map_or(Picture::Terrain(map), Picture::View);
            written.push(write_png(dir, name, picture, scale)?);
            animation.add(picture, i + 1 == maps.len()).map_err(fail)?;
        }
        let file = animation.finish().map_err(fail)?;
        file.commit().map_err(|e| fail(e.to_string()))?;
        written.push(animation_path);
    }
    Ok(written)
}

/// The files one level's frames go to: `NNN-label.png` per snapshot, the final map, then
/// `animation.gif` (prefixed with `levelN-` below the first level).
fn frame_names(step: &Steps) -> Vec<String> {
    let prefix = if step.level.depth > 1 {
        format!("level{}-", step.level.depth)
    } else {
        String::new()
    };
    let labels = step.snapshots.iter().map(|s| s.label.as_str());
    labels
        .chain(["final"])
        .enumerate()
        .map(|(i, label)| format!("{prefix}{i:03}-{}.png", slug(label)))
        .chain([format!("{prefix}animation.gif")])
        .collect()
}

/// Writes one PNG frame atomically, a pixel row at a time.
fn write_png(dir: &Path, name: &str, picture: Picture, scale: u32) -> Result<PathBuf> {
    let path = dir.join(name);
    let fail = |e: std::io::Error| Error::Io(format!("{}: cannot write: {e}", path.display()));
    let mut file = AtomicFile::create(&path).map_err(fail)?;
    png::write(&[picture], scale as usize, &mut file).map_err(Error::Io)?;
    file.commit().map_err(fail)?;
    Ok(path)
}

/// A label as a file-name part: lower-case letters and digits, other runs become `-`, at most
/// 40 characters, `frame` if nothing is left.
pub fn slug(label: &str) -> String {
    let mut out = String::new();
    for c in label.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 40 {
            break;
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "frame".into()
    } else {
        out
    }
}
