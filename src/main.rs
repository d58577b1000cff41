//! The `warren` binary: parse arguments, run, map the outcome to an exit code.
//!
//! The libraries report typed errors (`warren_lua::Error`, made with thiserror); here, at the
//! top, they travel as `anyhow::Error` with everything else that can go wrong, and the exit code
//! comes from the typed error when there is one.

use clap::Parser;
use std::process::ExitCode;
use warren::cli::{Cli, Command};

// Generation allocates many small, short-lived objects (Lua tables, annotations); mimalloc
// serves them several times faster than the system allocator. See `warren::memory`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Holds transparent huge pages back from the start: an ELF constructor runs before Rust's
/// runtime allocates anything. See `warren::memory`.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static HOLD_HUGE_PAGES: extern "C" fn() = warren::memory::hold_huge_pages;

fn main() -> ExitCode {
    // SAFETY: no other thread exists yet.
    unsafe { warren::memory::keep_freed_memory() };
    let cli = Cli::parse();
    // A batch lets huge pages go once its workers have loaded their recipes; a single map
    // keeps them from its start.
    if !matches!(cli.command, Command::Batch(_)) {
        warren::memory::release_huge_pages();
    }
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
