//! Every example in the documentation runs: each page's code blocks are executed in order in a
//! fresh copy of the project (`scripts/`, `regions/`, `benches/`), through the real binary, so a
//! command, option, path, recipe or region key the code no longer has fails the build.
//!
//! What a block's language asks for:
//!
//! - `sh`: each line is a command (text after ` # ` is a comment) and must succeed. `cargo run
//!   --release -- ARGS` runs as `warren ARGS`. `warren watch` is run until its first status
//!   line, then sent `q`; `warren serve` until it prints its URL (on a free port unless the
//!   command names one; `--open` meets a stand-in browser), then stopped. Other `cargo`
//!   commands and benchmark scripts are not run here (CI runs the builds, tests and examples
//!   itself, benchmarks take minutes) but what they name must exist: the test, bench, example,
//!   package or file.
//! - `console`: `$ command` lines, each followed by the output it shows, which must match the
//!   command's stdout and then stderr (whatever its exit code). A line `...` stands for any
//!   number of lines, `[..]` inside a line for any text.
//! - `lua`: a recipe (it mentions `generate`), or the body of a `generate(map, ctx)` function;
//!   `warren check` must pass on it and `warren run` must make a map with it.
//! - `toml`: region-file text. It must validate against the region schema; with
//!   `file=PATH` it is written into that file (replacing the file's section of the same header,
//!   or added at its end, or as a new file) and `warren check` must then pass.
//! - `text`, `json`: shown only (diagrams, excerpts with `…`).
//! - `sql`: a DuckDB query over records; not run here (it needs DuckDB): `.ci/sweeps` runs the
//!   one of docs/sweeps.md (tests/sweeps/check.py).
//!
//! A block may say `file=PATH` (`lua`: write the recipe there instead of running it alone) and
//! `mistake` (`lua`, `toml`: the example is wrong on purpose, and the check must fail).
//!
//! A block marked `excerpt=PATH`, in any language, is a part of that file instead: its lines
//! must appear there in the same order (blank lines and runs of spaces aside), and nothing else
//! is run. It is how a page shows code that only CI builds: the Rust and the manifest of
//! `examples/game-crate`, which `.ci/game-crate` builds outside the workspace and runs. A
//! `rust` block must be such an excerpt.

use super::pages::{self, line_of, read};
use crate::common::copy_dir;
use crate::common::root;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A fenced code block of a page.
#[derive(Debug)]
pub struct Block {
    /// The language: the info string's first word.
    pub lang: String,
    /// `key=value` words of the info string.
    pub attrs: BTreeMap<String, String>,
    /// The other words of the info string.
    pub flags: Vec<String>,
    /// The block's text.
    pub text: String,
    /// The line of the opening fence.
    pub line: usize,
}

/// Every fenced code block of a page, in order.
pub fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for (event, range) in Parser::new_ext(text, Options::ENABLE_TABLES).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => "indented".to_string(),
                };
                let mut words = info.split_whitespace();
                let lang = words.next().unwrap_or_default().to_string();
                let mut attrs = BTreeMap::new();
                let mut flags = Vec::new();
                for w in words {
                    match w.split_once('=') {
                        Some((k, v)) => {
                            attrs.insert(k.to_string(), v.to_string());
                        }
                        None => flags.push(w.to_string()),
                    }
                }
                current = Some(Block {
                    lang,
                    attrs,
                    flags,
                    text: String::new(),
                    line: line_of(text, range.start),
                });
            }
            Event::Text(t) => {
                if let Some(b) = current.as_mut() {
                    b.text.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => out.extend(current.take()),
            _ => {}
        }
    }
    out
}

/// The longest any one documented command may take.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(120);

/// A fresh copy of the project, where one page's examples run.
pub struct Sandbox {
    dir: tempfile::TempDir,
}

