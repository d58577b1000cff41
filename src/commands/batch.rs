//! `warren batch`: many seeds in parallel, measured, summarised, optionally saved.

use super::stats::{check_stat_outputs, write_plot};
use crate::batch::{self, Batch, MapFiles, Stopped};
use crate::cli::batch::BatchArgs;
use crate::output::Inputs;
use crate::render::Format;
use crate::stats::{table, SeedPlan};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::Arc;
use warren_lua::error::{Error, Result};
use warren_lua::limits::Requested;
use warren_lua::run::load_registry;
use warren_lua::Host;

/// The worker count: `--jobs`, else one per core; never more than the cores, since more threads
/// only share them, and a generation's time budget is wall-clock time; and never more than the
/// `seeds` to generate (at least one), since each worker loads the recipe before its first
/// map: a one-map batch on two cores took 7.2 ms with a second worker loading for nothing,
/// 4.5 ms without.
fn worker_count(asked: Option<u64>, seeds: u64) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let needed = usize::try_from(seeds.max(1)).unwrap_or(usize::MAX);
    let jobs = match asked {
        None => cores,
        Some(j) if j as usize > cores => {
            eprintln!(
                "warning: --jobs {j} is more than the {cores} available core(s); using {cores} (more workers would only share the cores, and each generation's time budget counts wall-clock time)"
            );
            cores
        }
        Some(j) => j as usize,
    };
    jobs.min(needed)
}

/// Refuses `--records`, `--plot` or `--out-dir` pointed at an input. (A saved map is named
/// `SCRIPT-SEED.EXT` with a `txt`, `ans`, `json`, `png` or `tmx` extension, which no recipe, module or
/// region file inside the directory can be named, so the directory itself is what is checked.)
fn check_outputs(args: &BatchArgs, inputs: &Inputs) -> Result<()> {
    if let Some(dir) = &args.out_dir {
        inputs.check("--out-dir", dir)?;
    }
    check_stat_outputs(&args.output, inputs)
}

/// Executes `warren batch`.
pub fn run(args: BatchArgs) -> Result<()> {
    args.seed_start.checked_add(args.count).ok_or_else(|| {
        Error::Param(format!(
            "--seed-start {} + --count {} is past the largest seed {}",
            args.seed_start,
            args.count,
            u64::MAX
        ))
    })?;
    let plan = SeedPlan {
        start: args.seed_start,
        count: args.count,
        shard: args.shard,
    };
    let files = args.out_dir.clone().map(|dir| MapFiles {
        dir,
        format: args
            .format
            .as_deref()
            .and_then(Format::from_name)
            .unwrap_or(Format::Json),
        scale: args.scale,
    });
    let seeds = plan.seeds();
    let jobs = worker_count(args.jobs, seeds.end - seeds.start);
    let registry = Arc::new(load_registry(args.regions.as_deref(), &args.script)?);
    let limits = super::limits_from(
        Some(&registry),
        Requested {
            instructions: args.max_instructions,
            memory_mib: args.max_memory,
            seconds: args.max_seconds,
        },
    )?;
    let interrupt = catch_signals()?;
    let batch = Batch {
        registry,
        script: args.script.clone(),
        limits,
        sets: super::split_assignments(&args.sets)?,
        plan,
        jobs,
        files,
        records: args.output.records.clone(),
        metrics: args.output.metrics.clone(),
        progress: std::io::stderr().is_terminal(),
        interrupt,
        exits_after: true,
        stream: None,
        background: false,
        turns: None,
    };
    // Records are written while the batch runs: outputs are checked first, against everything
    // the recipe reads once loaded (its region files and the modules it requires). The loaded
    // recipe then runs as the first worker; the others load theirs meanwhile.
    let load_first = || -> Result<Host> {
        let host = Host::load(&batch.script, batch.registry.clone(), limits)?;
        check_outputs(
            &args,
            &super::inputs(&host, &batch.registry, args.regions.as_deref()),
        )?;
        Ok(host)
    };
    let report = batch::run(&batch, load_first)?;
    let data = &report.data;
    print!("{}", table(data));
    if args.timing {
        let maps = data.maps().max(1) as f64;
        let secs = report.elapsed.as_secs_f64();
        println!(
            "\ntiming: {} maps in {secs:.3} s with {jobs} job(s), one Lua state per job: {:.0} maps/s, {:.2} µs/map",
            data.maps(),
            maps / secs.max(1e-9),
            secs * 1e6 / maps,
        );
        let states = report.states;
        println!(
            "state between maps: {} resets ({} objects put back), {} reloads",
            states.resets, states.restored, states.reloads
        );
    }
    write_plot(data, &args.output)?;
    if let Some(stopped) = report.stopped {
        let _ = std::io::stdout().flush();
        eprintln!("{}", resume_message(&args, &plan, &stopped, data.maps()));
        std::process::exit(128 + stopped.signal as i32);
    }
    match data.first_failures().first() {
        None => Ok(()),
        Some((seed, msg)) => Err(Error::Script(format!(
            "{} of {} maps failed; the first, seed {seed}: {msg}",
            data.failed(),
            data.maps()
        ))),
    }
}

