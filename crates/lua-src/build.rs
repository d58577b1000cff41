//! Compiles Lua 5.4.8 with warren's patch (`LUA_WARREN`, see `WARREN.md`) into the static
//! library `warren_lua54` and links it into this crate, for every target Lua builds on. The
//! target switches follow the upstream `lua-src` crate this one replaces.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The patched sources, relative to this crate.
const SOURCES: &str = "lua-5.4.8";
/// The library's name: not `lua5.4`, so a system Lua on the search path can never stand in.
const LIB: &str = "warren_lua54";
/// The headers a C caller of the patched Lua includes.
const HEADERS: [&str; 5] = ["lauxlib.h", "lua.h", "luaconf.h", "lualib.h", "lwarren.h"];

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let target = env::var("TARGET").expect("cargo sets TARGET");
    let mut sources = manifest.join(SOURCES);
    println!("cargo:rerun-if-changed={SOURCES}");
    println!("cargo:rerun-if-changed=build.rs");

    let mut config = cc::Build::new();
    config.warnings(false).cargo_metadata(false);
    match target.as_str() {
        t if t.contains("linux") || t.ends_with("bsd") => {
            config.define("LUA_USE_LINUX", None);
        }
        t if t.contains("apple-darwin") => {
            config.define("LUA_USE_MACOSX", None);
        }
        t if t.contains("apple-ios") => {
            config.define("LUA_USE_IOS", None);
        }
        t if t.contains("windows") => {
            config.define("LUA_USE_WINDOWS", None);
        }
        t if t.ends_with("emscripten") => {
            // Lua errors as C++ exceptions, so that they can unwind through Rust frames.
            config
                .define("LUA_USE_POSIX", None)
                .cpp(true)
                .flag("-fexceptions");
            sources = as_cpp(&sources, &out.join("cpp_source"));
        }
        t if t.contains("wasi") => {
            // WASI is posix-like; signals are emulated and setjmp/longjmp need the
            // exception-handling proposal.
            config
                .define("LUA_USE_POSIX", None)
                .define("_WASI_EMULATED_SIGNAL", None);
            for flag in [
                "-wasm-enable-eh",
                "-wasm-use-legacy-eh=false",
                "-wasm-enable-sjlj",
            ] {
                config.flag("-mllvm").flag(flag);
            }
            println!("cargo:rustc-link-lib=wasi-emulated-signal");
            println!("cargo:rustc-link-lib=setjmp");
        }
        t => panic!("warren-lua-src does not know how to build Lua for {t}"),
    }
    config.define("LUA_COMPAT_5_3", None);
    // Every change to the sources is guarded by this macro (see WARREN.md).
    config.define("LUA_WARREN", None);
    // Lua's API checks in builds with debug assertions, as mlua's vendored Lua has them.
    if env::var_os("CARGO_CFG_DEBUG_ASSERTIONS").is_some() {
        config.define("LUA_USE_APICHECK", None);
    }
    let objects = profile_guided(&mut config, &out).unwrap_or_else(|| out.clone());
    config
        .include(&sources)
        .flag_if_supported("-fno-common")
        .files(c_files(&sources))
        .out_dir(&objects)
        .compile(LIB);
    // Bundled into this crate's rlib, and linked whole: the linker then has every Lua function
    // wherever this rlib falls on its command line. Rust orders crates dependents first, and
    // mlua (which calls Lua) does not depend on this crate, so a single-pass linker (GNU ld)
    // could meet this library before mlua asks for `luaopen_*`. Unused functions still go
    // (`--gc-sections`: cc compiles one section per function).
    println!("cargo:rustc-link-search=native={}", objects.display());
    println!("cargo:rustc-link-lib=static:+whole-archive={LIB}");
    // Dependents' build scripts get the headers.
    let include = out.join("include");
    fs::create_dir_all(&include).expect("creating the include directory");
    for h in HEADERS {
        fs::copy(sources.join(h), include.join(h)).expect("copying a Lua header");
    }
    println!("cargo:include={}", include.display());
    link_unwinder_statically(&config, &out);
}