/// What a command left.
pub struct Outcome {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Sandbox {
    /// A temporary directory with `scripts/`, `regions/` and `benches/` copied from the
    /// repository, and a `.bin/` holding `warren` and a stand-in browser opener.
    pub fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["scripts", "regions", "benches"] {
            copy_dir(&root().join(sub), &dir.path().join(sub));
        }
        let bin = dir.path().join(".bin");
        std::fs::create_dir(&bin).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_warren"), bin.join("warren")).unwrap();
        for opener in ["xdg-open", "open"] {
            let path = bin.join(opener);
            std::fs::write(&path, "#!/bin/sh\nexit 0\n").unwrap();
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        Sandbox { dir }
    }

    /// The sandbox's root.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `line` as a shell command in the sandbox, with `warren` on the `PATH`.
    pub fn command(&self, line: &str) -> Command {
        let path = format!(
            "{}:{}",
            self.path().join(".bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut c = Command::new("bash");
        c.arg("-c")
            .arg(line)
            .current_dir(self.path())
            .env("PATH", path)
            .env("NO_COLOR", "1")
            .env_remove("BROWSER")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    }

    /// Runs `line` to its end (at most [`COMMAND_TIMEOUT`]).
    pub fn run(&self, line: &str) -> Outcome {
        let child = self.command(line).spawn().expect("bash starts");
        finish(child, COMMAND_TIMEOUT)
    }
}

/// Waits for `child` (at most `timeout`, then kills it), reading its output meanwhile.
fn finish(mut child: Child, timeout: Duration) -> Outcome {
    let read = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let out = read(Box::new(child.stdout.take().unwrap()));
    let err = read(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Outcome {
        code,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// A command line without its trailing ` # comment`.
fn without_comment(line: &str) -> &str {
    let mut quote = None;
    let bytes = line.as_bytes();
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') if i == 0 || bytes[i - 1] == b' ' => return line[..i].trim_end(),
            _ => {}
        }
    }
    line.trim_end()
}

/// The problems of one page's examples, run in a fresh sandbox, as `page:line: what`.
pub fn run_page(page: &Path) -> Vec<String> {
    run_page_in(page, &Sandbox::new())
}

/// The problems of one page's examples, run in `sandbox`.
pub fn run_page_in(page: &Path, sandbox: &Sandbox) -> Vec<String> {
    let text = read(page);
    let mut problems = Vec::new();
    for block in blocks(&text) {
        let at = format!("{}:{}", page.display(), block.line);
        if let Some(file) = block.attrs.get("excerpt") {
            if let Err(why) = check_excerpt(&block, file) {
                problems.push(format!("{at}: {why}"));
            }
            continue;
        }
        let result = match block.lang.as_str() {
            "sh" => run_sh(sandbox, &block),
            "console" => run_console(sandbox, &block),
            "lua" => run_lua(sandbox, &block),
            "toml" => run_toml(sandbox, &block),
            "text" | "json" | "sql" => Ok(()),
            "rust" => Err(
                "a `rust` block must be an `excerpt=PATH` of a file CI builds (as \
                 examples/game-crate/src/main.rs)"
                    .to_string(),
            ),
            "" => Err(
                "a code block without a language: give it one this test knows (sh, console, \
                 lua, toml, text, json, sql)"
                    .to_string(),
            ),
            other => Err(format!(
                "a code block in `{other}`: give it a language this test knows (sh, console, \
                 lua, toml, text, json, sql)"
            )),
        };
        if let Err(why) = result {
            problems.push(format!("{at}: {why}"));
        }
    }
    problems
}

/// `line` with its runs of spaces made one and its ends trimmed.
fn squeezed(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A block marked `excerpt=PATH`: its non-blank lines appear in `PATH` (from the repository
/// root) in the same order.
fn check_excerpt(block: &Block, path: &str) -> Result<(), String> {
    let file = std::fs::read_to_string(root().join(path))
        .map_err(|e| format!("excerpt of {path}, which cannot be read: {e}"))?;
    let mut lines = file.lines().map(squeezed);
    for wanted in block.text.lines().map(squeezed).filter(|l| !l.is_empty()) {
        if !lines.any(|l| l == wanted) {
            return Err(format!(
                "excerpt of {path}, but `{wanted}` is not there (after the lines before it)"
            ));
        }
    }
    Ok(())
}

/// Each command of an `sh` block succeeds.
fn run_sh(sandbox: &Sandbox, block: &Block) -> Result<(), String> {
    for line in block.text.lines() {
        let line = without_comment(line);
        if line.is_empty() {
            continue;
        }
        let line = match line.strip_prefix("cargo run --release -- ") {
            Some(args) => format!("warren {args}"),
            None => line.to_string(),
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["cargo", ..] => check_cargo(&words)?,
            ["bash", script, ..] => {
                if !root().join(script).is_file() {
                    return Err(format!("`{line}`: {script} does not exist"));
                }
            }
            ["warren", "watch", ..] => run_watch(sandbox, &line)?,
            ["warren", "serve", ..] => run_serve(sandbox, &line)?,
            _ => {
                let out = sandbox.run(&line);
                if out.code != Some(0) {
                    return Err(format!(
                        "`{line}` failed ({:?}):\n{}{}",
                        out.code, out.stdout, out.stderr
                    ));
                }
            }
        }
    }
    Ok(())
}

/// What a `cargo` command names exists: its test, bench, example, package and files.
fn check_cargo(words: &[&str]) -> Result<(), String> {
    let line = words.join(" ");
    let value = |flag: &str| {
        words
            .iter()
            .position(|w| *w == flag)
            .and_then(|i| words.get(i + 1))
            .copied()
    };
    if let Some(test) = value("--test") {
        let flat = root().join("tests").join(format!("{test}.rs"));
        let dir = root().join("tests").join(test).join("main.rs");
        if !flat.is_file() && !dir.is_file() {
            return Err(format!("`{line}`: there is no test target {test}"));
        }
    }
    if let Some(bench) = value("--bench") {
        if !root().join("benches").join(format!("{bench}.rs")).is_file() {
            return Err(format!("`{line}`: there is no bench {bench}"));
        }
    }
    if let Some(example) = value("--example") {
        if !root()
            .join("examples")
            .join(format!("{example}.rs"))
            .is_file()
        {
            return Err(format!("`{line}`: there is no example {example}"));
        }
    }
    if let Some(package) = value("-p") {
        let dir = package.trim_start_matches("warren-");
        if package != "warren" && !root().join("crates").join(dir).join("Cargo.toml").is_file() {
            return Err(format!("`{line}`: there is no package {package}"));
        }
    }
    for w in words {
        let looks_like_file = w.contains('/') && !w.starts_with('-') && w.contains('.');
        if looks_like_file && !root().join(w).exists() && !w.contains("/artifacts/") {
            return Err(format!("`{line}`: {w} does not exist"));
        }
    }
    Ok(())
}

/// `warren watch`: it shows its first status line, then quits on `q`.
fn run_watch(sandbox: &Sandbox, line: &str) -> Result<(), String> {
    let mut child = sandbox
        .command(line)
        .stdin(Stdio::piped())
        .spawn()
        .expect("bash starts");
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for l in BufReader::new(stderr).lines().map_while(Result::ok) {
            if l.starts_with("watch: ") {
                let _ = tx.send(l.clone());
            }
            all.push_str(&l);
            all.push('\n');
        }
        all
    });
    let status = rx.recv_timeout(COMMAND_TIMEOUT);
    let _ = child.stdin.take().unwrap().write_all(b"q\n");
    let mut out = child.stdout.take().unwrap();
    let drain = std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let start = Instant::now();
    let code = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code();
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let _ = drain.join();
    let stderr = reader.join().unwrap();
    match (status, code) {
        (Ok(s), Some(0)) if s.starts_with("watch: ok") => Ok(()),
        (status, code) => Err(format!(
            "`{line}`: expected a `watch: ok` line and exit 0 on `q`, got {status:?}, exit {code:?}:\n{stderr}"
        )),
    }
}

/// `warren serve`: it prints its URL and answers on it; then it is stopped.
fn run_serve(sandbox: &Sandbox, line: &str) -> Result<(), String> {
    let line = if line.contains("--port") {
        line.to_string()
    } else {
        format!("{line} --port 0")
    };
    let mut child = sandbox.command(&line).spawn().expect("bash starts");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(l);
        }
    });
    let url = rx.recv_timeout(COMMAND_TIMEOUT);
    let answer = url.as_ref().ok().map(|url| {
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        let mut stream = std::net::TcpStream::connect(&addr).map_err(|e| e.to_string())?;
        stream
            .write_all(b"GET /api/status HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            .map_err(|e| e.to_string())?;
        let mut reply = String::new();
        std::io::Read::read_to_string(&mut stream, &mut reply).map_err(|e| e.to_string())?;
        Ok::<String, String>(reply)
    });
    let _ = child.kill();
    let _ = child.wait();
    match answer {
        Some(Ok(reply))
            if reply.starts_with("HTTP/1.1 200") || reply.starts_with("HTTP/1.0 200") =>
        {
            Ok(())
        }
        other => Err(format!(
            "`{line}`: expected the URL on stdout and a page there, got {url:?} and {other:?}"
        )),
    }
}

/// Each `$ command` of a `console` block shows the output given under it.
fn run_console(sandbox: &Sandbox, block: &Block) -> Result<(), String> {
    let mut steps: Vec<(String, Vec<String>)> = Vec::new();
    for line in block.text.lines() {
        match line.strip_prefix("$ ") {
            Some(cmd) => steps.push((cmd.to_string(), Vec::new())),
            None => match steps.last_mut() {
                Some((_, expected)) => expected.push(line.to_string()),
                None => return Err("a console block must start with `$ command`".to_string()),
            },
        }
    }
    for (cmd, expected) in steps {
        let out = sandbox.run(&cmd);
        let actual: Vec<String> = out
            .stdout
            .lines()
            .chain(out.stderr.lines())
            .map(str::to_string)
            .collect();
        let expected: Vec<&str> = trim_end(&expected);
        if !lines_match(&expected, &actual) {
            return Err(format!(
                "`{cmd}` shows\n{}\nbut printed\n{}",
                expected.join("\n"),
                actual.join("\n")
            ));
        }
    }
    Ok(())
}

/// `lines` without trailing empty lines.
fn trim_end(lines: &[String]) -> Vec<&str> {
    let mut v: Vec<&str> = lines.iter().map(String::as_str).collect();
    while v.last().is_some_and(|l| l.trim().is_empty()) {
        v.pop();
    }
    v
}

/// Whether `actual` matches `expected`: line by line, `...` standing for any lines and `[..]`
/// for any text within a line.
pub fn lines_match(expected: &[&str], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|k| lines_match(rest, &actual[k..])),
        Some((first, rest)) => {
            !actual.is_empty() && line_matches(first, &actual[0]) && lines_match(rest, &actual[1..])
        }
    }
}

