//! `warren watch`: generate, show, and regenerate the same seed whenever the recipe, a module it
//! requires or a region file changes. A bad edit is reported and the last good map stays (on
//! screen and in `--out`) until the file is fixed; the watcher never exits on one.

use crate::cli::{RunArgs, WatchArgs};
use crate::frames::{generate_frames, FrameOptions};
use crate::output::Inputs;
use crate::render::{tileset_path, Format, LayerChoice, Output};
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::sync::Arc;
use std::time::{Duration, Instant};
use warren_lua::error::{Error, Result};
use warren_lua::run::find_regions;
use warren_lua::watch::changes::{Changes, QUIET};
use warren_lua::watch::live::{Generated, LiveRecipe};

/// A line typed on standard input.
enum Key {
    Reroll,
    Regenerate,
    Quit,
}

/// Executes `warren watch`.
pub fn watch(args: WatchArgs) -> Result<()> {
    let run = args.run;
    let format = super::run::choose_format(&run)?;
    let sets = super::assignments(&run.gen)?;
    let regions = match &run.gen.regions {
        Some(d) => d.clone(),
        None => find_regions(&run.gen.script).ok_or_else(|| {
            Error::Io(format!(
                "{}: no regions/ directory beside or above the script; pass --regions DIR",
                run.gen.script.display()
            ))
        })?,
    };
    // Budgets come from the flags (else the defaults), lowered by the regions' `[limits]` as
    // they are at start-up (a broken regions directory at start-up lowers nothing).
    let initial = warren_core::region::Registry::load_dir(&regions).ok();
    let limits = super::limits(&run.gen, initial.as_ref())?;
    let mut live = LiveRecipe::load(&run.gen.script, &regions, sets, limits);
    // An output pointed at an input is refused at once (and again before every write).
    super::run::check_outputs(&run, format, || inputs(&live, &run.gen.script, &regions))?;
    if run.list_params {
        if let Some(e) = live.problem() {
            return Err(e);
        }
        let host = live
            .host()
            .ok_or_else(|| Error::Internal("recipe loaded without a host".into()))?;
        print!("{}", super::run::list_params(host));
        return Ok(());
    }
    let mut changes = Changes::new(QUIET).map_err(Error::Io)?;
    live.watch(&mut changes).map_err(Error::Io)?;
    let mut seed = super::seed(&run.gen);
    // `q` stops a generation in progress at its next budget checkpoint, so quitting never waits
    // for a long generation to finish.
    let quit = Arc::new(AtomicBool::new(false));
    live.set_cancel(quit.clone());
    let keys = read_keys(quit.clone());
    let mut screen = Screen::new(&run, format, &regions);
    screen.refresh(&live, seed, "started", &quit);
    loop {
        if quit.load(Ordering::Relaxed) {
            return Ok(());
        }
        if let Some(batch) = changes.next(Duration::from_millis(100)) {
            for e in &batch.errors {
                eprintln!("watch: watcher problem: {e}");
            }
            let changed = live.changed(&batch);
            if !changed.is_empty() {
                live.reload(!changed.regions.is_empty(), !changed.scripts.is_empty());
                // Newly required modules may live in directories not watched yet.
                if let Err(e) = live.watch(&mut changes) {
                    eprintln!("watch: {e}");
                }
                screen.refresh(&live, seed, &changed.describe(), &quit);
            }
        }
        match keys.try_recv() {
            Ok(Key::Reroll) => {
                seed = fresh_seed(seed);
                screen.refresh(&live, seed, "re-rolled", &quit);
            }
            Ok(Key::Regenerate) => screen.refresh(&live, seed, "regenerated", &quit),
            Ok(Key::Quit) => return Ok(()),
            Err(TryRecvError::Empty) | Err(TryRecvError::Disconnected) => {}
        }
    }
}

/// Errors shown for one change: at most [`SHOWN_ERRORS`], then how many more there are. A
/// single edit (renaming `terrain.toml` away) can break a hundred references; the first few
/// say what happened, and `warren check` lists them all.
const SHOWN_ERRORS: usize = 5;

/// The `error:` lines for `errors` (each already capped in length where it was made), the
/// rest counted.
fn shown_errors(errors: &[String]) -> String {
    let mut text = String::new();
    for e in errors.iter().take(SHOWN_ERRORS) {
        text.push_str(&format!("error: {e}\n"));
    }
    if errors.len() > SHOWN_ERRORS {
        text.push_str(&format!(
            "error: … and {} more (warren check lists them all)\n",
            errors.len() - SHOWN_ERRORS
        ));
    }
    text
}

/// Where maps are shown: `--out` (rewritten atomically) or standard output (cleared first on
/// a terminal).
struct Screen<'a> {
    run: &'a RunArgs,
    regions: &'a Path,
    format: Format,
    layer: LayerChoice,
    clear: bool,
    shown: Option<Vec<u8>>,
}

