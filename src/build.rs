//! The `warren` binary's layout: on x86_64 Linux with glibc, when rustc links with its own lld
//! (its default there since Rust 1.90), the functions start-up and a map run are placed first in
//! `.text`, side by side, by the linker script `src/hot-text.ld` (written by
//! `benches/startup/hot_text.py`): start-up touches fewer pages of the binary (BENCHMARKS.md, "a
//! whole `warren run` of a small map"). The script is lld's (`OVERWRITE_SECTIONS`), so it is
//! left out when the build names a linker of its own. Sets `cfg(warren_hot_text)` when it is
//! handed over, for `tests/cli/cli.rs` to check the layout.

use std::env;

/// The linker script, relative to the package root.
const SCRIPT: &str = "src/hot-text.ld";

fn main() {
    println!("cargo::rerun-if-changed={SCRIPT}");
    println!("cargo::rerun-if-changed=src/build.rs");
    println!("cargo::rerun-if-env-changed=RUSTC_LINKER");
    println!("cargo::rustc-check-cfg=cfg(warren_hot_text)");
    let target = |key: &str| env::var(format!("CARGO_CFG_TARGET_{key}")).unwrap_or_default();
    let x86_64_glibc =
        target("ARCH") == "x86_64" && target("OS") == "linux" && target("ENV") == "gnu";
    if x86_64_glibc && links_with_rustc_lld() {
        let root = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
        println!("cargo::rustc-link-arg-bin=warren=-Wl,-T,{root}/{SCRIPT}");
        println!("cargo::rustc-cfg=warren_hot_text");
    }
}

/// Whether the binary is linked by rustc's own lld: no linker is named for the target (cargo's
/// `target.<triple>.linker`, which it hands build scripts as `RUSTC_LINKER`) and no compiler flag
/// chooses one (`-C linker=…`, `-C linker-features=…`, `-C link-self-contained=…`,
/// `-fuse-ld=…` through `-C link-arg`).
fn links_with_rustc_lld() -> bool {
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    env::var_os("RUSTC_LINKER").is_none()
        && !flags.split('\x1f').any(|flag| {
            ["linker", "link-self-contained", "fuse-ld"]
                .iter()
                .any(|word| flag.contains(word))
        })
}
