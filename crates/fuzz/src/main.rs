//! `warren-fuzz`: a coverage-free mutation fuzzer for warren's region loading and recipe loader,
//! on stable Rust.
//!
//! ```sh
//! cargo run --release -p warren-fuzz -- regions --seconds 600
//! cargo run --release -p warren-fuzz -- recipes --seconds 600 2>/dev/null   # recipes print
//! cargo run --release -p warren-fuzz -- recipes --replay crates/fuzz/findings/recipes-1.lua
//! ```
//!
//! It starts from the shipped files and the seeds in `crates/fuzz/seeds/<target>/` (cases from
//! the hostile and region corpora among them), mutates them ([`mutate`]) and runs each case
//! through the target ([`regions`], [`recipes`]). An input that gives a kind of error not seen
//! before joins the corpus (the only feedback there is without coverage). A panic, an internal
//! error, an error without a line, an oversized message or a case running longer than
//! `--hang-seconds` is a finding: it is saved under `crates/fuzz/findings/` and the run exits 1
//! (2 for a hang).

mod mutate;
mod recipes;
mod regions;

use std::collections::BTreeSet;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use warren_core::rng::Rng;

/// What one case did.
pub enum Outcome {
    /// The input loaded (and, for recipes, generated a map).
    Accepted,
    /// The input was refused as it should be: the kind of error (see [`class`]).
    Refused(String),
    /// Something is wrong in warren: what.
    Finding(String),
}

/// The kind of an error: its message without the place, numbers and quoted text, so that
/// `x.lua:3: unknown terrain 'lava'` and `x.lua:9: unknown terrain 'mud'` are one kind.
pub fn class(msg: &str) -> String {
    let rest = match msg.split_once(": ") {
        Some((head, rest))
            if head.contains(':') || head.ends_with(".lua") || head.ends_with(".toml") =>
        {
            rest
        }
        _ => msg,
    };
    let mut out = String::new();
    let mut quoted = None;
    for c in rest.chars().take(160) {
        match quoted {
            Some(q) if c == q => {
                out.push('…');
                out.push(c);
                quoted = None;
            }
            Some(_) => {}
            None if c == '\'' || c == '`' || c == '"' => {
                out.push(c);
                quoted = Some(c);
            }
            None if c.is_ascii_digit() => {
                if !out.ends_with('N') {
                    out.push('N');
                }
            }
            None => out.push(c),
        }
    }
    out
}

/// The two targets.
enum Target {
    Regions(regions::Regions),
    Recipes(Box<recipes::Recipes>),
}

impl Target {
    fn run(&self, input: &str) -> Outcome {
        match self {
            Target::Regions(t) => t.run(input),
            Target::Recipes(t) => t.run(input),
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Target::Regions(_) => "regions",
            Target::Recipes(_) => "recipes",
        }
    }

    fn extension(&self) -> &'static str {
        match self {
            Target::Regions(_) => "toml",
            Target::Recipes(_) => "lua",
        }
    }
}

/// Command-line options.
struct Options {
    target: String,
    seconds: u64,
    seed: u64,
    hang: Duration,
    replay: Option<PathBuf>,
    root: PathBuf,
}

const USAGE: &str = "usage: warren-fuzz <regions|recipes> [--seconds N] [--seed N] \
[--hang-seconds N] [--replay FILE] [--root DIR]";

fn options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut o = Options {
        target: String::new(),
        seconds: 60,
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007),
        hang: Duration::from_secs(30),
        replay: None,
        root: Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."),
    };
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        let number = |v: String, name: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{name} needs a whole number, got '{v}'"))
        };
        match a.as_str() {
            "--seconds" => o.seconds = number(value("--seconds")?, "--seconds")?,
            "--seed" => o.seed = number(value("--seed")?, "--seed")?,
            "--hang-seconds" => {
                o.hang = Duration::from_secs(number(value("--hang-seconds")?, "--hang-seconds")?)
            }
            "--replay" => o.replay = Some(PathBuf::from(value("--replay")?)),
            "--root" => o.root = PathBuf::from(value("--root")?),
            "regions" | "recipes" if o.target.is_empty() => o.target = a,
            other => return Err(format!("unexpected argument '{other}'")),
        }
    }
    if o.target.is_empty() {
        return Err("name a target: regions or recipes".into());
    }
    o.root = o
        .root
        .canonicalize()
        .map_err(|e| format!("{}: {e}", o.root.display()))?;
    Ok(o)
}