impl<'a> Screen<'a> {
    fn new(run: &'a RunArgs, format: Format, regions: &'a Path) -> Screen<'a> {
        Screen {
            run,
            regions,
            format,
            layer: LayerChoice::from_name(&run.layer),
            clear: run.out.is_none() && std::io::stdout().is_terminal(),
            shown: None,
        }
    }

    /// Regenerates and shows the map, or reports why not and keeps the last good one.
    fn refresh(&mut self, live: &LiveRecipe, seed: u64, reason: &str, quit: &AtomicBool) {
        let started = Instant::now();
        let rendered = self.render(live, seed);
        if quit.load(Ordering::Relaxed) {
            // Cancelled (or finished) while quitting: nothing more is shown.
            return;
        }
        match rendered {
            Ok((bytes, legend)) => {
                let ms = started.elapsed().as_millis();
                match self.show(&bytes) {
                    Ok(()) => {
                        self.shown = Some(bytes);
                        if let Some(legend) = legend {
                            eprintln!("{legend}");
                        }
                        eprintln!("watch: ok · {reason} · seed {seed} · {ms} ms");
                    }
                    Err(e) => eprintln!("error: {e}\nwatch: error · {reason} · seed {seed}"),
                }
            }
            Err(errors) => {
                if self.clear {
                    if let Some(last) = self.shown.clone() {
                        let _ = self.show(&last);
                    }
                }
                eprint!("{}", shown_errors(&errors));
                let kept = if self.shown.is_some() {
                    "keeping the last good map"
                } else {
                    "no good map yet"
                };
                eprintln!("watch: error · {reason} · seed {seed} · {kept}");
            }
        }
    }

    /// Generates and renders (to `--out`, or as bytes for the screen, with the layer's legend
    /// for text), or every current problem.
    fn render(
        &self,
        live: &LiveRecipe,
        seed: u64,
    ) -> std::result::Result<(Vec<u8>, Option<String>), Vec<String>> {
        let problems = live.problems();
        if !problems.is_empty() {
            // Every region problem on its own line, so that they are counted one by one.
            let mut each = Vec::new();
            for e in problems {
                match e {
                    Error::Region(errors) => each.extend(errors.0.iter().map(|e| e.to_string())),
                    other => each.push(other.to_string()),
                }
            }
            return Err(each);
        }
        let one = |e: Error| vec![e.to_string()];
        let levels = self.run.gen.levels;
        let (generated, frames) = match &self.run.frames {
            Some(dir) => {
                let (host, params) = live.ready().map_err(one)?;
                let frames = FrameOptions {
                    dir,
                    layer: &self.layer,
                    scale: self.run.scale,
                    inputs: &|| inputs(live, &self.run.gen.script, self.regions),
                };
                let (levels, frames) =
                    generate_frames(host, seed, &params, levels, &frames).map_err(one)?;
                let generated = Generated {
                    levels,
                    params,
                    recipe: host.recipe().name.clone(),
                };
                (generated, Some(frames))
            }
            None => (live.generate(seed, levels).map_err(one)?, None),
        };
        let output = Output {
            levels: &generated.levels,
            recipe: &generated.recipe,
            params: &generated.params,
            scale: self.run.scale,
            layer: &self.layer,
        };
        if let Some(host) = live.host() {
            let out = self.run.out.as_deref();
            super::run::check_drawing(host, &output, self.format, out).map_err(one)?;
        }
        if let Some(frames) = frames {
            let inputs = inputs(live, &self.run.gen.script, self.regions);
            frames.commit(&inputs).map_err(one)?;
        }
        let legend = matches!(self.format, Format::Ascii | Format::Ansi)
            .then(|| output.legend_text())
            .flatten();
        match &self.run.out {
            Some(path) => {
                let inputs = inputs(live, &self.run.gen.script, self.regions);
                inputs.check("--out", path).map_err(one)?;
                if self.format == Format::Tiled {
                    inputs.check("--out", &tileset_path(path)).map_err(one)?;
                }
                output.save(self.format, path).map_err(one)?
            }
            None => {
                let mut bytes = Vec::new();
                output.write(self.format, &mut bytes).map_err(one)?;
                return Ok((bytes, legend));
            }
        }
        Ok((Vec::new(), legend))
    }

    /// Shows rendered bytes on standard output (a file is written by `render`).
    fn show(&self, bytes: &[u8]) -> Result<()> {
        match &self.run.out {
            // Already written, whole, by `render`.
            Some(_) => Ok(()),
            None => {
                let mut out = std::io::stdout().lock();
                let clear: &[u8] = if self.clear { b"\x1b[2J\x1b[H" } else { b"" };
                out.write_all(clear)
                    .and_then(|_| out.write_all(bytes))
                    .and_then(|_| out.flush())
                    .map_err(|e| Error::Io(format!("stdout: {e}")))
            }
        }
    }
}

/// What the watched recipe reads now: no output may land on it.
fn inputs(live: &LiveRecipe, script: &Path, regions: &Path) -> Inputs {
    let mut inputs = match (live.host(), live.registry()) {
        (Some(host), Some(registry)) => super::inputs(host, registry, Some(regions)),
        _ => Inputs::new(),
    };
    inputs.add(script, "the recipe");
    inputs.set_regions_dir(regions);
    inputs
}

/// Lines typed on standard input, read on a thread (the channel closes at end of input). `q`
/// also sets `quit` at once, which cancels a generation in progress.
fn read_keys(quit: Arc<AtomicBool>) -> Receiver<Key> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            let key = match line.trim() {
                "r" | "R" => Key::Reroll,
                "q" | "Q" => {
                    quit.store(true, Ordering::Relaxed);
                    Key::Quit
                }
                "" => Key::Regenerate,
                other => {
                    eprintln!("watch: '{other}'? type r (re-roll), Enter (regenerate) or q (quit)");
                    continue;
                }
            };
            if tx.send(key).is_err() {
                break;
            }
        }
    });
    rx
}

/// A new seed, different from `old`, short enough to retype.
fn fresh_seed(old: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let mut rng = warren_core::rng::Rng::new(nanos ^ old.rotate_left(17));
    loop {
        let s = rng.below(1_000_000_000);
        if s != old {
            return s;
        }
    }
}
