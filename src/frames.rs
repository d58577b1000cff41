//! Step-by-step frames: generate with `map:snapshot` streamed, writing one PNG per snapshot as
//! the recipe takes it (numbered, labelled in the file name), one of the finished map, and an
//! animated GIF of them all, written frame by frame beside them. No copy of the map is held:
//! a run's frames take the memory of one frame being written, however many snapshots it takes.
//! Every file is written under a temporary name and renamed at the end, once every level is
//! made and written and the run's other outputs checked: a failure leaves no frame behind.

use crate::output::{AtomicFile, Finished, Inputs};
use crate::render::{gif, png, LayerChoice, Painter, Picture};
use std::cell::RefCell;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use warren_core::map::Map;
use warren_lua::error::{Error, Result};
use warren_lua::run::{generate_levels_with, GeneratedLevel};
use warren_lua::{Host, ParamValues, SnapshotSink};

/// Where and how `--frames` writes.
pub struct FrameOptions<'a> {
    /// The directory the frames go to (created if needed).
    pub dir: &'a Path,
    /// The layer each frame shows (`--layer`).
    pub layer: &'a LayerChoice,
    /// Pixels a cell (`--scale`).
    pub scale: u32,
    /// The run's inputs, which no frame may land on: listed before the run, and again before
    /// the frames are committed (the recipe may require more modules while it runs).
    pub inputs: &'a dyn Fn() -> Inputs,
}

/// Generates levels 1..=`count` like [`warren_lua::run::generate_levels`], streaming every
/// snapshot of each level into `frames.dir` as a frame: `000-after-rooms.png`, …,
/// `NNN-final.png`, then `animation.gif` with all of them (deeper levels prefix their files
/// with `level2-` …). The frames wait under temporary names until [`Frames::commit`], so that
/// the caller checks its other outputs first.
pub fn generate_frames(
    host: &Host,
    seed: u64,
    params: &ParamValues,
    count: u32,
    frames: &FrameOptions,
) -> Result<(Vec<GeneratedLevel>, Frames)> {
    let dir = frames.dir;
    let inputs = (frames.inputs)();
    inputs.check("--frames", dir)?;
    let mut written = Frames {
        files: Vec::new(),
        made_dir: (!dir.is_dir()).then(|| dir.to_path_buf()),
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::Io(format!("{}: cannot create: {e}", dir.display())))?;
    let levels = generate_levels_with(host, seed, params, count, |host, run| {
        let level = Rc::new(RefCell::new(LevelFrames::new(frames, &inputs, run.depth)?));
        host.stream_snapshots(level.clone());
        let made = host.generate(run);
        host.record_snapshots(false);
        let mut level = level.borrow_mut();
        // A frame that failed to write is what stopped the run (or was caught by the recipe).
        if let Some(e) = level.failed.take() {
            return Err(e);
        }
        let map = made?;
        written.files.extend(level.finish(host, &map)?);
        Ok(map)
    })?;
    Ok((levels, written))
}

/// A run's frames, written under temporary names: [`Frames::commit`] renames them over their
/// targets; dropped uncommitted, they are removed, and so is the directory the run made.
pub struct Frames {
    files: Vec<Finished>,
    /// The frames' directory, when the run made it.
    made_dir: Option<PathBuf>,
}

impl Frames {
    /// Renames every frame over its target, each checked once more against `inputs` (every
    /// file the run read, the modules the recipe required while it ran included).
    pub fn commit(mut self, inputs: &Inputs) -> Result<()> {
        for file in &self.files {
            inputs.check("--frames", file.target())?;
        }
        self.made_dir = None;
        for file in std::mem::take(&mut self.files) {
            let target = file.target().to_path_buf();
            file.commit().map_err(|e| cannot_write(&target, e))?;
        }
        Ok(())
    }
}