/// Whether `actual` matches `expected`, where `[..]` stands for any text.
fn line_matches(expected: &str, actual: &str) -> bool {
    let mut parts = expected.split("[..]");
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// A `lua` block: a recipe, or a `generate` body, checked and run.
fn run_lua(sandbox: &Sandbox, block: &Block) -> Result<(), String> {
    let mistake = block.flags.iter().any(|f| f == "mistake");
    let recipe = if block.text.contains("generate") {
        block.text.clone()
    } else {
        format!(
            "local warren = require \"warren\"\nreturn {{\n  name = \"example\",\n  params = {{\n    width = {{ default = 80, min = 16, max = 4096 }},\n    height = {{ default = 50, min = 16, max = 4096 }},\n  }},\n  generate = function(map, ctx)\n{}\n  end,\n}}\n",
            block.text
        )
    };
    let file = match block.attrs.get("file") {
        Some(f) => f.clone(),
        None => format!("scripts/example-{}.lua", block.line),
    };
    let path = sandbox.path().join(&file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, recipe).unwrap();
    let check = sandbox.run(&format!("warren check {file}"));
    if mistake {
        return match check.code {
            Some(0) => Err("marked `mistake`, but `warren check` finds nothing".to_string()),
            _ => Ok(()),
        };
    }
    if check.code != Some(0) {
        return Err(format!(
            "`warren check {file}` fails:\n{}{}",
            check.stdout, check.stderr
        ));
    }
    if block.attrs.contains_key("file") {
        return Ok(());
    }
    let run = sandbox.run(&format!(
        "warren run {file} --seed 1 --format json > /dev/null"
    ));
    if run.code != Some(0) {
        return Err(format!("`warren run {file}` fails:\n{}", run.stderr));
    }
    Ok(())
}

/// A `toml` block: region-file text that validates against the schema; with `file=`, written
/// into the sandbox's regions, after which `warren check` passes.
fn run_toml(sandbox: &Sandbox, block: &Block) -> Result<(), String> {
    let mistake = block.flags.iter().any(|f| f == "mistake");
    if let Some(file) = block.attrs.get("file") {
        let path = sandbox.path().join(file);
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        std::fs::write(&path, with_section(&old, &block.text)).unwrap();
        let check = sandbox.run("warren check");
        return match (mistake, check.code) {
            (false, Some(0)) | (true, Some(1)) => Ok(()),
            (false, _) => Err(format!(
                "after writing {file}, `warren check` fails:\n{}{}",
                check.stdout, check.stderr
            )),
            (true, code) => Err(format!(
                "marked `mistake`, but `warren check` exits {code:?} after writing {file}"
            )),
        };
    }
    let problems = super::region_schema::complaints(&block.text);
    match (mistake, problems.is_empty()) {
        (false, true) | (true, false) => Ok(()),
        (false, false) => Err(format!("the region schema refuses it: {problems:?}")),
        (true, true) => Err("marked `mistake`, but the region schema accepts it".to_string()),
    }
}

/// `file` with `section` in it: replacing the part of `file` under the same first header
/// (`[rooms]`, up to the next header), or added at its end.
fn with_section(file: &str, section: &str) -> String {
    let header = section
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .unwrap_or_default();
    let single = header.starts_with('[') && !header.starts_with("[[");
    let lines: Vec<&str> = file.lines().collect();
    if let Some(start) = lines.iter().position(|l| single && l.trim() == header) {
        let end = lines[start + 1..]
            .iter()
            .position(|l| l.trim_start().starts_with('['))
            .map_or(lines.len(), |i| start + 1 + i);
        let mut out: Vec<String> = lines[..start].iter().map(|s| s.to_string()).collect();
        out.extend(section.trim_end().lines().map(str::to_string));
        out.push(String::new());
        out.extend(lines[end..].iter().map(|s| s.to_string()));
        return out.join("\n") + "\n";
    }
    let mut out = file.trim_end().to_string();
    if !out.is_empty() {
        out.push_str("\n\n");
    }
    out.push_str(section.trim_end());
    out.push('\n');
    out
}

#[test]
fn every_example_in_the_docs_runs() {
    let mut problems = Vec::new();
    for page in pages::all() {
        if page == Path::new("BENCHMARKS.md") || page == Path::new("CHANGELOG.md") {
            // Measurements and history: their commands take minutes to hours.
            continue;
        }
        if page == Path::new(GALLERY) {
            // Run by the_gallery_pictures_are_what_its_commands_make.
            continue;
        }
        problems.extend(run_page(&page));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// The gallery page, whose commands make the pictures beside it.
const GALLERY: &str = "docs/gallery.md";

/// The PNG files directly in `dir`, by name.
fn pictures(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "png"))
                .map(|p| {
                    let name = p.file_name().unwrap().to_string_lossy().to_string();
                    (name, std::fs::read(&p).unwrap())
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_gallery_pictures_are_what_its_commands_make() {
    let sandbox = Sandbox::new();
    let problems = run_page_in(Path::new(GALLERY), &sandbox);
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    let made = pictures(&sandbox.path().join("docs/gallery"));
    let committed = pictures(&root().join("docs/gallery"));
    let fix = "run the commands of docs/gallery.md from the repository root";
    let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&made),
        names(&committed),
        "docs/gallery/ differs: {fix}"
    );
    for (name, bytes) in &made {
        assert!(
            committed[name] == *bytes,
            "docs/gallery/{name} is not what its command makes now: {fix}"
        );
    }
    let page = read(Path::new(GALLERY));
    for name in made.keys() {
        assert!(
            page.contains(&format!("](gallery/{name})")),
            "{GALLERY} does not show {name}"
        );
    }
    let total: usize = committed.values().map(Vec::len).sum();
    assert!(
        total <= 300 * 1024,
        "the gallery's pictures take {total} bytes; keep them small"
    );
    for entry in std::fs::read_dir(root().join("scripts")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "lua") {
            let name = path.file_stem().unwrap().to_string_lossy();
            assert!(
                made.contains_key(&format!("{name}.png")),
                "scripts/{name}.lua has no picture in the gallery (docs/gallery/{name}.png)"
            );
        }
    }
}

#[test]
fn a_wrong_example_fails() {
    let page = "# T\n\n```sh\nwarren run scripts/nope.lua\n```\n\n```lua\nmap:sett(0, 0, \"floor\")\n```\n\n```toml\n[dungeon]\nturn_chanse = 3\n```\n\n```console\n$ warren check\nall good\n```\n\n```\nno language\n```\n\n```sh\ncargo test --test no_such_test\n```\n\n```rust\nlet x = 1;\n```\n\n```rust excerpt=examples/game-crate/src/main.rs\nuse std::sync::Arc;\nuse warren_lua::NoSuchThing;\n```\n\n```toml excerpt=examples/game-crate/Cargo.toml.in\n[dependencies]\n[package]\n```\n\n```rust excerpt=examples/none.rs\nfn main() {}\n```\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("page.md");
    std::fs::write(&path, page).unwrap();
    // run_page reads pages relative to the root; an absolute path joins as itself.
    let problems = run_page(&PathBuf::from(&path));
    let lines: Vec<String> = problems
        .iter()
        .map(|p| p.lines().next().unwrap_or_default().to_string())
        .collect();
    let expect = [
        ":3: `warren run scripts/nope.lua` failed",
        ":7: `warren check scripts/example-7.lua` fails",
        ":11: the region schema refuses it",
        ":16: `warren check` shows",
        ":21: a code block without a language",
        ":25: `cargo test --test no_such_test`: there is no test target no_such_test",
        ":29: a `rust` block must be an `excerpt=PATH`",
        ":33: excerpt of examples/game-crate/src/main.rs, but `use warren_lua::NoSuchThing;`",
        ":38: excerpt of examples/game-crate/Cargo.toml.in, but `[package]` is not there",
        ":43: excerpt of examples/none.rs, which cannot be read",
    ];
    assert_eq!(problems.len(), expect.len(), "{problems:#?}");
    for (line, want) in lines.iter().zip(expect) {
        assert!(line.contains(want), "{line:?} should contain {want:?}");
    }
}

#[test]
fn output_matches_with_wildcards() {
    let actual: Vec<String> = ["a", "b 12 ms", "c", "d"].map(String::from).to_vec();
    assert!(lines_match(&["a", "b [..] ms", "...", "d"], &actual));
    assert!(lines_match(&["...", "d"], &actual));
    assert!(!lines_match(&["a", "b 13 ms", "..."], &actual));
    assert!(!lines_match(&["a", "..."][..1], &actual));
    assert_eq!(
        with_section("[a]\nx = 1\n\n[b]\ny = 2\n", "[a]\nx = 5\n"),
        "[a]\nx = 5\n\n[b]\ny = 2\n"
    );
    assert_eq!(
        with_section("[a]\nx = 1\n", "[[t]]\nn = 1\n"),
        "[a]\nx = 1\n\n[[t]]\nn = 1\n"
    );
}
