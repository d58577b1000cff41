//! `warren serve` through the real binary and plain HTTP: the embedded page, exports identical
//! to `warren run`, every malformed request refused with a clear 4xx, live reloads pushed as
//! server-sent events (every save style `watch` handles), a bad edit reported with its
//! file:line while the server keeps serving, and concurrent requests during rapid edits.
//! (The page itself is tested in Chromium by `browser.rs`.)

use crate::common::server::*;
use crate::common::*;
use base64::Engine;
use std::io::Write;
use std::time::{Duration, Instant};

const RECIPE: &str = r##"local style = require "lib.style"
return {
  name = "served",
  params = {
    width = { default = 12, min = 4, max = 4096, doc = "Map width in cells." },
    height = { default = 6, min = 4, max = 4096, doc = "Map height in cells." },
    mode = { default = "plain", choices = { "plain", "spotted" }, doc = "How to fill." },
    spots = { default = 2, min = 0, max = 10 },
    spin = { default = false, doc = "Run away, to test the budget." },
    fail_every = { default = 0, min = 0, max = 100, doc = "Fail the seeds divisible by this." },
  },
  generate = function(map, ctx)
    local started = os.clock()
    if ctx.params.fail_every > 0 and ctx.seed % ctx.params.fail_every == 0 then
      error(("seed %d fails on purpose"):format(ctx.seed))
    end
    map:fill(style.fill)
    if ctx.params.mode == "spotted" then
      for i = 1, ctx.params.spots do map:set(i, 1, "rock") end
    end
    if ctx.params.spin then while true do end end
    map:add_room(warren.rect(1, 1, 3, 2), "hall")
    local marks = {}
    for y = 0, map.height - 1 do
      marks[#marks + 1] = y == 1 and ("!" .. (" "):rep(map.width - 1)) or (" "):rep(map.width)
    end
    map:add_layer("marks", { rows = marks, colors = { ["!"] = "#ff0000" } })
    map:tag("version", VERSION)
    -- The clocks as generate starts: the same as in `warren run`.
    map:tag("clock", started)
    map:tag("time", os.time())
  end }
"##;

fn recipe(version: i64) -> String {
    RECIPE.replace("VERSION", &version.to_string())
}

fn serve(args: &[&str]) -> Served {
    let recipe = recipe(1);
    let mut all = vec!["r.lua", "--seed", "5"];
    all.extend_from_slice(args);
    Served::start(
        &[
            ("r.lua", recipe.as_str()),
            ("lib/style.lua", "return { fill = \"floor\" }\n"),
        ],
        &all,
    )
}

/// `warren run` arguments for the map the export tests download: seed 9, mode "spotted", two
/// levels.
const SPOTTED_9: [&str; 7] = [
    "r.lua",
    "--seed",
    "9",
    "--set",
    "mode=spotted",
    "--levels",
    "2",
];

/// `warren run` in the served tree.
fn run(s: &Served, args: &[&str]) -> Vec<u8> {
    let out = warren()
        .current_dir(s.dir.path())
        .arg("run")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The rows of the page's copy of level 1, rebuilt from its packed terrain ids.
fn page_rows(page: &serde_json::Value) -> Vec<String> {
    let frame = page["levels"][0]["frames"]
        .as_array()
        .unwrap()
        .last()
        .unwrap();
    let width = frame["width"].as_u64().unwrap() as usize;
    let glyphs: Vec<char> = frame["terrains"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["glyph"].as_str().unwrap().chars().next().unwrap())
        .collect();
    let cells = &frame["terrain"];
    assert_eq!(cells["bytes"], 1);
    let ids = base64::engine::general_purpose::STANDARD
        .decode(cells["data"].as_str().unwrap())
        .unwrap();
    ids.chunks(width)
        .map(|row| row.iter().map(|&t| glyphs[t as usize]).collect())
        .collect()
}

/// The rows of the first level of `warren run --format json`.
fn json_rows(json: &serde_json::Value) -> Vec<String> {
    json["levels"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_page_is_embedded_and_exports_are_what_warren_run_writes() {
    let s = serve(&[]);
    let page = s.get("/");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(
        page.text().contains("<canvas id=\"map\""),
        "{}",
        page.text()
    );
    assert!(page
        .header("content-security-policy")
        .is_some_and(|c| c.contains("default-src 'self'")));
    for (asset, kind) in [
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/sweep.js", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let r = s.get(asset);
        assert_eq!(
            (r.status, r.header("content-type")),
            (200, Some(kind)),
            "{asset}"
        );
        assert!(!r.body.is_empty());
    }
    // Nothing on the page comes from another host.
    let js = s.get("/app.js").text()
        + &s.get("/sweep.js").text()
        + &page.text()
        + &s.get("/style.css").text();
    assert!(!js.contains("http://") && !js.contains("https://"));

    let png = s.get("/api/export.png?seed=9&set=mode=spotted&set=spots=3&scale=3");
    assert_eq!(png.status, 200);
    assert_eq!(
        png.header("content-disposition"),
        Some("attachment; filename=\"served-9.png\"")
    );
    run(
        &s,
        &[
            "r.lua",
            "--seed",
            "9",
            "--set",
            "mode=spotted",
            "--set",
            "spots=3",
            "--out",
            "cli.png",
            "--scale",
            "3",
        ],
    );
    let cli = std::fs::read(s.path("cli.png")).unwrap();
    assert_eq!(
        png.body, cli,
        "the PNG download is `warren run --format png`"
    );

    let json = s.get("/api/export.json?seed=9&set=mode=spotted&levels=2&layer=components");
    assert_eq!(json.status, 200);
    let cli = run(
        &s,
        &[
            &SPOTTED_9[..],
            &["--format", "json", "--layer", "components"],
        ]
        .concat(),
    );
    assert_eq!(json.text(), String::from_utf8(cli).unwrap());

    // The Tiled download: one zip holding the map and the tileset image it names, both what
    // `warren run --out NAME.tmx` writes.
    let tiled = s.get("/api/export.tiled.zip?seed=9&set=mode=spotted&levels=2");
    assert_eq!(tiled.status, 200);
    assert_eq!(tiled.header("content-type"), Some("application/zip"));
    assert_eq!(
        tiled.header("content-disposition"),
        Some("attachment; filename=\"served-9.tiled.zip\"")
    );
    run(&s, &[&SPOTTED_9[..], &["--out", "served-9.tmx"]].concat());
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(&tiled.body)).expect("a zip");
    let mut names: Vec<String> = zip.file_names().map(String::from).collect();
    names.sort();
    assert_eq!(names, ["served-9.tiles.png", "served-9.tmx"]);
    for name in names {
        let mut inside = Vec::new();
        std::io::Read::read_to_end(&mut zip.by_name(&name).unwrap(), &mut inside).unwrap();
        assert_eq!(inside, std::fs::read(s.path(&name)).unwrap(), "{name}");
    }
    assert!(std::fs::read_to_string(s.path("served-9.tmx"))
        .unwrap()
        .contains("source=\"served-9.tiles.png\""));
    let again = s.get("/api/export.tiled.zip?seed=9&set=mode=spotted&levels=2");
    assert_eq!(
        again.body, tiled.body,
        "the same map zips to the same bytes"
    );
    let refused = s.get("/api/export.tiled.zip?layer=region");
    assert_eq!(refused.status, 400, "{}", refused.text());

    // The page's own copy: the same terrain as the CLI's JSON, and batch's measurements.
    let map = s.get("/api/map?seed=9&set=mode=spotted");
    assert_eq!(map.status, 200);
    let page = map.json();
    let cli: serde_json::Value = serde_json::from_slice(&run(
        &s,
        &[
            "r.lua",
            "--seed",
            "9",
            "--set",
            "mode=spotted",
            "--format",
            "json",
        ],
    ))
    .unwrap();
    assert_eq!(page_rows(&page), json_rows(&cli));
    assert_eq!(page["seed"], "9");
    let level = &page["levels"][0];
    let metric = |name: &str| {
        level["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m[0] == name)
            .unwrap_or_else(|| panic!("no metric {name}: {level}"))[1]
            .as_f64()
            .unwrap()
    };
    assert_eq!(metric("rooms"), 1.0);
    assert_eq!(metric("components"), 1.0);
    let open = cli["levels"][0]["stats"]["open_fraction"].as_f64().unwrap();
    assert!((metric("floor_fraction") - open).abs() < 1e-12);
    assert!(level["time_ms"].as_f64().unwrap() >= 0.0);
    assert_eq!(level["frames"][0]["rooms"][0]["kind"], "hall");

    // The layers the map can be drawn as, the recipe's own among them; one layer of the
    // page's map is a palette of glyph and colour and an index per cell.
    assert_eq!(
        level["frames"][0]["layers"],
        serde_json::json!(["terrain", "priority", "region", "components", "marks"])
    );
    let layer = s.get("/api/layer?seed=9&set=mode=spotted&layer=region");
    assert_eq!(layer.status, 200, "{}", layer.text());
    assert_eq!(layer.json()["name"], "region");
    let marks = s
        .get("/api/layer?seed=9&set=mode=spotted&layer=marks")
        .json();
    let palette = marks["palette"].as_array().unwrap();
    let red = palette
        .iter()
        .position(|p| p == &serde_json::json!(["!", "#ff0000"]))
        .expect("the recipe's mark in the palette");
    let cells = base64::engine::general_purpose::STANDARD
        .decode(marks["cells"]["data"].as_str().unwrap())
        .unwrap();
    assert_eq!(cells[12], red as u8, "the mark at (0, 1) of a 12-wide map");
    assert_eq!(cells.iter().filter(|&&c| c == red as u8).count(), 1);
    let json = s.get("/api/export.json?seed=9&layer=marks");
    let cli = run(
        &s,
        &[
            "r.lua", "--seed", "9", "--format", "json", "--layer", "marks",
        ],
    );
    assert_eq!(json.text(), String::from_utf8(cli).unwrap());
}

#[test]
fn every_request_of_a_library_that_writes_its_module_table_equals_a_fresh_run() {
    // The rot library's default generator keeps its state in its module table: every map
    // writes it, and the reset after each puts it back, so a seed asked again, after others,
    // gives what `warren run` gives.
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("benches/rotlike"), dir.path());
    copy_regions(dir.path());
    let s = Served::start_in(dir, &["rotmaps.lua", "--seed", "1"]);
    let ask = |seed: u64| {
        let r = s.get(&format!(
            "/api/export.json?seed={seed}&set=gen=uniform&set=width=40"
        ));
        assert_eq!(r.status, 200, "{}", r.text());
        r.body
    };
    let answers: Vec<Vec<u8>> = [4, 2, 4, 2].iter().map(|&seed| ask(seed)).collect();
    assert_eq!(answers[0], answers[2]);
    assert_eq!(answers[1], answers[3]);
    for (seed, answer) in [(4, &answers[0]), (2, &answers[1])] {
        let fresh = run(
            &s,
            &[
                "rotmaps.lua",
                "--seed",
                &seed.to_string(),
                "--set",
                "gen=uniform",
            ]
            .into_iter()
            .chain(["--set", "width=40", "--format", "json"])
            .collect::<Vec<_>>(),
        );
        assert_eq!(&fresh, answer, "seed {seed}");
    }
}

#[test]
fn malformed_requests_get_clear_4xx_errors_and_the_server_carries_on() {
    let mut s = serve(&[]);
    let cases: &[(&str, u16, &str)] = &[
        ("/api/map?seed=abc", 400, "seed must be a whole number from 0 to 18446744073709551615, got \"abc\""),
        ("/api/map?seed=18446744073709551616", 400, "seed must be a whole number"),
        ("/api/map?seed=-3", 400, "seed must be a whole number"),
        ("/api/map?seed=1&seed=2", 400, "'seed' is given more than once"),
        ("/api/map?colour=red", 400, "unknown query parameter 'colour' (valid: recipe, seed, set, levels, steps)"),
        ("/api/map?set=widht=9", 400, "unknown parameter 'widht'; did you mean 'width'? (valid: fail_every, height, mode, spin, spots, width)"),
        ("/api/map?set=width=3", 400, "width = 3 is out of range (4..=4096)"),
        ("/api/map?set=width=wide", 400, "width = \"wide\" is not an integer"),
        ("/api/map?set=mode=striped", 400, "mode = 'striped' is not one of its choices: 'plain', 'spotted'"),
        ("/api/map?set=spin=perhaps", 400, "spin = \"perhaps\" is not a boolean"),
        ("/api/map?set=width", 400, "set expects key=value, got \"width\""),
        ("/api/map?levels=0", 400, "levels must be a whole number from 1 to 64, got \"0\""),
        ("/api/map?levels=100000", 400, "levels must be a whole number from 1 to 64"),
        ("/api/map?steps=maybe", 400, "steps must be 1 or 0"),
        ("/api/map?set=width=4096&set=height=4096", 413, "this request makes 16777216 cells; the page shows at most 4194304"),
        ("/api/map?set=width=2048&set=height=2048&levels=2", 413, "the page shows at most 4194304"),
        ("/api/layer?layer=heat", 400, "--layer heat: this map has no such layer (available: terrain, priority, region, components, marks)"),
        ("/api/layer?level=2", 400, "level 2 is past the last level generated (1)"),
        ("/api/layer?frame=5", 400, "frame 5 is past the last step of level 1 (0)"),
        ("/api/export.png?scale=0", 400, "scale must be a whole number from 1 to 64"),
        ("/api/export.png?scale=64&set=width=1000", 413, "1000×6 cells at scale 64 is 64000×384 pixels; the limit is 32768 per side"),
        ("/api/export.json?steps=1", 400, "unknown query parameter 'steps'"),
        ("/api/nothing", 404, "no such page: /api/nothing"),
    ];
    for (target, status, message) in cases {
        let r = s.get(target);
        assert_eq!(r.status, *status, "{target}: {}", r.text());
        assert_eq!(
            r.header("content-type"),
            Some("application/json"),
            "{target}"
        );
        assert!(r.problems().contains(message), "{target}: {}", r.problems());
    }
    let post = request(s.addr, "POST", "/api/map", &s.addr.to_string());
    assert_eq!(post.status, 405);

    // DNS rebinding: a page elsewhere reaching 127.0.0.1 through its own host name is refused.
    let r = request(s.addr, "GET", "/api/status", "attacker.example:80");
    assert_eq!(r.status, 403);
    assert!(
        r.problems().contains("is not this machine"),
        "{}",
        r.problems()
    );
    for host in [
        "localhost",
        &format!("localhost:{}", s.addr.port()),
        "[::1]:1",
    ] {
        assert_eq!(
            request(s.addr, "GET", "/api/status", host).status,
            200,
            "{host}"
        );
    }

    // The recipe running away is the recipe's failure (422), stopped by the budget as in `run`.
    let started = Instant::now();
    let r = s.get("/api/map?set=spin=true");
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.problems().contains("r.lua:21:"), "{}", r.problems());
    assert!(r.problems().contains("budget"), "{}", r.problems());
    assert!(started.elapsed() < Duration::from_secs(30));

    assert!(s.alive());
    assert_eq!(s.get("/api/map?seed=3").status, 200);
}

#[test]
fn a_drawn_seed_is_announced_and_bad_start_ups_are_refused() {
    let s = Served::start(
        &[
            ("r.lua", &recipe(1)),
            ("lib/style.lua", "return { fill = \"floor\" }\n"),
        ],
        &["r.lua"],
    );
    let seed = s.get("/api/status").json()["session"]["seed"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(s.stderr().contains(&format!(
        "seed: {seed} (repeat this run with --seed {seed})"
    )));

    let dir = temp_tree(&[
        ("r.lua", &recipe(1)),
        ("lib/style.lua", "return { fill = \"floor\" }\n"),
    ]);
    copy_regions(dir.path());
    let fail = |args: &[&str], message: &str| {
        let out = warren()
            .current_dir(dir.path())
            .arg("serve")
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    };
    fail(&["missing.lua"], "missing.lua: no such recipe file");
    fail(
        &["r.lua", "--set", "widht=3", "--port", "0"],
        "unknown parameter 'widht'",
    );
    fail(
        &["r.lua", "--regions", "nowhere", "--port", "0"],
        "nowhere: --regions is not a directory",
    );
    fail(
        &["r.lua", "--port", &s.addr.port().to_string()],
        &format!(
            "cannot listen on 127.0.0.1:{}: port {} is in use",
            s.addr.port(),
            s.addr.port()
        ),
    );
}

#[test]
fn another_bind_address_warns_and_lets_other_host_names_in() {
    let s = serve(&["--bind", "0.0.0.0"]);
    assert!(
        s.stderr().contains("warning: serving on 0.0.0.0:"),
        "{}",
        s.stderr()
    );
    assert!(s.url.starts_with("http://127.0.0.1:"), "{}", s.url);
    let r = request(s.addr, "GET", "/api/status", "maps.example:80");
    assert_eq!(r.status, 200);
}

#[test]
fn every_save_style_is_pushed_and_a_bad_edit_keeps_serving_the_last_good_recipe() {
    let s = serve(&[]);
    let events = s.events();
    let (_, first) = events.wait_for("the current status", |_| true);
    let version0 = first["version"].as_u64().unwrap();
    assert_eq!(first["recipe"]["name"], "served");
    assert_eq!(first["problems"].as_array().unwrap().len(), 0);
    let tag = |s: &Served| -> i64 {
        let r = s.get("/api/map?seed=5");
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()["levels"][0]["frames"][0]["tags"]["version"]
            .as_i64()
            .unwrap()
    };
    assert_eq!(tag(&s), 1);

    let mut version = version0;
    let mut latencies = Vec::new();
    let mut saved = |what: &str, save: &dyn Fn(), reason: &str| -> serde_json::Value {
        let at = Instant::now();
        save();
        version += 1;
        let v = version;
        let (when, status) = events.wait_for(what, |e| e["version"].as_u64() == Some(v));
        assert!(
            status["reason"].as_str().unwrap().contains(reason),
            "{what}: {status}"
        );
        latencies.push((what.to_string(), when - at));
        status
    };

    // A region file written in place.
    let terrain = std::fs::read_to_string(s.path("regions/terrain.toml")).unwrap();
    saved(
        "a region file written in place",
        &|| {
            std::fs::write(
                s.path("regions/terrain.toml"),
                terrain.replace("#c8c8c8", "#c8c8c9"),
            )
            .unwrap()
        },
        "regions (terrain.toml)",
    );
    // The recipe saved atomically (a temporary file renamed over it).
    saved(
        "the recipe renamed over",
        &|| atomic_write(&s.path("r.lua"), &recipe(2)),
        "script (r.lua)",
    );
    assert_eq!(tag(&s), 2);
    // A module the recipe requires, deleted and created again.
    saved(
        "a module deleted and recreated",
        &|| {
            std::fs::remove_file(s.path("lib/style.lua")).unwrap();
            std::thread::sleep(Duration::from_millis(5));
            std::fs::write(s.path("lib/style.lua"), "return { fill = \"door\" }\n").unwrap();
        },
        "script (style.lua)",
    );
    let cli: serde_json::Value =
        serde_json::from_slice(&run(&s, &["r.lua", "--seed", "5", "--format", "json"])).unwrap();
    assert_eq!(page_rows(&s.get("/api/map?seed=5").json()), json_rows(&cli));

    // A broken region file: the status names it with line and column; maps are refused with
    // the same problem (the page keeps its last good map) and the server carries on.
    let status = saved(
        "a broken region file",
        &|| std::fs::write(s.path("regions/terrain.toml"), "[[terrain]\nname = 1\n").unwrap(),
        "regions (terrain.toml)",
    );
    let problem = &status["problems"][0];
    assert!(
        problem["file"].as_str().unwrap().ends_with("terrain.toml"),
        "{status}"
    );
    assert_eq!(problem["line"], 1, "{status}");
    assert!(problem["column"].as_u64().is_some(), "{status}");
    let r = s.get("/api/map?seed=5");
    assert_eq!(r.status, 422);
    assert!(r.problems().contains("terrain.toml:1:"), "{}", r.problems());
    assert_eq!(
        status["recipe"]["name"], "served",
        "the last good recipe stays"
    );

    // Fixed: the problems clear and maps come back.
    let status = saved(
        "the region file fixed",
        &|| std::fs::write(s.path("regions/terrain.toml"), &terrain).unwrap(),
        "regions (terrain.toml)",
    );
    assert_eq!(status["problems"].as_array().unwrap().len(), 0, "{status}");
    assert_eq!(tag(&s), 2);

    // A recipe with a syntax error names its line; fixing it clears it.
    let status = saved(
        "a recipe syntax error",
        &|| {
            std::fs::write(
                s.path("r.lua"),
                recipe(3).replace("map:fill(style.fill)", "map:fill(style.fill"),
            )
            .unwrap()
        },
        "script (r.lua)",
    );
    assert!(
        status["problems"][0]["message"]
            .as_str()
            .unwrap()
            .contains("r.lua:"),
        "{status}"
    );
    assert!(status["problems"][0]["line"].as_u64().is_some(), "{status}");
    saved(
        "the recipe fixed",
        &|| atomic_write(&s.path("r.lua"), &recipe(4)),
        "script (r.lua)",
    );
    assert_eq!(tag(&s), 4);
    for (what, took) in &latencies {
        eprintln!(
            "save to status event: {:>6.1} ms  {what}",
            took.as_secs_f64() * 1e3
        );
    }
}

#[test]
fn concurrent_requests_during_rapid_edits_neither_crash_nor_wedge_the_server() {
    let mut s = serve(&[]);
    let addr = s.addr;
    let queries = [
        "/api/map?seed=1",
        "/api/map?seed=2&set=mode=spotted",
        "/api/map?seed=x",
        "/api/map?set=width=5000",
        "/api/layer?seed=3&layer=components",
        "/api/export.png?seed=4",
        "/api/export.json?seed=5&levels=3",
        "/api/status",
    ];
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let clients: Vec<_> = (0..4)
        .map(|t| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut seen = Vec::new();
                let mut i = t;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) && seen.len() < 400 {
                    let target = queries[i % queries.len()];
                    let r = request(addr, "GET", target, &addr.to_string());
                    seen.push((target, r.status));
                    i += 1;
                }
                seen
            })
        })
        .collect();
    // Rapid edits meanwhile: good and broken recipes, region files rewritten.
    let terrain = std::fs::read_to_string(s.path("regions/terrain.toml")).unwrap();
    for v in 0..40 {
        if v % 3 == 1 {
            std::fs::write(s.path("r.lua"), "return { oops").unwrap();
        } else {
            atomic_write(&s.path("r.lua"), &recipe(100 + v));
        }
        if v % 5 == 0 {
            std::fs::write(s.path("regions/terrain.toml"), &terrain).unwrap();
        }
        std::thread::sleep(Duration::from_millis(15));
    }
    atomic_write(&s.path("r.lua"), &recipe(999));
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for c in clients {
        for (target, status) in c.join().expect("a client thread") {
            assert!(
                [200, 400, 413, 422, 503].contains(&status),
                "{target}: {status}"
            );
        }
    }
    assert!(s.alive(), "the server survived");
    // It settles on the last save.
    let deadline = Instant::now() + PATIENCE;
    loop {
        let r = s.get("/api/map?seed=1");
        if r.status == 200 && r.json()["levels"][0]["frames"][0]["tags"]["version"] == 999 {
            break;
        }
        assert!(Instant::now() < deadline, "never settled: {}", r.text());
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_request_given_up_on_stops_its_generation() {
    // A runaway map that would hold the worker for a minute under these budgets.
    let s = serve(&["--max-seconds", "60", "--max-instructions", "100000000000"]);
    let mut slow = std::net::TcpStream::connect(s.addr).unwrap();
    write!(
        slow,
        "GET /api/map?set=spin=true HTTP/1.0\r\nHost: {}\r\n\r\n",
        s.addr
    )
    .unwrap();
    // Long enough for the worker to be inside the runaway loop; then the caller gives up.
    std::thread::sleep(Duration::from_millis(500));
    drop(slow);
    let started = Instant::now();
    let next = s.get("/api/map?seed=6");
    assert_eq!(next.status, 200, "{}", next.text());
    // Without the cancellation the next map waits for the runaway's 60 s budget.
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the next map took {:?}",
        started.elapsed()
    );
}

