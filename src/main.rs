//! The `warren` binary: parse arguments, run, map the outcome to an exit code.
//!
//! Every command reports a typed error (`warren_lua::Error`, made with thiserror); here, at the
//! top, it is printed once and gives the exit code.
//!
//! On glibc Linux the process starts at this file's own C `main`, not the standard library's
//! (see [`main`]).
#![cfg_attr(all(target_os = "linux", target_env = "gnu"), no_main)]

use clap::Parser;
use std::io::Write;
use warren::cli::{Cli, Command};

// Generation allocates many small, short-lived objects (Lua tables, annotations); mimalloc
// serves them several times faster than the system allocator. See `warren::memory`. Counted per
// thread: a generation's `--max-memory` account is what its thread holds (`warren_lua::account`).
#[cfg(not(feature = "uncounted-bench"))]
#[global_allocator]
static ALLOCATOR: warren_lua::account::Counting<warren::memory::Huge<warren::memory::Classes>> =
    warren_lua::account::Counting(warren::memory::Huge(warren::memory::Classes));

/// The same without the account, for measuring what it costs (the `uncounted-bench` feature,
/// benches/pure_lua/run.sh).
#[cfg(feature = "uncounted-bench")]
#[global_allocator]
static ALLOCATOR: warren::memory::Huge<warren::memory::Classes> =
    warren::memory::Huge(warren::memory::Classes);

/// Holds transparent huge pages back from the start: an ELF constructor runs before Rust's
/// runtime allocates anything. See `warren::memory`.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static HOLD_HUGE_PAGES: extern "C" fn() = warren::memory::hold_huge_pages;

/// Makes mimalloc's arenas small enough to start fast: an ELF constructor, as above. See
/// `warren::memory::reserve_small_arenas`.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static SMALL_ARENAS: extern "C" fn() = warren::memory::reserve_small_arenas;

/// The process's entry point on glibc Linux, in place of the standard library's start. That
/// start sets up, before any code of warren's runs, a handler that names the thread whose stack
/// overflowed, and finds the main thread's stack for it by reading and parsing
/// `/proc/self/maps`: about 0.08 ms of a small map's 2.6 ms run (its system calls, 175 → 159).
/// Without it a stack overflow ends the process by SIGSEGV, with no message, as a C program's
/// does (the recipe's Lua and the region files' nesting are bounded well before one). What else
/// the standard library's start does and warren relies on is done by [`prepare_process`]; the
/// arguments are read through `std::env` as before (glibc hands them to the standard library's
/// constructor).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    prepare_process();
    // A panic outside the command's own catch (in reading the arguments, say) ends the process
    // as the standard library's start ends it, with exit code 101, not as an abort.
    let _ = std::panic::catch_unwind(|| {
        start();
    });
    std::process::exit(101)
}

/// The standard library's start, elsewhere.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn main() {
    start()
}

/// What the standard library's start does that warren relies on, for the entry point above:
/// standard streams the process was started without are opened on `/dev/null`, so that no file
/// warren opens takes their number (and the output or messages meant for them); and SIGPIPE is
/// ignored, so that a closed pipe is a write error ("Broken pipe", exit code 1), not a silent
/// death.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn prepare_process() {
    for fd in 0..3 {
        // SAFETY: F_GETFD only reads the descriptor's flags, and `open` takes the lowest free
        // number: `fd`, as the ones below it are open by then. Without `/dev/null` the process
        // cannot keep its streams apart from its files, and ends (as the standard library's
        // start ends it).
        unsafe {
            if libc::fcntl(fd, libc::F_GETFD) == -1
                && libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) != fd
            {
                libc::abort();
            }
        }
    }
    // SAFETY: sets one signal's disposition; no handler is involved.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
}

/// Parses the arguments, runs the command and exits with its code.
fn start() -> ! {
    // SAFETY: no other thread exists yet.
    unsafe { warren::memory::keep_freed_memory() };
    // SAFETY: the global allocator itself.
    unsafe { warren_lua::account::set_regrow(&ALLOCATOR) };
    let cli = Cli::parse();
    // A batch lets huge pages go once its workers have loaded their recipes; a single map
    // keeps them from its start.
    if !matches!(cli.command, Command::Batch(_)) {
        warren::memory::release_huge_pages();
    }
    // Panics are reported once, as internal errors, by the catch below.
    std::panic::set_hook(Box::new(|_| {}));
    let code = match std::panic::catch_unwind(|| run(cli)) {
        Ok(Ok(())) => 0,
        Ok(Err(e)) => report(&e),
        Err(p) => report(&warren_lua::Error::Internal(
            p.downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".into()),
        )),
    };
    exit(code)
}

/// Runs the command line's command.
fn run(cli: Cli) -> warren_lua::Result<()> {
    warren::commands::dispatch(cli.command)
}

/// Prints `error` once, on stderr, and gives its exit code (1 bad input or a failed
/// generation, 2 a usage mistake, 3 a bug in warren).
fn report(error: &warren_lua::Error) -> i32 {
    // Standard error closed or full: the exit code still says what went wrong.
    let _ = writeln!(std::io::stderr(), "error: {error}");
    error.exit_code()
}

/// mimalloc's `mi_option_show_stats` and `mi_option_verbose` (`mimalloc.h`, v3): statistics
/// printed at exit.
const MI_OPTION_SHOW_STATS: libmimalloc_sys::mi_option_t = 1;
const MI_OPTION_VERBOSE: libmimalloc_sys::mi_option_t = 2;

/// Ends the process with `code` once its output is flushed. On Unix it skips the libraries'
/// exit handlers: mimalloc's (it collects its heap page by page and merges statistics nobody
/// reads), the C library's, and in a dynamically linked build the loader's. With the code and
/// data they fault in, they took 0.1–0.3 ms of every run (30 of a one-map batch's 470 page
/// faults). By then every file warren writes is closed, and its Lua states are left to the exit
/// on purpose (`Host::leave_to_exit`).
fn exit(code: i32) -> ! {
    warren::memory::report_peak();
    // Errors are ignored, as the standard library's own flush at exit ignores them.
    let _ = std::io::stdout().flush();
    #[cfg(unix)]
    if !exit_handlers_wanted() {
        // SAFETY: fflush(NULL) flushes every C stream (should anything have written to one);
        // _exit ends the process.
        unsafe {
            libc::fflush(std::ptr::null_mut());
            libc::_exit(code)
        }
    }
    std::process::exit(code)
}

/// Whether what the exit handlers do was asked for: mimalloc's statistics
/// (`MIMALLOC_SHOW_STATS`, `MIMALLOC_VERBOSE`), or a profile written at exit: a coverage build
/// (`--cfg coverage`, as cargo-llvm-cov makes), or any run with `LLVM_PROFILE_FILE` set, as the
/// training runs of benches/pgo/build.sh's instrumented build are (a plain build has nothing to
/// write, and only exits a little later).
#[cfg(unix)]
fn exit_handlers_wanted() -> bool {
    cfg!(coverage)
        || std::env::var_os("LLVM_PROFILE_FILE").is_some()
        || [MI_OPTION_SHOW_STATS, MI_OPTION_VERBOSE]
            .into_iter()
            // SAFETY: reads an option.
            .any(|o| unsafe { libmimalloc_sys::mi_option_is_enabled(o) })
}
