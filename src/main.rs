//! The `warren` binary: parse arguments, run, map the outcome to an exit code.
//!
//! The libraries report typed errors (`warren_lua::Error`, made with thiserror); here, at the
//! top, they travel as `anyhow::Error` with everything else that can go wrong, and the exit code
//! comes from the typed error when there is one.

use clap::Parser;
use std::process::ExitCode;
use warren::cli::Cli;

// Generation allocates many small, short-lived objects (Lua tables, annotations); mimalloc
// serves them several times faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (`mimalloc.h`, v3: the 16th option): how long freed
/// memory waits before it goes back to the system; -1 keeps it.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// warren makes map after map of about the same size: memory one map frees is kept for the
/// next, instead of being handed back to the system and faulted in again, zeroed, a page at a
/// time (a 399×399 town spent 15% of its time zeroing pages it had just freed). The peak is
/// what one generation may use (its memory budget), so keeping it costs nothing a map could not
/// take anyway. `MIMALLOC_PURGE_DELAY` in the environment still decides, when it is set.
fn keep_freed_memory() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // SAFETY: sets a mimalloc option before any thread but this one exists (the options are
    // not thread safe); the option index is mimalloc v3's, which this crate builds.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
}

fn main() -> ExitCode {
    keep_freed_memory();
    let cli = Cli::parse();
    // Panics are reported once, as internal errors, by the catch below.
    std::panic::set_hook(Box::new(|_| {}));
    match std::panic::catch_unwind(|| run(cli)) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => report(&e),
        Err(p) => report(&anyhow::Error::new(warren_lua::Error::Internal(
            p.downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".into()),
        ))),
    }
}

/// Runs the command line's command.
fn run(cli: Cli) -> anyhow::Result<()> {
    warren::commands::dispatch(cli.command)?;
    Ok(())
}

/// Prints `error` once, on stderr, and gives its exit code: a warren error's own (1 bad input
/// or a failed generation, 2 a usage mistake, 3 a bug in warren), else 1.
fn report(error: &anyhow::Error) -> ExitCode {
    eprintln!("error: {error:#}");
    let code = error
        .downcast_ref::<warren_lua::Error>()
        .map_or(1, warren_lua::Error::exit_code);
    ExitCode::from(code as u8)
}