impl Drop for Frames {
    fn drop(&mut self) {
        self.files.clear();
        if let Some(dir) = &self.made_dir {
            // Nothing is left in it: the run leaves no trace.
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// One level's frames on their way: the PNG frames written so far and the animation, all under
/// temporary names until [`Frames::commit`].
struct LevelFrames {
    dir: PathBuf,
    /// `levelN-` below the first level.
    prefix: String,
    layer: LayerChoice,
    scale: u32,
    inputs: Inputs,
    /// The PNG frames written.
    written: Vec<Finished>,
    /// The animation, once the first frame gave its size.
    animation: Option<gif::Animation<AtomicFile>>,
    /// Where the animation goes.
    animation_path: PathBuf,
    /// Why a snapshot's frame could not be written (the error the run ends with).
    failed: Option<Error>,
}

impl LevelFrames {
    fn new(frames: &FrameOptions, inputs: &Inputs, depth: u32) -> Result<LevelFrames> {
        let prefix = if depth > 1 {
            format!("level{depth}-")
        } else {
            String::new()
        };
        let animation_path = frames.dir.join(format!("{prefix}animation.gif"));
        inputs.check("--frames", &animation_path)?;
        Ok(LevelFrames {
            dir: frames.dir.to_path_buf(),
            prefix,
            layer: frames.layer.clone(),
            scale: frames.scale,
            inputs: inputs.clone(),
            written: Vec::new(),
            animation: None,
            animation_path,
            failed: None,
        })
    }

    /// Writes the frame of `map` labelled `label` (the last one: the finished map) as the next
    /// PNG and the animation's next frame.
    fn frame(&mut self, label: &str, map: &Map, last: bool) -> Result<()> {
        let name = format!(
            "{}{:03}-{}.png",
            self.prefix,
            self.written.len(),
            slug(label)
        );
        let path = self.dir.join(name);
        self.inputs.check("--frames", &path)?;
        let painter = self
            .layer_of(map, last)
            .painter(map)
            .map_err(Error::Param)?;
        let picture = Picture::Layer(&painter);
        self.written.push(write_png(&path, picture, self.scale)?);
        let animation_path = &self.animation_path;
        let animation = match &mut self.animation {
            Some(animation) => animation,
            None => {
                let file = AtomicFile::create(animation_path)
                    .map_err(|e| cannot_write(animation_path, e))?;
                let (width, height) = (map.width() as usize, map.height() as usize);
                let animation = gif::Animation::new(file, width, height, self.scale as usize)
                    .map_err(Error::Io)?;
                self.animation.insert(animation)
            }
        };
        animation
            .add(picture, last)
            .map_err(|e| cannot_write(animation_path, e))
    }

    /// The layer the frame of `map` shows: a recipe layer added after a snapshot is not in it,
    /// so such frames show the terrain (the final frame, `last`, is refused without it).
    fn layer_of(&self, map: &Map, last: bool) -> &LayerChoice {
        match &self.layer {
            LayerChoice::Custom(n) if !last && !map.notes.layers.contains_key(n) => {
                &LayerChoice::Terrain
            }
            layer => layer,
        }
    }

    /// Writes the final frame of `map`, once it fits in the memory limit beside the levels
    /// kept, and returns the level's files, the animation last.
    fn finish(&mut self, host: &Host, map: &Map) -> Result<Vec<Finished>> {
        let what = format!(
            "--frames at --scale {0}: a {1}×{2}-pixel animation frame",
            self.scale,
            map.width() as u64 * u64::from(self.scale.max(1)),
            map.height() as u64 * u64::from(self.scale.max(1)),
        );
        host.check_memory(self.bytes_for(map), map.bytes(), &what)?;
        self.frame("final", map, true)?;
        if let Some(animation) = self.animation.take() {
            let path = &self.animation_path;
            let file = animation.finish().map_err(|e| cannot_write(path, e))?;
            self.written
                .push(file.finish().map_err(|e| cannot_write(path, e))?);
        }
        Ok(std::mem::take(&mut self.written))
    }
}

impl SnapshotSink for LevelFrames {
    /// What writing one frame holds at once: the labels of the `components` layer
    /// ([`Painter::bytes_for`]), and what one animation frame holds while it is encoded
    /// ([`gif::frame_bytes`]: a row of pixels, and the colours the quantiser learns from
    /// should the frame have more than 256 colours, as a layer other than the terrain may).
    /// The PNG frame streams.
    fn bytes_for(&self, map: &Map) -> usize {
        let scale = self.scale.max(1) as usize;
        let cols = map.width() as usize;
        let layer = self.layer_of(map, false);
        let few_colours = || {
            map.terrains()
                .iter()
                .map(|t| t.color)
                .collect::<HashSet<_>>()
                .len()
                <= 256
        };
        let quantised = *layer != LayerChoice::Terrain || !few_colours();
        let labels = Painter::bytes_for(layer, map.len());
        labels.saturating_add(gif::frame_bytes(cols, map.len(), scale, quantised))
    }

    fn write(&mut self, label: &str, map: &Map) -> std::result::Result<(), String> {
        let written = self.frame(label, map, false);
        written.map_err(|e| {
            let message = e.to_string();
            self.failed = Some(e);
            message
        })
    }
}

/// The error for the file at `path` that could not be written (`why`).
fn cannot_write(path: &Path, why: impl std::fmt::Display) -> Error {
    Error::Io(format!("{}: cannot write: {why}", path.display()))
}

/// Writes one PNG frame, a pixel row at a time, under its temporary name.
fn write_png(path: &Path, picture: Picture, scale: u32) -> Result<Finished> {
    let fail = |e: std::io::Error| cannot_write(path, e);
    let mut file = AtomicFile::create(path).map_err(fail)?;
    png::write(&[picture], scale as usize, &mut file).map_err(Error::Io)?;
    file.finish().map_err(fail)
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