/// Every file with `ext` directly in `dir`, sorted (none if it does not exist).
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == ext))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The seeds of a target and the dictionary its mutations draw from.
fn seeds_and_dictionary(o: &Options, target: &Target) -> (Vec<String>, mutate::Dictionary) {
    let seeds_dir = o.root.join("crates/fuzz/seeds").join(target.name());
    let (shipped, numbers, fixed): (PathBuf, &'static [&'static str], &[&str]) = match target {
        Target::Regions(_) => (o.root.join("regions"), REGION_NUMBERS, REGION_SNIPPETS),
        Target::Recipes(_) => (o.root.join("scripts"), LUA_NUMBERS, LUA_SNIPPETS),
    };
    let seeds: Vec<String> = files(&shipped, target.extension())
        .into_iter()
        .chain(files(&seeds_dir, target.extension()))
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    let mut snippets: BTreeSet<String> = fixed.iter().map(|s| s.to_string()).collect();
    for s in &seeds {
        snippets.extend(
            s.lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| format!("{l}\n")),
        );
    }
    let mut strings: Vec<String> = STRINGS.iter().map(|s| s.to_string()).collect();
    strings.push("x".repeat(100_000));
    strings.push("é".repeat(5_000));
    let dict = mutate::Dictionary {
        snippets: snippets.into_iter().collect(),
        numbers,
        strings,
    };
    (seeds, dict)
}

const REGION_NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "-0",
    "0.5",
    "1e308",
    "1.7e308",
    "-1.7e308",
    "1.7976931348623157e308",
    "5e-324",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "4095",
    "4096",
    "4097",
    "65535",
    "65536",
    "16777216",
    "2147483648",
    "nan",
    "inf",
    "-inf",
    "+inf",
    "0x7fffffffffffffff",
    "1_000_000",
    "100_000_000_000",
    "600",
    "601",
    "16384",
    "1e400",
];

const LUA_NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "0.5",
    "1e308",
    "1.7e308",
    "-1.7e308",
    "5e-324",
    "9223372036854775807",
    "math.mininteger",
    "math.maxinteger",
    "math.huge",
    "-math.huge",
    "(0/0)",
    "(1 << 62)",
    "4095",
    "4096",
    "4097",
    "65536",
    "16777216",
    "2^53",
    "1e16",
    "0x7fffffffffffffff",
    "3.5",
];

const STRINGS: &[&str] = &[
    "",
    " ",
    "rock",
    "floor",
    "rock wall",
    "door",
    "lava",
    "é",
    "\\u0000",
    "\\0",
    "#",
    "##",
    "%",
    "%b()",
    "(.-)*",
    "[",
    "..",
    "../secret",
    "/etc/passwd",
    "lib.cave",
    "lib..x",
    "nil",
    "\\255",
    "room_floor",
    "normal",
    "river",
    "up",
    "down",
    "omni",
];

const REGION_SNIPPETS: &[&str] = &[
    "[[terrain]]\n",
    "[[corridor]]\n",
    "[[room]]\n",
    "[[streamer]]\n",
    "[[vault]]\n",
    "[[spawn]]\n",
    "[map]\n",
    "[dungeon]\n",
    "[rooms]\n",
    "[cave]\n",
    "[town]\n",
    "[limits]\n",
    "[town.debug]\n",
    "[vault.legend]\n",
    "[corridor.constants]\n",
    "[[terrain]]\nname = \"x\"\nglyph = \"x\"\ncolor = \"#000000\"\nsolid = false\n",
    "name = \"x\"\n",
    "weight = 1.7e308\n",
    "weight = nan\n",
    "glyph = \"\"\n",
    "glyph = \"ab\"\n",
    "color = \"#12345\"\n",
    "solid = \"yes\"\n",
    "kind = \"nope\"\n",
    "grid = \"\"\"\n#.#\n.#.\n\"\"\"\n",
    "grid = \"\"\n",
    "min_depth = 0\n",
    "max_depth = 0\n",
    "max_seconds = 600\n",
    "max_memory_mib = 16384\n",
    "max_instructions = 100_000_000_000\n",
    "level_width = 4096\n",
    "panel_width = 1\n",
    "priority = \"max\"\n",
    "x = { a = { b = [1, [2, [3]]] } }\n",
    "a.b.c = 1\n",
    "\"quoted key\" = 1\n",
    "[[terrain]]\n[[terrain]]\n",
];

