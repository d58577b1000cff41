//! The real binary: formats, determinism across processes, exit codes, atomic output.

use crate::common::*;
use std::collections::BTreeSet;

#[test]
fn readme_command_prints_a_map() {
    let out = String::from_utf8(stdout(&["run", "scripts/rooms.lua", "--seed", "7"])).unwrap();
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 50);
    assert!(rows.iter().all(|r| r.chars().count() == 80));
    assert!(out.contains('.') && out.contains('#') && out.contains('>'));
}

#[test]
fn same_seed_is_byte_identical_across_processes_for_every_format() {
    for script in ["scripts/rooms.lua", "scripts/cave.lua"] {
        for format in ["ascii", "ansi", "json"] {
            let args = ["run", script, "--seed", "42", "--format", format];
            assert_eq!(stdout(&args), stdout(&args), "{script} {format}");
        }
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.png"), dir.path().join("b.png"));
        for p in [&a, &b] {
            stdout(&["run", script, "--seed", "42", "--out", p.to_str().unwrap()]);
        }
        let (a, b) = (std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
        assert_eq!(a, b);
        assert_eq!(&a[..8], b"\x89PNG\r\n\x1a\n");
    }
}

#[test]
fn different_seeds_give_different_maps() {
    for script in ["scripts/rooms.lua", "scripts/cave.lua"] {
        let maps: BTreeSet<Vec<u8>> = (1..=5)
            .map(|s| stdout(&["run", script, "--seed", &s.to_string()]))
            .collect();
        assert_eq!(maps.len(), 5, "{script}");
    }
}

#[test]
fn json_follows_the_output_contract() {
    for script in ["scripts/rooms.lua", "scripts/cave.lua"] {
        let out = stdout(&[
            "run", script, "--seed", "3", "--format", "json", "--set", "width=70",
        ]);
        let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(doc["format"], 2);
        assert_eq!(doc["seed"], "3");
        let v = &doc["levels"][0];
        assert_eq!(v["width"], 70);
        let rows = v["rows"].as_array().unwrap();
        assert_eq!(rows.len() as u64, v["height"].as_u64().unwrap());
        let legend = v["legend"].as_object().unwrap();
        for row in rows {
            let row = row.as_str().unwrap();
            assert_eq!(row.chars().count(), 70);
            for g in row.chars() {
                let entry = &legend[&g.to_string()];
                assert!(
                    entry["solid"].is_boolean(),
                    "glyph {g:?} missing from legend"
                );
            }
        }
        for key in ["rooms", "corridors", "doors", "spawns"] {
            assert!(v[key].is_array(), "{key}");
        }
        assert!(v["stairs"]["up"].is_array() && v["stairs"]["down"].is_array());
        assert!(v["stats"].is_object());
    }
}

#[test]
fn json_levels_wrap_multi_level_runs() {
    let out = stdout(&[
        "run",
        "scripts/rooms.lua",
        "--seed",
        "3",
        "--format",
        "json",
        "--levels",
        "3",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["format"], 2);
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 3);
    assert_eq!(levels[0]["seed"], "3", "level 1 keeps the run's seed");
    assert_eq!(levels[2]["depth"], 3);
}

#[test]
fn missing_seed_is_drawn_and_announced() {
    let out = warren()
        .args(["run", "scripts/rooms.lua"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    let seed: u64 = err
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no seed in {err:?}"));
    assert_eq!(
        out.stdout,
        stdout(&["run", "scripts/rooms.lua", "--seed", &seed.to_string()])
    );
}

#[test]
fn bad_parameters_exit_1_with_one_message() {
    let cases: [(&[&str], &str); 5] = [
        (&["--set", "widht=3"], "unknown parameter 'widht'; did you mean 'width'? (valid: connectivity, corridor_spawns, corridors, height, max_rooms, max_size, max_spawns, min_size, width)"),
        (&["--set", "connectivity=6"], "connectivity = '6' is not one of its choices: '8', '4'"),
        (&["--set", "width=3"], "width = 3 is out of range (16..=4096)"),
        (&["--set", "width=wide"], "width = \"wide\" is not an integer"),
        (&["--set", "corridors=zigzag"], "corridors = 'zigzag' is not one of its choices: 'nearest', 'lines', 'dogleg', 'bsp'"),
    ];
    for (extra, expected) in cases {
        let out = warren()
            .args(["run", "scripts/rooms.lua", "--seed", "1"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{extra:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(expected), "{extra:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn bad_parameter_declarations_are_refused_at_their_line() {
    let cases = [
        (
            "{ default = 1, mni = 2 }",
            "unknown field 'mni' (valid: default, min, max, choices, doc)",
        ),
        (
            "{ default = 1, [1] = 2 }",
            "unknown field '1' (valid: default, min, max, choices, doc)",
        ),
        ("{ min = 1 }", "needs a default"),
        ("7", "must be a table { default = … }, got integer"),
        (
            "{ default = {} }",
            "default must be a number, boolean or string, got table",
        ),
        (
            "{ default = 1, min = 'a' }",
            "min must be a finite number, got string",
        ),
        (
            "{ default = 1, max = 0/0 }",
            "max must be a finite number, got number",
        ),
        (
            "{ default = 5, min = 3, max = 2 }",
            "min = 3 exceeds max = 2",
        ),
        (
            "{ default = 'a', min = 1 }",
            "min/max apply to numbers, but the default is a string",
        ),
        (
            "{ default = 1, choices = { 'a' } }",
            "choices apply to string parameters",
        ),
        (
            "{ default = 'a', choices = { 1, {} } }",
            "choices must be a list of strings",
        ),
        (
            "{ default = 'a', choices = 3 }",
            "choices must be a list of strings, got integer",
        ),
        (
            "{ default = 'a', doc = 3 }",
            "doc must be a string, got integer",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    copy_regions(dir.path());
    let recipe = dir.path().join("p.lua");
    for (declaration, expected) in cases {
        let text = format!(
            "return {{\n  params = {{\n    w = {declaration},\n  }},\n  generate = function(map, ctx) end }}\n"
        );
        std::fs::write(&recipe, text).unwrap();
        let out = warren()
            .current_dir(dir.path())
            .args(["run", "p.lua", "--seed", "1"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{declaration}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            err,
            format!("error: p.lua:3: params.w: {expected}\n"),
            "{declaration}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn absurd_sizes_are_refused_before_allocating() {
    let dir = temp_tree(&[(
        "big.lua",
        "return { params = { width = { default = 10 }, height = { default = 10 } }, generate = function() end }",
    )]);
    copy_regions(dir.path());
    let out = warren()
        .args([
            "run",
            dir.path().join("big.lua").to_str().unwrap(),
            "--seed",
            "1",
            "--set",
            "width=100000000",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("map size 100000000×10 is not allowed"),
        "{err}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let out = warren().args(["run"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = warren()
        .args(["run", "scripts/rooms.lua", "--format", "svg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = warren().args(["frobnicate"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn png_needs_a_file_and_output_files_are_all_or_nothing() {
    let out = warren()
        .args(["run", "scripts/rooms.lua", "--format", "png"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("--format png writes a file: add --out FILE.png"));

    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("map.json");
    let out = warren()
        .args([
            "run",
            "scripts/rooms.lua",
            "--seed",
            "1",
            "--set",
            "width=2",
            "--out",
            target.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no partial file"
    );

    stdout(&[
        "run",
        "scripts/rooms.lua",
        "--seed",
        "1",
        "--out",
        target.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&target).unwrap()).unwrap();
    assert_eq!(v["recipe"], "rooms", "format guessed from .json");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temp file left"
    );
}

#[test]
fn list_params_shows_defaults_ranges_and_docs() {
    let out = String::from_utf8(stdout(&["run", "scripts/cave.lua", "--list-params"])).unwrap();
    assert!(out.contains("roughness"));
    assert!(out.contains("1..=100"));
    assert!(out.contains("one of up, down, left, right, omni"));
    assert!(out.contains("Percent chance per row that the width changes."));
}

#[test]
fn help_has_examples() {
    let out = String::from_utf8(stdout(&["--help"])).unwrap();
    assert!(out.contains("Examples:") && out.contains("warren run scripts/rooms.lua"));
}

/// `warren.debug_panic` exists in debug builds only.
#[cfg(debug_assertions)]
#[test]
fn the_cli_reports_a_panic_as_an_internal_error_with_exit_code_3() {
    let dir = temp_tree(&[(
        "scripts/t.lua",
        "return { params = { width = { default = 8 }, height = { default = 8 } },\n\
         generate = function() pcall(warren.debug_panic, 'kaboom') end }",
    )]);
    copy_regions(dir.path());
    let out = assert_cmd::Command::cargo_bin("warren")
        .unwrap()
        .args(["run", dir.path().join("scripts/t.lua").to_str().unwrap()])
        .args(["--seed", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("internal error (a bug in warren, please report it): kaboom"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

/// On glibc Linux the binary is a static position-independent executable (`.cargo/config.toml`
/// links the C library in, and with it GCC's unwinder, `libgcc_eh.a`): it needs no shared
/// library and names no program interpreter, so no dynamic loader runs as it starts, and it is
/// still of ELF type `DYN`, loaded at a random address. The test above shows a panic still
/// unwinds to the command's catch.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_binary_is_a_static_pie() {
    // `RUSTFLAGS` (a coverage run, `-C target-cpu=native`) replaces the configuration's flags.
    if !cfg!(target_feature = "crt-static") {
        panic!(
            "built without `-C target-feature=+crt-static`: RUSTFLAGS or CARGO_ENCODED_RUSTFLAGS \
             replaced the rustflags of .cargo/config.toml"
        );
    }
    let elf = binutils(
        "readelf",
        &["--file-header", "--program-headers", "--dynamic"],
        env!("CARGO_BIN_EXE_warren"),
    );
    let field = |name: &str| {
        let line = elf.lines().find(|l| l.trim_start().starts_with(name));
        line.unwrap_or_else(|| panic!("no {name} in {elf}"))
            .to_string()
    };
    assert!(field("Type:").contains("DYN"), "{elf}");
    // Its own relocations are applied at its start, so it keeps a dynamic section.
    assert!(elf.contains("(RELA)"), "{elf}");
    let needed: Vec<&str> = elf.lines().filter(|l| l.contains("(NEEDED)")).collect();
    assert!(needed.is_empty(), "shared libraries: {needed:?}");
    let interpreter: Vec<&str> = elf.lines().filter(|l| l.contains("INTERP")).collect();
    assert!(interpreter.is_empty(), "a dynamic loader: {interpreter:?}");
}

/// On x86_64 Linux with glibc the functions `src/hot-text.ld` lists (what start-up and a map
/// run, written by `benches/startup/hot_text.py`, handed to the linker by `src/build.rs`) open
/// the binary's `.text`, group after group, and most of the list still names functions of the
/// binary: when the code it names has changed too much, this fails, and the list is written
/// again (BENCHMARKS.md, "a whole `warren run` of a small map"). With a linker that refuses the
/// script (not lld) there is no layout to check, unless `WARREN_REQUIRE_HOT_TEXT` is set (CI).
#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
#[test]
fn the_start_up_path_is_laid_out_first() {
    // src/build.rs hands the script over only when the linker takes it (lld).
    if cfg!(warren_hot_text_refused) {
        let required = std::env::var_os("WARREN_REQUIRE_HOT_TEXT").is_some();
        assert!(
            !required,
            "the linker refused src/hot-text.ld, and WARREN_REQUIRE_HOT_TEXT asks for the layout"
        );
        eprintln!("the linker refused src/hot-text.ld (src/build.rs): no layout to check");
        return;
    }
    if !cfg!(warren_hot_text) {
        panic!("src/build.rs neither handed src/hot-text.ld to the linker nor saw it refused");
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/src/hot-text.ld");
    let script = std::fs::read_to_string(script).unwrap();
    // Three groups `*( … )`, in order, each line of which (`.text.PATTERN .text.unlikely.PATTERN
    // .text.startup.PATTERN`) lists one function: its pattern, its group.
    let mut listed = std::collections::HashMap::new();
    let mut group = 0;
    for line in script.lines().map(str::trim) {
        if line == "*(" {
            group += 1;
        } else if let Some(rest) = line.strip_prefix(".text.") {
            // The first group that lists a pattern places it, as in the linker.
            listed
                .entry(rest.split(' ').next().unwrap())
                .or_insert(group);
        }
    }
    assert_eq!(group, 3, "the list's groups");
    assert!(listed.len() >= 500, "{} functions listed", listed.len());

    // Each address of `.text` with a function: its names (identical functions share one; the
    // section is named after one of them), each with its pattern and group when listed.
    type Names = Vec<(String, Option<(String, usize)>)>;
    let mut functions: Vec<(u64, Names)> = Vec::new();
    for (address, name) in text_functions(env!("CARGO_BIN_EXE_warren")) {
        let pattern = hot_text_pattern(&name);
        let place = listed.get(pattern.as_str()).map(|&group| (pattern, group));
        match functions.last_mut() {
            Some((last, names)) if *last == address => names.push((name, place)),
            _ => functions.push((address, vec![(name, place)])),
        }
    }
    let any_listed = |names: &Names| names.iter().any(|n| n.1.is_some());
    // The list's functions come first, group after group, from the start of `.text`: each
    // address has a name in the same group as, or a later one than, the address before.
    let opening = functions
        .iter()
        .position(|(_, names)| !any_listed(names))
        .unwrap_or(functions.len());
    assert!(
        opening >= 300,
        "only {opening} listed functions open .text, then {:?}",
        functions.get(opening)
    );
    let mut last = 1;
    let mut found = std::collections::HashSet::new();
    for (_, names) in &functions[..opening] {
        let listed = names.iter().filter_map(|n| n.1.as_ref());
        let (pattern, group) = listed
            .filter(|&&(_, group)| group >= last)
            .min_by_key(|&&(_, group)| group)
            .unwrap_or_else(|| panic!("out of the list's order, after group {last}: {names:?}"));
        last = *group;
        found.insert(pattern.as_str());
    }
    // No function every name of which is listed is left out of the opening.
    let left_out: Vec<_> = functions[opening..]
        .iter()
        .filter(|(_, names)| names.iter().all(|n| n.1.is_some()))
        .take(5)
        .collect();
    assert!(left_out.is_empty(), "listed, not placed: {left_out:?}");
    // Most of the list still names functions of this build: 95% when it was written (this test
    // build inlines differently from the release build the list was written from).
    assert!(
        found.len() * 5 >= listed.len() * 4,
        "{} of the {} functions src/hot-text.ld lists are in the binary: run \
         benches/startup/hot_text.py on a release build to list them again",
        found.len(),
        listed.len()
    );
}

/// What the binutils program `tool` prints with `args` about the file `binary` (it must succeed).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn binutils(tool: &str, args: &[&str], binary: &str) -> String {
    let out = std::process::Command::new(tool)
        .args(args)
        .arg(binary)
        .env("LC_ALL", "C")
        .output()
        .unwrap_or_else(|e| panic!("{tool} (binutils) runs: {e}"));
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The functions of the ELF file `binary` in its `.text`, with their addresses, in address order
/// (binutils' `readelf` and `nm`).
#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
fn text_functions(binary: &str) -> Vec<(u64, String)> {
    let hex = |field: &str| u64::from_str_radix(field, 16).unwrap();
    // `[Nr] .text PROGBITS address offset size …`
    let sections = binutils("readelf", &["--section-headers", "--wide"], binary);
    let text: Vec<&str> = sections
        .lines()
        .filter_map(|l| l.split_once(']'))
        .map(|(_, fields)| fields.split_whitespace().collect::<Vec<_>>())
        .find(|fields| fields.first() == Some(&".text"))
        .expect("a .text section");
    let (start, size) = (hex(text[2]), hex(text[4]));
    binutils("nm", &["--numeric-sort", "--defined-only"], binary)
        .lines()
        .filter_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
            [address, "t" | "T" | "w" | "W", name] => Some((hex(address), name.to_string())),
            _ => None,
        })
        .filter(|&(address, _)| (start..start + size).contains(&address))
        .collect()
}

/// The pattern `benches/startup/hot_text.py` (`pattern`) lists the function `symbol` by: what
/// changes from build to build replaced by wildcards (a Rust symbol's hash, a crate's
/// disambiguator, the number LTO adds to a local symbol, the suffix of GCC's clone of a C
/// function), a C function's cold part (`NAME.cold`, in the section of NAME) as NAME.
#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
fn hot_text_pattern(symbol: &str) -> String {
    let symbol = symbol.strip_suffix(".cold").unwrap_or(symbol);
    if let Some(body) = symbol.strip_prefix("_ZN") {
        // `_ZN … 17h<16 hex digits>E`, perhaps with a suffix LTO adds (`.llvm.123`).
        let legacy = body.rfind("17h").filter(|&at| {
            let hash = &body[at + 3..];
            hash.len() >= 17
                && hash[..16].bytes().all(|b| b.is_ascii_hexdigit())
                && hash[16..].starts_with('E')
                && hash[17..]
                    .bytes()
                    .all(|b| b == b'.' || b.is_ascii_alphanumeric())
        });
        return match legacy {
            Some(at) => format!("_ZN{}17h*", &body[..at]),
            None => symbol.to_string(),
        };
    }
    if symbol.starts_with("_R") {
        let named = v0_without_disambiguators(symbol);
        // `NAME.1541` or `NAME.llvm.1541`: `NAME.*`.
        return match named.rsplit_once('.') {
            Some((base, number))
                if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) =>
            {
                format!("{}.*", base.strip_suffix(".llvm").unwrap_or(base))
            }
            _ => named,
        };
    }
    // `NAME.isra.0`, `NAME.constprop.0.isra.0`, `NAME.part.0`: `NAME.*`.
    let clone = symbol.split_once('.').filter(|(base, rest)| {
        let identifier = base.bytes().next().is_some_and(|b| !b.is_ascii_digit())
            && base.bytes().all(|b| b == b'_' || b.is_ascii_alphanumeric());
        identifier
            && rest.split_once('.').is_some_and(|(kind, tail)| {
                ["isra", "constprop", "part", "lto_priv"].contains(&kind)
                    && tail.bytes().all(|b| {
                        b == b'.' || b == b'_' || b.is_ascii_digit() || b.is_ascii_lowercase()
                    })
            })
    });
    match clone {
        Some((base, _)) => format!("{base}.*"),
        None => symbol.to_string(),
    }
}

/// A v0 Rust symbol with each crate's disambiguator (`Cs<letters and digits>_`) as `Cs*_`.
#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
fn v0_without_disambiguators(symbol: &str) -> String {
    let mut out = String::with_capacity(symbol.len());
    let mut rest = symbol;
    while let Some(at) = rest.find("Cs") {
        let after = &rest[at + 2..];
        let run = after
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        if run > 0 && after[run..].starts_with('_') {
            out.push_str(&rest[..at]);
            out.push_str("Cs*_");
            rest = &after[run + 1..];
        } else {
            out.push_str(&rest[..at + 2]);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Each subcommand's arguments are made only when it runs (clap's `defer`), and then set its
/// help last: its own `--help` must still open with what `warren --help` lists for it.
#[test]
fn every_subcommand_help_opens_with_its_line_in_the_list() {
    use clap::CommandFactory;
    let cli = warren::cli::Cli::command();
    let mut seen = 0;
    for sub in cli.get_subcommands() {
        let name = sub.get_name();
        let about = sub.get_about().expect("every subcommand says what it does");
        let out = String::from_utf8(stdout(&[name, "--help"])).unwrap();
        // Its first paragraph, wrapped to the width of the help.
        let first: Vec<&str> = out.lines().take_while(|l| !l.is_empty()).collect();
        assert_eq!(first.join(" "), about.to_string(), "{name}");
        seen += 1;
    }
    assert!(seen >= 9, "{seen} subcommands");
}

/// The registry cache's files in `dir` (`regions-…`), by name.
fn cache_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    cache_files_of(dir, "regions-")
}

/// The cache files in `dir` whose names start with `prefix` (`regions-`, `chunk-`), by name.
fn cache_files_of(dir: &std::path::Path, prefix: &str) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with(prefix))
        .collect();
    files.sort();
    files
}

/// `warren run scripts/rooms.lua --seed 3` with the regions of `regions` (the shipped ones by
/// default) and `env` set; its map.
fn run_with(env: &[(&str, &std::path::Path)], regions: Option<&std::path::Path>) -> Vec<u8> {
    let mut cmd = warren();
    cmd.env_remove("WARREN_CACHE_DIR")
        .env_remove("XDG_CACHE_HOME");
    for (name, value) in env {
        cmd.env(name, value);
    }
    cmd.args(["run", "scripts/rooms.lua", "--seed", "3"]);
    if let Some(dir) = regions {
        cmd.arg("--regions").arg(dir);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[cfg(unix)]
#[test]
fn the_cache_is_written_once_then_read_with_the_same_map() {
    use std::os::unix::fs::MetadataExt;
    let cache = tempfile::tempdir().unwrap();
    let env = [("WARREN_CACHE_DIR", cache.path())];
    let first = run_with(&env, None);
    // The regions' parse and the recipe's bytecode.
    let files = [
        cache_files(cache.path()),
        cache_files_of(cache.path(), "chunk-"),
    ]
    .concat();
    assert_eq!(files.len(), 2, "{files:?}");
    // And the key of their tags.
    assert_eq!(std::fs::read_dir(cache.path()).unwrap().count(), 3);
    assert!(cache.path().join("key").is_file());
    let inodes: Vec<u64> = files
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().ino())
        .collect();
    // Read, not written again (a write replaces the file).
    assert_eq!(run_with(&env, None), first);
    for (file, inode) in files.iter().zip(&inodes) {
        assert_eq!(std::fs::metadata(file).unwrap().ino(), *inode, "{file:?}");
    }
    // The same map as with no cache.
    let off = tempfile::tempdir().unwrap();
    let none = [("WARREN_CACHE_DIR", std::path::Path::new(""))];
    let env_off = [
        none[0],
        ("XDG_CACHE_HOME", off.path()),
        ("HOME", off.path()),
    ];
    assert_eq!(run_with(&env_off, None), first);
    assert_eq!(
        std::fs::read_dir(off.path()).unwrap().count(),
        0,
        "off writes nothing"
    );
}

#[test]
fn a_recipe_is_the_same_compiled_now_read_from_the_cache_or_with_none() {
    // What a recipe can see of how it was loaded: its objects' ids, the memory it holds once
    // loaded, its lines in messages.
    let dir = tempfile::tempdir().unwrap();
    let recipe = dir.path().join("seen.lua");
    std::fs::write(
        &recipe,
        "local kept = { {}, function() end }\n\
         print(tostring(kept[1]), tostring(kept[2]), collectgarbage('count'))\n\
         return { params = { width = { default = 12 }, height = { default = 8 } },\n\
           generate = function(map, ctx)\n\
             print(tostring({}), collectgarbage('count'))\n\
             error('line five')\n\
           end }\n",
    )
    .unwrap();
    let seen = failing_the_same_cold_warm_and_with_no_cache(&recipe, &[]);
    assert!(seen.contains("seen.lua:6: line five"), "{seen}");
    assert!(seen.contains("table: 0x"), "{seen}");
}

#[test]
fn a_large_recipe_loads_within_the_same_memory_compiled_now_read_or_with_no_cache() {
    // Nearly the largest recipe warren reads (1 MiB), under a 2 MiB limit: compiling it is
    // done before the load's budget begins, so whether its bytecode was compiled just now,
    // read from the cache, or the cache is off, the load holds the same memory.
    let dir = tempfile::tempdir().unwrap();
    let recipe = dir.path().join("large.lua");
    let body = " x = x + 1\n".repeat(450);
    let mut text = String::from("local F = {}\n");
    while text.len() < 990_000 {
        let i = text.len();
        text.push_str(&format!("F[{i}] = function(x)\n{body} return x end\n"));
    }
    text.push_str(
        "return { params = { width = { default = 10 }, height = { default = 10 } },\n\
           generate = function() error(('held %.4f KiB'):format(collectgarbage('count'))) end }\n",
    );
    std::fs::write(&recipe, text).unwrap();
    let held = failing_the_same_cold_warm_and_with_no_cache(&recipe, &["--max-memory", "2"]);
    assert!(held.contains("held 10"), "{held}");
}

#[test]
fn a_recipe_near_its_memory_limit_loads_or_fails_alike_cold_warm_and_with_no_cache() {
    // 139,000 string constants: about 18 MiB to compile. At each limit around that, the recipe
    // loads or fails the same way with a new cache, with a cache a run at 512 MiB filled, and
    // with no cache: the cache is not an input. And wherever it compiled (a new cache then
    // holds its bytecode), it loads.
    let dir = tempfile::tempdir().unwrap();
    let recipe = dir.path().join("strings.lua");
    let strings: Vec<String> = (0..139_000).map(|i| format!("\"{i:x}\"")).collect();
    std::fs::write(
        &recipe,
        format!(
            "if false then return {{ {} }} end\n\
             return {{ params = {{ width = {{ default = 10 }}, height = {{ default = 10 }} }},\n\
               generate = function(map, ctx) ctx.log('loaded') end }}\n",
            strings.join(",")
        ),
    )
    .unwrap();
    let run = |cache: &std::path::Path, limit: u32| {
        let out = warren()
            .env("WARREN_CACHE_DIR", cache)
            .arg("run")
            .arg(&recipe)
            .arg("--regions")
            .arg(root().join("regions"))
            .args(["--seed", "1", "--format", "ascii", "--max-memory"])
            .arg(limit.to_string())
            .output()
            .unwrap();
        (out.status.success(), String::from_utf8(out.stderr).unwrap())
    };
    let warm = tempfile::tempdir().unwrap();
    assert!(run(warm.path(), 512).0);
    let mut seen = (false, false);
    for limit in 14..=22 {
        let cold = tempfile::tempdir().unwrap();
        let first = run(cold.path(), limit);
        let compiled = !cache_files_of(cold.path(), "chunk-").is_empty();
        assert!(
            !compiled || first.0,
            "compiled within {limit} MiB, yet: {}",
            first.1
        );
        assert_eq!(run(warm.path(), limit), first, "warm, {limit} MiB");
        assert_eq!(
            run(std::path::Path::new(""), limit),
            first,
            "no cache, {limit} MiB"
        );
        if first.0 {
            seen.0 = true;
        } else {
            assert!(first.1.contains("memory limit exceeded"), "{}", first.1);
            seen.1 = true;
        }
    }
    assert_eq!(
        seen,
        (true, true),
        "the limits tried span the recipe's need"
    );
}

/// What `warren run RECIPE --regions regions --seed 1 EXTRA…`, a run that fails, says on
/// standard error: the same with a new cache (which then holds the recipe's bytecode), read
/// from that cache, and with the cache off.
fn failing_the_same_cold_warm_and_with_no_cache(
    recipe: &std::path::Path,
    extra: &[&str],
) -> String {
    let cache = tempfile::tempdir().unwrap();
    let run = |cache_dir: &std::path::Path| {
        let out = warren()
            .env("WARREN_CACHE_DIR", cache_dir)
            .arg("run")
            .arg(recipe)
            .arg("--regions")
            .arg(root().join("regions"))
            .args(["--seed", "1"])
            .args(extra)
            .output()
            .unwrap();
        assert!(!out.status.success());
        String::from_utf8(out.stderr).unwrap()
    };
    let compiled = run(cache.path());
    assert_eq!(cache_files_of(cache.path(), "chunk-").len(), 1);
    assert_eq!(run(cache.path()), compiled, "read from the cache");
    assert_eq!(run(std::path::Path::new("")), compiled, "no cache");
    compiled
}

#[test]
fn an_edited_region_file_is_loaded_again_and_its_change_shows() {
    let cache = tempfile::tempdir().unwrap();
    let env = [("WARREN_CACHE_DIR", cache.path())];
    let dir = tempfile::tempdir().unwrap();
    copy_regions(dir.path());
    let regions = dir.path().join("regions");
    let before = run_with(&env, Some(&regions));
    assert!(before.contains(&b'>'));
    let terrain = regions.join("terrain.toml");
    let text = std::fs::read_to_string(&terrain).unwrap();
    let edited = text.replace("glyph = \">\"", "glyph = \"V\"");
    assert_ne!(edited, text);
    std::fs::write(&terrain, edited).unwrap();
    let after = run_with(&env, Some(&regions));
    assert!(!after.contains(&b'>') && after.contains(&b'V'));
    assert_eq!(cache_files(cache.path()).len(), 2);
}

#[test]
fn the_cache_goes_where_xdg_and_home_say_or_nowhere() {
    let xdg = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    run_with(
        &[("XDG_CACHE_HOME", xdg.path()), ("HOME", home.path())],
        None,
    );
    assert_eq!(cache_files(&xdg.path().join("warren")).len(), 1);
    run_with(&[("HOME", home.path())], None);
    assert_eq!(cache_files(&home.path().join(".cache/warren")).len(), 1);
    // A relative XDG_CACHE_HOME is not used (the XDG rule): HOME's is.
    let relative = std::path::Path::new("not/absolute");
    let other_home = tempfile::tempdir().unwrap();
    run_with(
        &[("XDG_CACHE_HOME", relative), ("HOME", other_home.path())],
        None,
    );
    assert_eq!(
        cache_files(&other_home.path().join(".cache/warren")).len(),
        1
    );
    assert!(!root().join("not").exists());
    // A cache that cannot be made (its directory would be inside a file) changes nothing, and
    // with no HOME there is no cache.
    let file = home.path().join("a file");
    std::fs::write(&file, "").unwrap();
    let expected = run_with(&[("HOME", home.path())], None);
    assert_eq!(
        run_with(&[("WARREN_CACHE_DIR", &file.join("cache"))], None),
        expected
    );
    let out = warren()
        .env_remove("WARREN_CACHE_DIR")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("HOME")
        .args(["run", "scripts/rooms.lua", "--seed", "3"])
        .output()
        .unwrap();
    assert!(out.status.success() && out.stderr.is_empty());
    assert_eq!(out.stdout, expected);
}