/// A second recipe, whose parameters are not declared in name order.
const SECOND: &str = r#"return {
  name = "second",
  params = {
    width = { default = 10, min = 4, max = 64 },
    height = { default = 5, min = 4, max = 64 },
    zeta = { default = 1, min = 0, max = 9 },
    alpha = { default = 2, min = 0, max = 9 },
  },
  generate = function(map, ctx)
    map:fill("floor")
    for x = 1, ctx.params.zeta do map:set(x, 1, "rock") end
  end }
"#;

#[test]
fn every_recipe_beside_the_first_is_served_with_its_own_status() {
    let r = recipe(1);
    let s = Served::start(
        &[
            ("scripts/r.lua", r.as_str()),
            ("scripts/lib/style.lua", "return { fill = \"floor\" }\n"),
            ("scripts/second.lua", SECOND),
            ("scripts/notes.txt", "not a recipe"),
        ],
        &["scripts/r.lua", "--seed", "5"],
    );
    let offered = s.get("/api/recipes").json();
    assert_eq!(
        offered,
        serde_json::json!({
            "recipes": ["scripts/r.lua", "scripts/second.lua"],
            "start": "scripts/r.lua",
        })
    );
    // Each recipe has its own status, parameters in the order it declares them.
    let status = s.get("/api/status?recipe=scripts/second.lua").json();
    assert_eq!(status["path"], "scripts/second.lua");
    assert_eq!(status["recipes"], offered["recipes"]);
    let names: Vec<&str> = status["recipe"]["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["width", "height", "zeta", "alpha"]);
    let start = s.get("/api/status").json();
    assert_eq!(start["path"], "scripts/r.lua");
    let names: Vec<&str> = start["recipe"]["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["width", "height", "mode", "spots", "spin", "fail_every"]
    );

    // Its maps are what `warren run` makes of it.
    let page = s
        .get("/api/map?recipe=scripts/second.lua&seed=3&set=zeta=4")
        .json();
    assert_eq!(page["recipe"], "second");
    let cli: serde_json::Value = serde_json::from_slice(&run(
        &s,
        &[
            "scripts/second.lua",
            "--seed",
            "3",
            "--set",
            "zeta=4",
            "--format",
            "json",
        ],
    ))
    .unwrap();
    assert_eq!(page_rows(&page), json_rows(&cli));
    let export = s.get("/api/export.json?recipe=scripts%2Fsecond.lua&seed=3&set=zeta=4");
    assert_eq!(
        export.text(),
        String::from_utf8(run(
            &s,
            &[
                "scripts/second.lua",
                "--seed",
                "3",
                "--set",
                "zeta=4",
                "--format",
                "json"
            ]
        ))
        .unwrap()
    );

    // Nothing but the recipes listed: not a module, not a path out of the directory.
    for bad in [
        "scripts/lib/style.lua",
        "scripts/notes.txt",
        "scripts/../scripts/r.lua",
        "/etc/passwd",
        "second.lua",
    ] {
        let q = form_urlencoded::byte_serialize(bad.as_bytes()).collect::<String>();
        for route in ["map", "status", "events", "sweep", "export.json"] {
            let r = s.get(&format!("/api/{route}?recipe={q}"));
            assert_eq!(r.status, 404, "{route} {bad}: {}", r.text());
            assert!(
                r.problems()
                    .contains("this server offers: scripts/r.lua, scripts/second.lua"),
                "{}",
                r.problems()
            );
        }
    }

    // A save of one recipe is that recipe's news only.
    let second = s.events_at("/api/events?recipe=scripts%2Fsecond.lua");
    second.wait_for("the first status", |v| v["version"] == 0);
    atomic_write(
        &s.path("scripts/second.lua"),
        &SECOND.replace("zeta = { default = 1", "zeta = { default = 3"),
    );
    let (_, after) = second.wait_for("the save", |v| v["version"] == 1);
    assert_eq!(after["reason"], "script (second.lua)");
    assert_eq!(after["recipe"]["params"][2]["default"], "3");
    assert_eq!(
        s.get("/api/status").json()["version"],
        0,
        "r.lua did not change"
    );
    // A recipe saved after the server started is offered.
    std::fs::write(s.path("scripts/third.lua"), SECOND).unwrap();
    assert_eq!(
        s.get("/api/recipes").json()["recipes"],
        serde_json::json!(["scripts/r.lua", "scripts/second.lua", "scripts/third.lua"])
    );
    assert_eq!(s.get("/api/map?recipe=scripts/third.lua").status, 200);
}

/// The final event of a sweep (its `state` is not `running`).
fn sweep_end(s: &Served, query: &str) -> serde_json::Value {
    let events = s.events_at(&format!("/api/sweep?{query}"));
    assert!(events.refusal.is_none(), "{query}: {:?}", events.refusal);
    events
        .wait_for("the sweep's end", |v| v["state"] != "running")
        .1
}

#[test]
fn a_sweep_is_warren_batch_streamed_and_lists_failures_by_seed() {
    let s = serve(&[]);
    let events = s.events_at("/api/sweep?count=60&set=mode=spotted&set=fail_every=7");
    let (_, last) = events.wait_for("the end", |v| v["state"] != "running");
    assert_eq!(last["state"], "done", "{last}");
    assert!(
        last["first_ms"].as_f64() <= last["elapsed_ms"].as_f64(),
        "{last}"
    );
    assert_eq!(
        (last["done"].as_u64(), last["count"].as_u64()),
        (Some(60), Some(60))
    );
    assert_eq!(last["start"], "0");
    // Seeds 0, 7, …, 56 fail: listed by seed with their messages.
    assert_eq!(last["failed"], 9);
    let failures: Vec<(String, String)> = last["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["seed"].as_str().unwrap().into(),
                f["message"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(failures.len(), 9);
    for (i, (seed, message)) in failures.iter().enumerate() {
        assert_eq!(seed, &(i * 7).to_string());
        assert!(
            message.contains(&format!("seed {seed} fails on purpose")),
            "{message}"
        );
    }
    // The numbers are `warren batch`'s for the same seeds.
    let out = warren()
        .current_dir(s.dir.path())
        .args([
            "batch",
            "r.lua",
            "--count",
            "60",
            "--set",
            "mode=spotted",
            "--set",
            "fail_every=7",
        ])
        .args(["--records", "records.csv"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("9 of 60 maps failed"));
    let csv = std::fs::read_to_string(s.path("records.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    for m in last["metrics"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        let col = head
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("{name} in {head:?}"));
        let values: Vec<f64> = rows.iter().filter_map(|r| r[col].parse().ok()).collect();
        assert_eq!(m["count"].as_u64(), Some(values.len() as u64), "{name}");
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(
            (m["min"].as_f64(), m["max"].as_f64()),
            (Some(min), Some(max)),
            "{name}"
        );
        let listed: u64 = m["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v[1].as_u64().unwrap())
            .sum();
        assert_eq!(listed, values.len() as u64, "{name}");
    }
    // A second page asking for the same sweep is served its statistics again, not a new run.
    let again = sweep_end(&s, "count=60&set=fail_every=7&set=mode=spotted");
    assert_eq!(again["id"], last["id"]);

    // Bad requests are refused before anything runs.
    for (query, status, says) in [
        (
            "count=0",
            400,
            "count must be a whole number from 1 to 1000000",
        ),
        ("set=nope=1", 400, "unknown parameter 'nope'"),
        ("set=spots=99", 400, "spots = 99 is out of range"),
        ("start=1&start=2", 400, "'start' is given more than once"),
    ] {
        let r = s.get(&format!("/api/sweep?{query}"));
        assert_eq!(r.status, status, "{query}: {}", r.text());
        assert!(r.problems().contains(says), "{query}: {}", r.problems());
    }
}

#[test]
fn a_newer_save_or_sweep_stops_the_running_sweep() {
    let s = serve(&[]);
    // Far more maps than can run before the save.
    let long = s.events_at("/api/sweep?count=1000000");
    long.wait_for("the first statistics", |v| v["done"].as_u64() > Some(0));
    atomic_write(&s.path("r.lua"), &recipe(2));
    let (_, end) = long.wait_for("the sweep's end", |v| v["state"] != "running");
    assert_eq!(end["state"], "cancelled", "{end}");
    assert_eq!(end["reason"], "a newer version of the recipe was loaded");
    assert!(end["done"].as_u64() < Some(1_000_000));
    // The same sweep asked for again runs on the new version.
    let next = s.events_at("/api/sweep?count=1000000");
    let (_, running) = next.wait_for("the new sweep", |v| v["done"].as_u64() > Some(0));
    assert_eq!(running["version"], 1);
    assert_ne!(running["id"], end["id"]);
    // Another sweep replaces it.
    let other = s.events_at("/api/sweep?count=20");
    let (_, replaced) = next.wait_for("the replaced sweep's end", |v| v["state"] != "running");
    assert_eq!(replaced["state"], "cancelled");
    assert_eq!(replaced["reason"], "a newer sweep replaced it");
    assert_eq!(
        other
            .wait_for("the other's end", |v| v["state"] != "running")
            .1["state"],
        "done"
    );

    // A broken recipe cannot be swept: every problem, as for a map.
    std::fs::write(s.path("r.lua"), "return { oops").unwrap();
    let deadline = Instant::now() + PATIENCE;
    loop {
        let r = s.get("/api/sweep?count=5");
        if r.status == 422 {
            assert!(r.problems().contains("r.lua:1"), "{}", r.problems());
            break;
        }
        assert!(Instant::now() < deadline, "never refused: {}", r.status);
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn sigint_and_sigterm_stop_the_server_cleanly_even_with_an_event_stream_open() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let mut s = serve(&[]);
        assert_eq!(s.get("/").status, 200);
        let _stream = s.events();
        let started = Instant::now();
        assert_eq!(s.stop(signal), 0, "signal {signal}: {}", s.stderr());
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
        // The reader thread may still be draining the last line.
        let deadline = Instant::now() + Duration::from_secs(5);
        while !s.stderr().contains("warren serve: stopped") && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            s.stderr().contains("warren serve: stopped"),
            "{}",
            s.stderr()
        );
    }
}

/// A server started with absolute paths names its files relatively in everything a client
/// can read (the recipe list, statuses with the page's command line, error messages), whether
/// the tree lies below the current directory or beside it (issue 38).
#[test]
fn no_answer_names_the_servers_tree_absolutely() {
    const BROKEN: &str = "return { name = 'broken', params = { width = { default = 8 }, height = { default = 8 } },\ngenerate = function(map, ctx)\n  error('boom')\nend }\n";
    let tree = temp_tree(&[("scripts/broken.lua", BROKEN)]);
    copy_regions(tree.path());
    let root = tree.path().canonicalize().unwrap();
    let script = root.join("scripts/broken.lua");
    let regions = root.join("regions");
    let abs = [
        script.to_str().unwrap(),
        "--regions",
        regions.to_str().unwrap(),
    ];
    let check = |s: &Served, shown: &str| {
        let answers = [
            s.get("/api/recipes").text(),
            s.get("/api/status").text(),
            s.get(&format!("/api/map?recipe={shown}&seed=3")).text(),
        ];
        assert!(answers[2].contains(&format!("{shown}:3")), "{}", answers[2]);
        assert!(answers[2].contains("boom"), "{}", answers[2]);
        for a in &answers {
            assert!(
                !a.contains(root.to_str().unwrap()),
                "an absolute path in {a}"
            );
        }
    };
    // Beside the current directory: through `..`.
    let s = Served::start_in(tempfile::tempdir().unwrap(), &abs);
    let shown = s.get("/api/status").json()["path"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        shown.starts_with("../") && shown.ends_with("scripts/broken.lua"),
        "{shown}"
    );
    check(&s, &shown);
    // Below it: the tree's own names.
    let s = Served::start_in(tree, &abs);
    check(&s, "scripts/broken.lua");
}