const LUA_SNIPPETS: &[&str] = &[
    "map:fill('floor')\n",
    "map:fill(nil)\n",
    "map:set(0, 0, 'floor')\n",
    "map:set(-1, 1e9, 'x')\n",
    "ctx.rng:weighted({ { weight = 1.7e308 }, { weight = 1.7e308 } })\n",
    "ctx.rng:pick({})\n",
    "ctx.rng:pick(5)\n",
    "ctx.rng:shuffle(ctx.regions.spawn)\n",
    "ctx.rng:int(1, 0)\n",
    "setmetatable({}, { __index = function() return { x = 1, y = 1, w = 1, h = 1 } end })",
    "setmetatable({}, { __index = rawlen })",
    "string.rep('x', 1 << 20)",
    "error({})\n",
    "error(nil)\n",
    "error('x', 0)\n",
    "error(setmetatable({}, { __tostring = function() return ('y'):rep(1e6) end }))\n",
    "coroutine.wrap(function() error({}) end)()\n",
    "pcall(error)\n",
    "while true do end\n",
    "for i = 1, 1e7 do end\n",
    "{ x = 1, y = 1, w = 1, h = 1 }",
    "nil",
    "(",
    ")",
    "{",
    "}",
    "end\n",
    "function()",
    "local x <close> = nil\n",
    "return ",
    "ctx.regions.",
    "ctx.params.",
    "warren.gen.connect_rooms(map, ctx.rng, ",
    "warren.gen.scatter_rooms(map, ctx.rng, {})\n",
    "warren.town.new{ height = 4095, width = 4095 }\n",
    "warren.town.new(5)\n",
    "warren.status_lists{ cells = 1e9, statuses = { 'a' } }\n",
    "map:add_layer('l', { rows = { 'x' } })\n",
    "map:snapshot('s')\n",
    "map:tag('k', {})\n",
    "ctx.metric('m', 0/0)\n",
    "require 'lib.cave'\n",
    "require 'lib.nothing'\n",
    "require '../x'\n",
    "load('return 1')()\n",
    "load(string.rep(' ', 2e6))\n",
    "warren.tunnel.new(map, ctx.regions, {})\n",
    "map:components()\n",
    "map:write_edge()\n",
    "warren.dungeon.init_level(map, { width = 64, height = 64, panel_width = 32, panel_height = 32 })\n",
    "params = { width = { default = 0 }, height = { default = 0 } },\n",
    "params = { width = { default = 100000 }, height = { default = 10 } },\n",
    "name = {},\n",
    "description = 5,\n",
    "generate = 5,\n",
    "extra = 1,\n",
    "choices = { {} },\n",
    "min = 10, max = 1,\n",
    "doc = 5,\n",
];

/// Where findings go.
fn findings_dir(o: &Options) -> PathBuf {
    o.root.join("crates/fuzz/findings")
}

/// Saves a finding's input and message; returns the input's path.
fn save(o: &Options, target: &Target, n: usize, input: &str, what: &str) -> PathBuf {
    let dir = findings_dir(o);
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("{}-{n}.{}", target.name(), target.extension()));
    let _ = std::fs::write(&path, input);
    let _ = std::fs::write(path.with_extension("txt"), what);
    path
}

/// One case, with panics caught as findings.
fn run_case(target: &Target, input: &str) -> Outcome {
    match std::panic::catch_unwind(AssertUnwindSafe(|| target.run(input))) {
        Ok(o) => o,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".into());
            Outcome::Finding(format!("panic: {msg}"))
        }
    }
}

fn main() -> ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("warren-fuzz: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    // Panics are reported as findings, once, by `run_case`.
    std::panic::set_hook(Box::new(|_| {}));
    let target = match o.target.as_str() {
        "regions" => regions::Regions::new(&o.root).map(Target::Regions),
        _ => recipes::Recipes::new(&o.root).map(|r| Target::Recipes(Box::new(r))),
    };
    let target = match target {
        Ok(t) => t,
        Err(e) => {
            eprintln!("warren-fuzz: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(file) = &o.replay {
        let input = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("warren-fuzz: {}: {e}", file.display());
                return ExitCode::from(2);
            }
        };
        return match run_case(&target, &input) {
            Outcome::Accepted => {
                println!("accepted");
                ExitCode::SUCCESS
            }
            Outcome::Refused(kind) => {
                println!("refused: {kind}");
                ExitCode::SUCCESS
            }
            Outcome::Finding(what) => {
                println!("FINDING: {what}");
                ExitCode::from(1)
            }
        };
    }
    fuzz(&o, &target)
}