/// Routes SIGINT and SIGTERM to a flag holding the signal's number, so the batch stops cleanly;
/// a second signal ends the process at once (exit 130 / 143).
fn catch_signals() -> Result<Arc<AtomicUsize>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag;
    let which = Arc::new(AtomicUsize::new(0));
    let caught = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        let registered = flag::register_conditional_shutdown(signal, 128 + signal, caught.clone())
            .and_then(|_| flag::register_usize(signal, which.clone(), signal as usize))
            .and_then(|_| flag::register(signal, caught.clone()));
        registered.map_err(|e| Error::Internal(format!("catching signal {signal}: {e}")))?;
    }
    Ok(which)
}

/// What to tell the user when a batch stopped early: what was kept and how to do the rest. A
/// batch that saves records or maps continues where it stopped when the same command runs
/// again (its journal holds the records so far); one that saves nothing starts over.
fn resume_message(args: &BatchArgs, plan: &SeedPlan, stopped: &Stopped, done: u64) -> String {
    let name = match stopped.signal as i32 {
        signal_hook::consts::SIGINT => "SIGINT".to_string(),
        signal_hook::consts::SIGTERM => "SIGTERM".to_string(),
        other => format!("signal {other}"),
    };
    let seeds = plan.seeds();
    let kept = match (done, &stopped.journal) {
        (0, _) => "no map was finished".to_string(),
        (_, None) => format!(
            "the statistics above cover seeds {}..={}",
            seeds.start,
            stopped.next_seed - 1
        ),
        (_, Some(journal)) => format!(
            "the statistics above, and the {} of seeds {}..={}, are kept in {} until the batch completes",
            match (&args.output.records, &args.out_dir) {
                (Some(_), Some(_)) => "maps and records",
                (Some(_), None) => "records",
                _ => "maps",
            },
            seeds.start,
            stopped.next_seed - 1,
            journal.display()
        ),
    };
    let again = match &stopped.journal {
        Some(_) => format!("it continues from seed {}", stopped.next_seed),
        None => "it starts over: nothing was saved; with --records or --out-dir, an interrupted batch continues where it stopped".to_string(),
    };
    // The same command, every flag as given: whatever shaped the output shapes the rest.
    let mut command = vec!["warren".to_string()];
    command.extend(
        std::env::args_os()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned()),
    );
    format!(
        "warren: interrupted by {name} after {done} of {} maps; {kept}.\nresume with: {}\n({again})",
        seeds.end - seeds.start,
        shell_words(&command)
    )
}

/// Words joined into a command line, single-quoted where the shell would split or expand them.
fn shell_words(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            let plain = !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=,:@%+".contains(c));
            if plain {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