/// A profile-guided build of the Lua library, as `WARREN_LUA_PGO` asks (benches/pgo/build.sh
/// sets it; GCC only): `generate=DIR` compiles it to count its branches into `DIR/counts` at
/// each program's exit, `use=DIR` compiles it with those counts (`DIR` absolute). GCC names
/// each file's counts after its object file's path, so both builds put their objects in
/// `DIR/objects` (returned), the same path whatever the target directory.
fn profile_guided(config: &mut cc::Build, out: &Path) -> Option<PathBuf> {
    println!("cargo:rerun-if-env-changed=WARREN_LUA_PGO");
    let asked = env::var_os("WARREN_LUA_PGO")?
        .to_string_lossy()
        .into_owned();
    // Only the copy whose Rust neighbours are profiled too (the script gives rustc's profile
    // flags to the target's units alone): not the copy built for the build machine, which
    // compiles the prelude at build time and whose files would take the same names.
    let rustflags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    if !rustflags.contains("-Cprofile-") {
        return None;
    }
    let (step, dir) = asked
        .split_once('=')
        .filter(|(_, dir)| Path::new(dir).is_absolute())
        .unwrap_or_else(|| {
            panic!("WARREN_LUA_PGO={asked:?}: expected generate=DIR or use=DIR, DIR absolute")
        });
    if !config.get_compiler().is_like_gnu() {
        panic!("WARREN_LUA_PGO: a profile-guided Lua needs GCC, and the C compiler here is not");
    }
    let counts = Path::new(dir).join("counts");
    match step {
        "generate" => {
            config
                .flag(format!("-fprofile-generate={}", counts.display()))
                // Lua states run on several threads in a batch of several jobs.
                .flag("-fprofile-update=prefer-atomic");
            link_gcov(config, out);
        }
        "use" => {
            // New counts, a new build.
            println!("cargo:rerun-if-changed={}", counts.display());
            config
                .flag(format!("-fprofile-use={}", counts.display()))
                // A function the training never ran is compiled as without counts.
                .flag("-fprofile-partial-training")
                .flag("-Wno-missing-profile");
        }
        _ => panic!("WARREN_LUA_PGO={asked:?}: expected generate=DIR or use=DIR"),
    }
    let objects = Path::new(dir).join("objects");
    fs::create_dir_all(&objects).expect("creating the profile-guided build's object directory");
    Some(objects)
}

/// Links GCC's profiling runtime (`libgcov.a`) into every program built on this crate, as
/// `-fprofile-generate` does when GCC links: a copy in a directory of its own, so that the
/// linker searches nothing else of the compiler's directory (see [`link_unwinder_statically`]).
fn link_gcov(config: &cc::Build, out: &Path) {
    let Some(archive) = compiler_file(config, "libgcov.a") else {
        panic!("WARREN_LUA_PGO=generate=…: the C compiler has no libgcov.a");
    };
    let dir = out.join("gcov");
    fs::create_dir_all(&dir).expect("creating the profiling runtime's directory");
    fs::copy(&archive, dir.join("libgcov.a")).expect("copying libgcov.a");
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=static=gcov");
}

/// The path of the C compiler's own file `name` (a runtime library), if it has one.
fn compiler_file(config: &cc::Build, name: &str) -> Option<PathBuf> {
    let found = Command::new(config.get_compiler().path())
        .arg(format!("-print-file-name={name}"))
        .output()
        .ok()?;
    // The compiler prints the bare name back when it has no such file.
    let path = PathBuf::from(String::from_utf8_lossy(&found.stdout).trim());
    (found.status.success() && path.is_absolute() && path.is_file()).then_some(path)
}

/// On glibc Linux, links GCC's unwinder into every program built on this crate, from
/// `libgcc_eh.a` (as `-static-libgcc` and static builds do), instead of loading `libgcc_s.so.1`
/// as each process starts. Loading it cost a small map's `warren run` about 0.1 ms of its 2.2:
/// mapping one more library, and the library's constructor, which asks the processor its
/// features with `cpuid`, an instruction a virtual machine traps (about 4 µs each on the
/// development machine). The standard library asks the linker for `-lgcc_s`; a linker script
/// named `libgcc_s.so`, in a directory searched before the system's, answers with the archive.
/// Unwinding (a panic caught as an internal error) works as before. Where the compiler knows no
/// such archive (another C library or compiler) nothing changes.
fn link_unwinder_statically(config: &cc::Build, out: &Path) {
    let gnu_linux = env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux")
        && env::var("CARGO_CFG_TARGET_ENV").is_ok_and(|e| e == "gnu");
    if !gnu_linux {
        return;
    }
    let Some(archive) = compiler_file(config, "libgcc_eh.a") else {
        return;
    };
    let dir = out.join("unwinder");
    fs::create_dir_all(&dir).expect("creating the unwinder's directory");
    fs::write(
        dir.join("libgcc_s.so"),
        format!("INPUT(\"{}\")\n", archive.display()),
    )
    .expect("writing the unwinder's linker script");
    println!("cargo:rustc-link-search=native={}", dir.display());
}

/// The `.c` files of `dir`, sorted (the library's contents do not depend on directory order).
fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

/// A copy of the sources in `to` whose public headers are wrapped in `extern "C"`, for a C++
/// build: returns `to`.
fn as_cpp(from: &Path, to: &Path) -> PathBuf {
    if to.exists() {
        fs::remove_dir_all(to).expect("clearing the C++ sources");
    }
    fs::create_dir_all(to).expect("creating the C++ sources");
    for entry in fs::read_dir(from).expect("reading the Lua sources") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().expect("a file name").to_owned();
        let mut content = fs::read(&path).expect("reading a Lua source");
        if ["lauxlib.h", "lua.h", "lualib.h", "lwarren.h"]
            .iter()
            .any(|h| name == *h)
        {
            content.splice(0..0, b"extern \"C\" {\n".iter().copied());
            content.extend_from_slice(b"\n}");
        }
        fs::write(to.join(&name), content).expect("writing a C++ source");
    }
    to.to_path_buf()
}