/// The fuzzing loop.
fn fuzz(o: &Options, target: &Target) -> ExitCode {
    let (seeds, dict) = seeds_and_dictionary(o, target);
    if seeds.is_empty() {
        eprintln!("warren-fuzz: no seeds for {}", target.name());
        return ExitCode::from(2);
    }
    let current = Arc::new(Mutex::new(String::new()));
    let started_ms = Arc::new(AtomicU64::new(0));
    let epoch = Instant::now();
    watchdog(o, target, epoch, current.clone(), started_ms.clone());
    let mut rng = Rng::new(o.seed);
    let mut corpus = seeds.clone();
    let mut kinds = BTreeSet::new();
    let mut found = BTreeSet::new();
    let (mut cases, mut accepted, mut refused) = (0u64, 0u64, 0u64);
    let deadline = epoch + Duration::from_secs(o.seconds);
    let mut next_report = epoch + Duration::from_secs(60);
    println!(
        "warren-fuzz {}: {} seeds, {} s, --seed {}",
        target.name(),
        seeds.len(),
        o.seconds,
        o.seed
    );
    let mut i = 0usize;
    while Instant::now() < deadline {
        // The seeds run once as they are, then mutations of the corpus.
        let input = if i < seeds.len() {
            seeds[i].clone()
        } else {
            let base = &corpus[rng.below(corpus.len() as u64) as usize];
            mutate::mutate(&mut rng, base, &dict, &corpus)
        };
        i += 1;
        if let Ok(mut c) = current.lock() {
            c.clone_from(&input);
        }
        started_ms.store(epoch.elapsed().as_millis() as u64 + 1, Ordering::SeqCst);
        let outcome = run_case(target, &input);
        started_ms.store(0, Ordering::SeqCst);
        cases += 1;
        match outcome {
            Outcome::Accepted => {
                accepted += 1;
                if rng.below(256) == 0 && corpus.len() < 10_000 {
                    corpus.push(input);
                }
            }
            Outcome::Refused(kind) => {
                refused += 1;
                if kinds.insert(kind) && corpus.len() < 10_000 {
                    corpus.push(input);
                }
            }
            Outcome::Finding(what) => {
                if found.insert(class(&what)) {
                    let path = save(o, target, found.len(), &input, &what);
                    println!("FINDING {}: {what}", path.display());
                }
            }
        }
        if Instant::now() >= next_report {
            next_report += Duration::from_secs(60);
            println!(
                "  {} s: {cases} cases, {} kinds of error, corpus {}, {} findings",
                epoch.elapsed().as_secs(),
                kinds.len(),
                corpus.len(),
                found.len()
            );
        }
    }
    let secs = epoch.elapsed().as_secs_f64();
    println!(
        "warren-fuzz {}: {cases} cases in {secs:.0} s ({:.0}/s): {accepted} accepted, {refused} \
         refused ({} kinds of error), {} findings; --seed {}",
        target.name(),
        cases as f64 / secs.max(1e-9),
        kinds.len(),
        found.len(),
        o.seed
    );
    if found.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Ends the process (exit 2) if one case runs longer than `--hang-seconds`, saving it first.
fn watchdog(
    o: &Options,
    target: &Target,
    epoch: Instant,
    current: Arc<Mutex<String>>,
    started_ms: Arc<AtomicU64>,
) {
    let hang = o.hang;
    let (dir, name, ext) = (findings_dir(o), target.name(), target.extension());
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(250));
        let started = started_ms.load(Ordering::SeqCst);
        if started == 0 {
            continue;
        }
        let running = epoch
            .elapsed()
            .saturating_sub(Duration::from_millis(started - 1));
        if running > hang {
            let input = current.lock().map(|c| c.clone()).unwrap_or_default();
            let _ = std::fs::create_dir_all(&dir);
            let path = dir.join(format!("{name}-hang.{ext}"));
            let _ = std::fs::write(&path, input);
            println!("FINDING {}: a case ran for {running:?}", path.display());
            std::process::exit(2);
        }
    });
}
