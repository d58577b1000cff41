//! `warren init DIR` starts a project outside the repository: from an empty directory, through
//! the real binary, `run`, `watch`, `serve` and `check` then work inside DIR at once, and the
//! editor settings point at files that are there.

use crate::common::root;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `warren ARGS` run in `dir`.
fn warren(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warren"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("warren starts")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A new project made by `warren init my-maps` in an empty directory; the directory holding it.
fn project() -> (tempfile::TempDir, std::path::PathBuf) {
    let outer = tempfile::tempdir().unwrap();
    let out = warren(outer.path(), &["init", "my-maps"]);
    assert!(
        out.status.success(),
        "warren init failed: {}",
        text(&out.stderr)
    );
    let dir = outer.path().join("my-maps");
    (outer, dir)
}

#[test]
fn init_writes_a_project_that_runs_and_checks_at_once() {
    let (_outer, dir) = project();
    for file in [
        "scripts/map.lua",
        "scripts/types/warren.d.lua",
        "regions/terrain.toml",
        "regions/rooms.toml",
        "schemas/regions.schema.json",
        ".luarc.json",
        ".taplo.toml",
    ] {
        assert!(dir.join(file).is_file(), "{file} is missing");
    }
    let run = warren(&dir, &["run", "scripts/map.lua", "--seed", "1"]);
    assert!(run.status.success(), "run: {}", text(&run.stderr));
    let map = text(&run.stdout);
    assert!(
        map.lines().count() >= 16 && map.contains('#') && map.contains('.'),
        "{map}"
    );
    let again = warren(&dir, &["run", "scripts/map.lua", "--seed", "1"]);
    assert_eq!(run.stdout, again.stdout, "the same seed gives the same map");
    let check = warren(&dir, &["check", "--deny-warnings"]);
    assert!(
        check.status.success(),
        "check: {}{}",
        text(&check.stdout),
        text(&check.stderr)
    );
    // From inside scripts/ too, as from the repository.
    let check = warren(&dir.join("scripts"), &["check"]);
    assert!(
        check.status.success(),
        "check in scripts/: {}",
        text(&check.stderr)
    );
    let json = warren(
        &dir,
        &["run", "scripts/map.lua", "--seed", "2", "--format", "json"],
    );
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON output");
    assert_eq!(doc["recipe"], "map");
}

#[test]
fn init_watch_shows_the_map_and_follows_a_region_edit() {
    let (_outer, dir) = project();
    let mut child = Command::new(env!("CARGO_BIN_EXE_warren"))
        .args([
            "watch",
            "scripts/map.lua",
            "--seed",
            "1",
            "--format",
            "ascii",
        ])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut out = child.stdout.take().unwrap();
    let drain = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        s
    });
    let status = |rx: &std::sync::mpsc::Receiver<String>| {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) {
            if let Ok(line) = rx.recv_timeout(Duration::from_millis(100)) {
                if line.starts_with("watch: ") {
                    return line;
                }
            }
        }
        panic!("no watch status line within 60 s");
    };
    let first = status(&rx);
    assert!(first.starts_with("watch: ok"), "{first}");
    // A region edit in the new project is seen: corridors of a new terrain.
    let terrain = dir.join("regions/terrain.toml");
    let mut t = std::fs::read_to_string(&terrain).unwrap();
    t.push_str(
        "\n[[terrain]]\nname = \"moss\"\nglyph = \",\"\ncolor = \"#5f8f3a\"\nsolid = false\n",
    );
    std::fs::write(&terrain, t).unwrap();
    let rooms = dir.join("regions/rooms.toml");
    let r = std::fs::read_to_string(&rooms).unwrap();
    std::fs::write(
        &rooms,
        r.replace("corridor = \"floor\"", "corridor = \"moss\""),
    )
    .unwrap();
    let mut saw = Vec::new();
    loop {
        let line = status(&rx);
        saw.push(line.clone());
        if line.starts_with("watch: ok") && line.contains("rooms.toml") {
            break;
        }
        assert!(saw.len() < 10, "no reload after the edit: {saw:?}");
    }
    child.stdin.take().unwrap().write_all(b"q\n").unwrap();
    let code = child.wait().unwrap();
    assert!(code.success());
    let shown = drain.join().unwrap();
    assert!(
        shown.contains(','),
        "the last map drawn has moss corridors:\n{shown}"
    );
}

