//! The `warren` binary's layout: on x86_64 Linux with glibc the functions start-up and a map run
//! are placed first in `.text`, side by side, by the linker script `src/hot-text.ld` (written by
//! `benches/startup/hot_text.py`): start-up touches fewer pages of the binary (BENCHMARKS.md, "a
//! whole `warren run` of a small map"). The script is lld's (`OVERWRITE_SECTIONS`: the linker
//! rustup's toolchains link with on that target since Rust 1.90), so an empty program is linked
//! with it first, the way the binary will be, and the script is handed over only if that works:
//! with another linker (GNU ld, mold, a distribution's rustc) the binary is linked as before,
//! with a warning. Sets `cfg(warren_hot_text)` when it is handed over and
//! `cfg(warren_hot_text_refused)` when the linker refused it, for `tests/cli/cli.rs`.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The linker script, relative to the package root.
const SCRIPT: &str = "src/hot-text.ld";

fn main() {
    println!("cargo::rerun-if-changed={SCRIPT}");
    println!("cargo::rerun-if-changed=src/build.rs");
    println!("cargo::rustc-check-cfg=cfg(warren_hot_text, warren_hot_text_refused)");
    let target = |key: &str| env::var(format!("CARGO_CFG_TARGET_{key}")).unwrap_or_default();
    if !(target("ARCH") == "x86_64" && target("OS") == "linux" && target("ENV") == "gnu") {
        return;
    }
    let root = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let script = Path::new(&root).join(SCRIPT);
    // `-Xlinker` pairs, not `-Wl,-T,PATH`: a comma in the path would split it.
    let args = ["-Xlinker".into(), "-T".into(), "-Xlinker".into(), script];
    if links_with(&args) {
        for arg in &args {
            println!("cargo::rustc-link-arg-bin=warren={}", arg.display());
        }
        println!("cargo::rustc-cfg=warren_hot_text");
    } else {
        println!(
            "cargo::warning=the linker refused {SCRIPT} (it needs lld), so the warren binary is \
             linked without its start-up layout"
        );
        println!("cargo::rustc-cfg=warren_hot_text_refused");
    }
}

/// Whether an empty program links with the extra linker arguments `args`, built by the compiler,
/// for the target, with the flags and the linker cargo gives this package's own build.
fn links_with(args: &[PathBuf]) -> bool {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let source = out.join("hot_text_probe.rs");
    if std::fs::write(&source, "fn main() {}\n").is_err() {
        return false;
    }
    let mut rustc = Command::new(env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()));
    rustc
        .arg(&source)
        .arg("--target")
        .arg(env::var("TARGET").unwrap_or_default())
        .arg("-o")
        .arg(out.join("hot_text_probe"))
        .args(
            env::var("CARGO_ENCODED_RUSTFLAGS")
                .unwrap_or_default()
                .split('\x1f')
                .filter(|flag| !flag.is_empty()),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(linker) = env::var_os("RUSTC_LINKER") {
        let mut flag = std::ffi::OsString::from("linker=");
        flag.push(linker);
        rustc.arg("-C").arg(flag);
    }
    for arg in args {
        rustc.arg("-C").arg({
            let mut flag = std::ffi::OsString::from("link-arg=");
            flag.push(arg);
            flag
        });
    }
    rustc.status().is_ok_and(|status| status.success())
}
