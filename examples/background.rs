//! Generating levels on a background thread while the game loop keeps ticking (`warren-lua`
//! only). A [`Host`] is not `Send` (it owns a Lua state), so it is made on the worker thread
//! and stays there; requests go in and finished levels ([`GeneratedLevel`], holding a `Map`, is `Send`)
//! come back over channels. The loop never waits for a map: it polls once per frame.
//!
//! ```sh
//! cargo run -p warren-lua --example background                  # dungeon.lua, 3 levels, 2 runs
//! cargo run -p warren-lua --example background -- scripts/cave.lua 5
//! ```
//!
//! It checks what it shows (CI runs it): the loop ticked while every run was being generated,
//! and the levels that came back equal those a host on the main thread makes for the same seed.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};
use warren_lua::run::{self, GeneratedLevel};
use warren_lua::{Host, Limits};

/// What the game asks the worker for: a run of `levels` levels from `seed`.
struct Request {
    seed: u64,
    levels: u32,
}

/// What comes back: the request's seed and its levels, or why there are none.
type Reply = (u64, warren_lua::Result<Vec<GeneratedLevel>>);

/// One frame of the game loop.
const FRAME: Duration = Duration::from_millis(2);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = args
        .first()
        .map_or_else(|| root.join("scripts/dungeon.lua"), PathBuf::from);
    let levels: u32 = args.get(1).map_or(Ok(3), |n| n.parse())?;

    let (requests, replies) = start_worker(script.clone());
    let seeds = [7, 8];
    for seed in seeds {
        requests.send(Request { seed, levels })?;
    }
    // The game loop: one tick per frame, a look at the mailbox each time.
    let mut received = Vec::new();
    let mut ticks = 0u64;
    let started = Instant::now();
    while received.len() < seeds.len() {
        ticks += 1;
        match replies.try_recv() {
            Ok((seed, result)) => {
                let made = result?;
                println!(
                    "tick {ticks}: seed {seed}: {} levels of {} arrived after {:.0?}",
                    made.len(),
                    script.display(),
                    started.elapsed()
                );
                received.push((seed, made, ticks));
            }
            Err(TryRecvError::Empty) => thread::sleep(FRAME),
            Err(TryRecvError::Disconnected) => return Err("the worker stopped".into()),
        }
    }
    drop(requests); // the worker ends when no more requests can come

    // The loop went on while the worker generated: ticks passed before the first reply.
    let first_arrival = received[0].2;
    if first_arrival < 2 {
        return Err(format!("the loop did not tick while generating ({ticks} ticks)").into());
    }
    // A map made on another thread is the map of its seed.
    let registry = Arc::new(run::load_registry(None, &script)?);
    let host = Host::load(&script, registry, Limits::default())?;
    let params = host.resolve_params(&[])?;
    for (seed, made, _) in &received {
        let here = run::generate_levels(&host, *seed, &params, levels)?;
        let same = here.len() == made.len()
            && here.iter().zip(made).all(|(a, b)| {
                a.seed == b.seed
                    && a.map.terrain_cells() == b.map.terrain_cells()
                    && a.map.region_cells() == b.map.region_cells()
                    && a.map.notes == b.map.notes
            });
        if !same {
            return Err(
                format!("seed {seed}: the worker's levels differ from the main thread's").into(),
            );
        }
    }
    println!(
        "{} runs generated in the background over {ticks} ticks; the loop never waited; \
         the levels equal the main thread's",
        received.len()
    );
    Ok(())
}

/// Starts the worker: it loads `script` into a host of its own and answers requests until the
/// sender is dropped.
fn start_worker(script: PathBuf) -> (Sender<Request>, Receiver<Reply>) {
    let (request_tx, request_rx) = mpsc::channel::<Request>();
    let (reply_tx, reply_rx) = mpsc::channel::<Reply>();
    thread::spawn(move || {
        // Made here, used here: the host never crosses a thread.
        let loaded = run::load_registry(None, &script)
            .map(Arc::new)
            .and_then(|registry| Host::load(&script, registry, Limits::default()));
        let host = match loaded {
            Ok(host) => host,
            Err(e) => {
                let _ = reply_tx.send((0, Err(e)));
                return;
            }
        };
        for request in request_rx {
            let result = host.resolve_params(&[]).and_then(|params| {
                run::generate_levels(&host, request.seed, &params, request.levels)
            });
            if reply_tx.send((request.seed, result)).is_err() {
                break; // the game is gone
            }
        }
    });
    (request_tx, reply_rx)
}
