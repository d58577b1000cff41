//! Helpers the tests of the binary share: the repository's tree, the binary run from it, temporary
//! trees beside a copy of the shipped regions, and a host for the sweeps that check many seeds.

#[cfg(unix)]
pub mod process;
pub mod schema;
pub mod server;
pub mod webdriver;

use std::path::Path;

/// The host helpers the Lua crate's tests use, shared by path rather than written twice.
#[path = "../../../crates/lua/tests/lua/common/host.rs"]
mod host;

pub use host::*;

/// Copies directory `from` into `to`, recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            copy_dir(&p, &to.join(p.file_name().unwrap()));
        } else {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
}

/// The real `warren` binary, run from the repository root without colour, its cache (region
/// files' parse, recipes' bytecode) in the build's temporary directory rather than the home
/// directory.
pub fn warren() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("warren").unwrap();
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("warren-cache");
    c.current_dir(root())
        .env("NO_COLOR", "1")
        .env("WARREN_CACHE_DIR", cache);
    c
}

/// Runs the binary with `args`, asserts success, returns stdout.
pub fn stdout(args: &[&str]) -> Vec<u8> {
    let out = warren().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