#[test]
fn init_serve_answers_at_once() {
    let (_outer, dir) = project();
    let mut child = Command::new(env!("CARGO_BIN_EXE_warren"))
        .args(["serve", "scripts/map.lua", "--port", "0"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut url)
        .unwrap();
    let addr = url
        .trim()
        .trim_start_matches("http://")
        .trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .write_all(b"GET /api/map?seed=1 HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        .unwrap();
    let mut reply = String::new();
    std::io::Read::read_to_string(&mut stream, &mut reply).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        reply.starts_with("HTTP/1.1 200") || reply.starts_with("HTTP/1.0 200"),
        "{}",
        &reply[..reply.len().min(300)]
    );
}

#[test]
fn init_writes_what_the_editors_are_pointed_at() {
    let (_outer, dir) = project();
    let luarc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(".luarc.json")).unwrap()).unwrap();
    for lib in luarc["workspace.library"].as_array().unwrap() {
        let lib = dir.join(lib.as_str().unwrap());
        assert!(lib.join("warren.d.lua").is_file(), "{}", lib.display());
    }
    let taplo: toml::Value =
        toml::from_str(&std::fs::read_to_string(dir.join(".taplo.toml")).unwrap()).unwrap();
    let rule = &taplo["rule"][0];
    let schema = dir.join(rule["schema"]["path"].as_str().unwrap());
    assert_eq!(
        std::fs::read_to_string(schema).unwrap(),
        warren_core::region::reference::json_schema_text()
    );
    assert_eq!(rule["include"][0].as_str(), Some("regions/**/*.toml"));
    assert_eq!(
        std::fs::read_to_string(dir.join("scripts/types/warren.d.lua")).unwrap(),
        warren_lua::stubs::render()
    );
    // The repository's own settings say the same.
    assert_eq!(
        std::fs::read_to_string(root().join(".taplo.toml")).unwrap(),
        std::fs::read_to_string(dir.join(".taplo.toml")).unwrap()
    );
    assert_eq!(
        std::fs::read_to_string(root().join(".luarc.json")).unwrap(),
        std::fs::read_to_string(dir.join(".luarc.json")).unwrap()
    );
    // The default regions are the shipped ones, every file of them.
    let mut shipped: Vec<String> = std::fs::read_dir(root().join("regions"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    shipped.sort();
    let mut copied: Vec<String> = std::fs::read_dir(dir.join("regions"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    copied.sort();
    assert_eq!(shipped, copied);
    for name in &shipped {
        assert_eq!(
            std::fs::read(root().join("regions").join(name)).unwrap(),
            std::fs::read(dir.join("regions").join(name)).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn init_never_overwrites_a_file() {
    let (outer, dir) = project();
    std::fs::write(dir.join("scripts/map.lua"), "-- mine\n").unwrap();
    std::fs::remove_file(dir.join(".taplo.toml")).unwrap();
    let out = warren(outer.path(), &["init", "my-maps"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("my-maps: already holds")
            && err.contains("scripts/map.lua")
            && err.contains("nothing was written"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("scripts/map.lua")).unwrap(),
        "-- mine\n"
    );
    assert!(
        !dir.join(".taplo.toml").exists(),
        "nothing is written when one file is taken"
    );

    std::fs::write(outer.path().join("a-file"), "x").unwrap();
    let out = warren(outer.path(), &["init", "a-file"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("a-file: exists and is not a directory"));

    let out = warren(outer.path(), &["init"]);
    assert_eq!(out.status.code(), Some(2), "DIR is required");
}

#[test]
fn init_into_an_existing_directory_with_other_files() {
    let outer = tempfile::tempdir().unwrap();
    std::fs::write(outer.path().join("notes.txt"), "mine").unwrap();
    let out = warren(outer.path(), &["init", "."]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("scripts/map.lua"));
    assert_eq!(
        std::fs::read_to_string(outer.path().join("notes.txt")).unwrap(),
        "mine"
    );
    let run = warren(outer.path(), &["run", "scripts/map.lua", "--seed", "5"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
}
