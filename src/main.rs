//! The `warren` binary: parse arguments, run, map the outcome to an exit code.

use clap::Parser;
use std::process::ExitCode;
use warren::cli::Cli;

// Generation allocates many small, short-lived objects (Lua tables, annotations); mimalloc
// serves them several times faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Panics are reported once, as internal errors, by the catch below.
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(|| warren::commands::dispatch(cli.command));
    let error = match outcome {
        Ok(Ok(())) => return ExitCode::SUCCESS,
        Ok(Err(e)) => e,
        Err(p) => warren_lua::Error::Internal(
            p.downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".into()),
        ),
    };
    eprintln!("error: {error}");
    ExitCode::from(error.exit_code() as u8)
}
