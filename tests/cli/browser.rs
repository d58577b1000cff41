//! `warren serve` in a real browser: the real binary serves a private tree, headless Chromium
//! (driven through chromedriver over WebDriver) opens the page, and the tests compare what the
//! page draws and shows with what `warren run` makes for the same inputs.
//!
//! Needs Chromium and chromedriver (Debian: `apt-get install -y chromium chromium-driver`; or
//! set `WARREN_CHROMIUM` and `WARREN_CHROMEDRIVER` to their paths). Without them the tests say
//! so loudly on the terminal and do nothing, unless `WARREN_REQUIRE_BROWSER=1` (set by
//! `.ci/run`), which makes a missing browser a failure.
//!
//! `cargo test --test cli browser:: -- --nocapture` also prints the measured save-to-update latency.

use crate::common::server::*;
use crate::common::webdriver::{Client, Locator, PointerAction, MOUSE_BUTTON_LEFT};
use crate::common::*;
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// One browser at a time: the machine has two cores.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// How long the page may take to show an expected state (generous: the machine may be busy).
const WAIT: Duration = Duration::from_secs(20);

/// The bound for a save to show on the page.
const UPDATE_WITHIN: Duration = Duration::from_secs(1);

const INSTALL: &str = "install them with `apt-get install -y chromium chromium-driver` (Debian), or set WARREN_CHROMIUM and WARREN_CHROMEDRIVER to their paths";

/// A program named by `var`, or the first of `names` found on the PATH.
fn program(var: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(var) {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// Chromium and chromedriver, or `None` after saying loudly why the test does not run.
fn tools() -> Option<(PathBuf, PathBuf)> {
    let chromium = program(
        "WARREN_CHROMIUM",
        &[
            "chromium",
            "chromium-browser",
            "google-chrome",
            "google-chrome-stable",
        ],
    );
    let driver = program("WARREN_CHROMEDRIVER", &["chromedriver"]);
    if let (Some(c), Some(d)) = (&chromium, &driver) {
        return Some((c.clone(), d.clone()));
    }
    let missing: Vec<&str> = [
        ("chromium", chromium.is_none()),
        ("chromedriver", driver.is_none()),
    ]
    .iter()
    .filter(|(_, gone)| *gone)
    .map(|(n, _)| *n)
    .collect();
    let message = format!(
        "BROWSER TESTS NOT RUN: {} not found; {INSTALL}",
        missing.join(" and ")
    );
    if std::env::var("WARREN_REQUIRE_BROWSER").as_deref() == Ok("1") {
        panic!("{message} (WARREN_REQUIRE_BROWSER=1 makes this a failure)");
    }
    // Straight to the terminal: the test harness hides what passing tests print.
    let bar = "!".repeat(message.len().min(100));
    let _ = writeln!(std::io::stderr(), "\n{bar}\n{message}\n{bar}\n");
    None
}

/// A free loopback port.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// chromedriver (in its own process group, with the Chromium it starts) and a session.
struct Browser {
    client: Client,
    driver: Child,
    _profile: tempfile::TempDir,
}

/// Attempts at a session before a test fails: the port [`free_port`] found may be taken by
/// another test's server before chromedriver binds it (chromedriver then exits, and the test
/// would talk to that server), and under a full machine chromedriver has dropped a first
/// connection or not listened within [`WAIT`]. A browser that never starts still fails the
/// test, with every attempt's error.
const SESSION_ATTEMPTS: usize = 3;

impl Browser {
    async fn start(chromium: &Path, chromedriver: &Path) -> Browser {
        let mut failures = Vec::new();
        for _ in 0..SESSION_ATTEMPTS {
            match Browser::try_start(chromium, chromedriver).await {
                Ok(browser) => return browser,
                Err(e) => failures.push(e),
            }
        }
        panic!("no Chromium session in {SESSION_ATTEMPTS} attempts: {failures:?}");
    }

    /// chromedriver on a fresh port, and a session; on failure chromedriver is stopped.
    async fn try_start(chromium: &Path, chromedriver: &Path) -> Result<Browser, String> {
        let port = free_port();
        let mut command = Command::new(chromedriver);
        command
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut driver = command.spawn().expect("chromedriver starts");
        let deadline = Instant::now() + WAIT;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = driver.try_wait() {
                return Err(format!(
                    "chromedriver exited ({status}) before listening on {port}"
                ));
            }
            if Instant::now() >= deadline {
                stop_group(&mut driver);
                return Err(format!(
                    "chromedriver did not listen on {port} within {WAIT:?}"
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Listening, but on our port only if it is still running (it exits when the port
        // was taken).
        if let Ok(Some(status)) = driver.try_wait() {
            return Err(format!(
                "chromedriver exited ({status}): port {port} was taken"
            ));
        }
        let profile = tempfile::tempdir().unwrap();
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    format!("--user-data-dir={}", profile.path().display()),
                    "--window-size=1280,860", "--force-device-scale-factor=1",
                ],
            },
        });
        match Client::connect(&format!("http://127.0.0.1:{port}"), capabilities).await {
            Ok(client) => Ok(Browser {
                client,
                driver,
                _profile: profile,
            }),
            Err(e) => {
                stop_group(&mut driver);
                Err(format!("a session on port {port}: {e:?}"))
            }
        }
    }

    async fn close(self) {
        let _ = self.client.clone().close().await;
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        stop_group(&mut self.driver);
    }
}

/// Stops chromedriver and the Chromium it started: they share the group we gave it.
fn stop_group(driver: &mut Child) {
    #[cfg(unix)]
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", driver.id())])
        .status();
    let _ = driver.kill();
    let _ = driver.wait();
}

/// The page of a running `warren serve`, open in the browser.
struct Page<'a> {
    client: &'a Client,
    served: &'a Served,
}

impl Page<'_> {
    /// Opens the page with a `#fragment` (seed, parameters, view) and waits until it drew.
    async fn open(&self, fragment: &str) {
        // A new document each time: a change of #fragment alone would not load the page again.
        self.client.goto("about:blank").await.unwrap();
        self.client
            .goto(&format!("{}#{fragment}", self.served.url))
            .await
            .unwrap();
        self.until(
            "the first map",
            "return document.body.dataset.state === 'ready'",
        )
        .await;
    }

    async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    /// Waits until `script` returns true.
    async fn until(&self, what: &str, script: &str) {
        let deadline = Instant::now() + WAIT;
        while self.js(script).await != Value::Bool(true) {
            if Instant::now() > deadline {
                let state = self
                    .js("return [document.body.dataset.state, document.getElementById('errors').innerText, document.getElementById('status').innerText]")
                    .await;
                panic!("waited {WAIT:?} for {what}; page state, errors, status: {state}");
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The canvas's top-left `width × height` pixels as RGB.
    async fn pixels(&self, width: u32, height: u32) -> Vec<u8> {
        self.pixels_of("map", width, height).await
    }

    /// The top-left `width × height` pixels of canvas `id` (`map`, B; `map-a`, A) as RGB.
    async fn pixels_of(&self, id: &str, width: u32, height: u32) -> Vec<u8> {
        let script = format!(
            "const d = document.getElementById('{id}').getContext('2d').getImageData(0, 0, {width}, {height}).data;
             let s = '';
             for (let i = 0; i < d.length; i += 4) s += String.fromCharCode(d[i], d[i + 1], d[i + 2]);
             return btoa(s);"
        );
        let b64 = self.js(&script).await;
        use base64::Engine;
        base64::engine::general_purpose::STANDARD
            .decode(b64.as_str().unwrap())
            .unwrap()
    }

    /// Waits until the canvas shows `expected` at its top-left corner (the page's view must be
    /// `view=SCALE,0,0` with glyphs off).
    async fn until_pixels(&self, what: &str, expected: &Image) {
        self.until_pixels_of("map", what, expected).await
    }

    /// [`Page::until_pixels`] on canvas `id`.
    async fn until_pixels_of(&self, id: &str, what: &str, expected: &Image) {
        let deadline = Instant::now() + WAIT;
        loop {
            let got = self.pixels_of(id, expected.width, expected.height).await;
            let differ = got
                .chunks(3)
                .zip(expected.rgb.chunks(3))
                .filter(|(a, b)| a != b)
                .count();
            if differ == 0 && got.len() == expected.rgb.len() {
                return;
            }
            if Instant::now() > deadline {
                let errors = self
                    .js("return document.getElementById('errors').innerText")
                    .await;
                panic!(
                    "{what}: {differ} of {} pixels differ after {WAIT:?}; errors: {errors}",
                    expected.rgb.len() / 3
                );
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }

    async fn number(&self, script: &str) -> f64 {
        let v = self.js(script).await;
        v.as_f64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
            .unwrap_or_else(|| panic!("{script}: {v}"))
    }

    async fn text(&self, css: &str) -> String {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css}: {e}"))
            .text()
            .await
            .unwrap()
    }

    /// Moves the mouse over the centre of cell `(x, y)` of the map.
    async fn hover(&self, x: i64, y: i64) {
        let at = self
            .js(&format!(
                "const r = document.getElementById('map').getBoundingClientRect();
                 const v = warren.view();
                 return [r.left + v.x + ({x} + 0.5) * v.zoom, r.top + v.y + ({y} + 0.5) * v.zoom];"
            ))
            .await;
        let mouse = vec![PointerAction::MoveTo {
            x: at[0].as_f64().unwrap().floor(),
            y: at[1].as_f64().unwrap().floor(),
        }];
        self.client.perform_actions(mouse).await.unwrap();
    }

    /// Clicks where the mouse is.
    async fn click_here(&self) {
        let mouse = vec![
            PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            },
            PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            },
        ];
        self.client.perform_actions(mouse).await.unwrap();
    }
}

/// RGB pixels of a PNG.
struct Image {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Image {
    fn decode(png_bytes: &[u8]) -> Image {
        let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut rgb = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut rgb).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        rgb.truncate(info.buffer_size());
        Image {
            width: info.width,
            height: info.height,
            rgb,
        }
    }

    /// Rows `from..from + height` of the image (a level of a stacked multi-level PNG).
    fn rows(&self, from: u32, height: u32) -> Image {
        let row = self.width as usize * 3;
        Image {
            width: self.width,
            height,
            rgb: self.rgb[from as usize * row..(from + height) as usize * row].to_vec(),
        }
    }
}

/// `warren run ARGS --out FILE` in the served tree.
fn run_cli(s: &Served, args: &[&str], out: &str) -> Vec<u8> {
    let status = warren()
        .current_dir(s.dir.path())
        .arg("run")
        .args(args)
        .args(["--out", out])
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    std::fs::read(s.path(out)).unwrap()
}

/// The CLI's PNG of `scripts/rooms.lua` with `args`, at scale 4.
fn cli_png(s: &Served, args: &[&str]) -> Image {
    let mut all = vec!["scripts/rooms.lua", "--scale", "4"];
    all.extend_from_slice(args);
    Image::decode(&run_cli(s, &all, "cli.png"))
}

/// The first level of the CLI's JSON of `scripts/rooms.lua` with `args`.
fn cli_json(s: &Served, args: &[&str]) -> Value {
    let mut all = vec!["scripts/rooms.lua"];
    all.extend_from_slice(args);
    let doc: Value = serde_json::from_slice(&run_cli(s, &all, "cli.json")).unwrap();
    doc["levels"][0].clone()
}

/// `warren serve scripts/rooms.lua --seed 7 ARGS` over a private copy of the recipe and regions.
fn serve_rooms(args: &[&str]) -> Served {
    let rooms = std::fs::read_to_string(root().join("scripts/rooms.lua")).unwrap();
    let mut all = vec!["scripts/rooms.lua", "--seed", "7"];
    all.extend_from_slice(args);
    Served::start(&[("scripts/rooms.lua", &rooms)], &all)
}

/// Runs `test` with a fresh browser, or does nothing (loudly) when there is none.
async fn with_browser<F, Fut>(test: F)
where
    F: FnOnce(Client) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let Some((chromium, driver)) = tools() else {
        return;
    };
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start(&chromium, &driver).await;
    test(browser.client.clone()).await;
    browser.close().await;
}

fn epoch_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
        * 1e3
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_canvas_draws_the_cli_png_pixel_for_pixel_and_fits_on_load() {
    with_browser(|client| async move {
        let s = serve_rooms(&[]);
        let page = Page { client: &client, served: &s };
        page.open("view=4,0,0&glyphs=off").await;
        let png = cli_png(&s, &["--seed", "7"]);
        assert_eq!((png.width, png.height), (320, 200));
        page.until_pixels("seed 7 at 4 px per cell", &png).await;

        // Without a view in the URL the map is fitted into the window, whole and centred.
        page.open("").await;
        let fit = page
            .js("const c = document.getElementById('map'); return [warren.view(), c.clientWidth, c.clientHeight]")
            .await;
        let (view, width, height) = (&fit[0], fit[1].as_f64().unwrap(), fit[2].as_f64().unwrap());
        let zoom = view["zoom"].as_f64().unwrap();
        let (x, y) = (view["x"].as_f64().unwrap(), view["y"].as_f64().unwrap());
        assert!(zoom >= 1.0, "{fit}");
        assert!(x >= 0.0 && y >= 0.0, "{fit}");
        assert!(x + 80.0 * zoom <= width + 0.5 && y + 50.0 * zoom <= height + 0.5, "{fit}");
        assert!(80.0 * zoom > width * 0.5 || 50.0 * zoom > height * 0.5, "fills the window: {fit}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parameter_and_the_seed_changed_through_the_controls_give_the_cli_map() {
    with_browser(|client| async move {
        let s = serve_rooms(&[]);
        let page = Page { client: &client, served: &s };
        page.open("view=4,0,0&glyphs=off").await;

        // A choice, through its select.
        let select = client
            .find(Locator::Css(".param[data-param='corridors'] select"))
            .await
            .unwrap();
        select.select_by_value("bsp").await.unwrap();
        page.until_pixels("corridors=bsp", &cli_png(&s, &["--seed", "7", "--set", "corridors=bsp"]))
            .await;

        // The seed, through "next".
        client.find(Locator::Id("seed-next")).await.unwrap().click().await.unwrap();
        let expected = cli_png(&s, &["--seed", "8", "--set", "corridors=bsp"]);
        page.until_pixels("seed 8 with corridors=bsp", &expected).await;
        assert_eq!(page.js("return document.getElementById('seed').value").await, "8");

        // A number, typed into its field (its slider follows).
        let width = client
            .find(Locator::Css(".param[data-param='width'] input[type='number']"))
            .await
            .unwrap();
        width.clear().await.unwrap();
        width.send_keys("60\u{E007}").await.unwrap();
        // A map of another size is fitted anew; back to 4 px per cell, through the address.
        page.until("the narrower map", "return document.body.dataset.w === '60'").await;
        page.js("location.hash = location.hash.replace(/view=[^&]*/, 'view=4,0,0'); return true").await;
        let expected = cli_png(&s, &["--seed", "8", "--set", "corridors=bsp", "--set", "width=60"]);
        page.until_pixels("width=60", &expected).await;
        assert_eq!(
            page.js("return document.querySelector(\".param[data-param='width'] input[type='range']\").value").await,
            "60"
        );

        // The command line to copy makes the same map.
        let command = page.js("return document.getElementById('command').value").await;
        assert_eq!(
            command,
            "warren run scripts/rooms.lua --seed 8 --set corridors=bsp --set width=60"
        );
        let args: Vec<&str> = command.as_str().unwrap().split(' ').skip(2).collect();
        let mut with_scale = args.clone();
        with_scale.extend(["--scale", "4"]);
        assert_eq!(Image::decode(&run_cli(&s, &with_scale, "copied.png")).rgb, expected.rgb);

        // A value out of range is refused with the reason; the last good map stays. (The
        // address edit above built the controls anew.)
        let width = client
            .find(Locator::Css(".param[data-param='width'] input[type='number']"))
            .await
            .unwrap();
        width.clear().await.unwrap();
        width.send_keys("3\u{E007}").await.unwrap();
        page.until(
            "the out-of-range message",
            "return document.getElementById('errors').innerText.includes('width = 3 is out of range (16..=4096)')",
        )
        .await;
        page.until_pixels("the last good map", &expected).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saves_update_the_page_within_a_second_and_broken_files_show_file_and_line() {
    with_browser(|client| async move {
        let s = serve_rooms(&[]);
        let page = Page { client: &client, served: &s };
        page.open("view=4,0,0&glyphs=off").await;
        page.until_pixels("seed 7", &cli_png(&s, &["--seed", "7"])).await;
        // Anything a page reload would lose.
        page.js("window.unreloaded = 42; return true").await;
        let view = page.js("return warren.view()").await;

        let terrain_path = s.path("regions/terrain.toml");
        let recipe_path = s.path("scripts/rooms.lua");
        let terrain = std::fs::read_to_string(&terrain_path).unwrap();
        let recipe = std::fs::read_to_string(&recipe_path).unwrap();
        let mut latencies = Vec::new();

        // Each save must show on the page, without a reload, within the bound.
        // (what, file, new text, saved atomically)
        let saves = [
            ("a region file written in place", &terrain_path, terrain.replace("#c8c8c8", "#30a040"), false),
            ("a region file saved atomically", &terrain_path, terrain.replace("#c8c8c8", "#a040c0"), true),
            ("the recipe written in place", &recipe_path, recipe.replace("default = 30", "default = 6"), false),
            ("the recipe saved atomically", &recipe_path, recipe.replace("default = 30", "default = 12"), true),
        ];
        for (what, path, text, atomic) in &saves {
            let version = page.number("return document.body.dataset.version").await;
            let saved_at = epoch_ms();
            if *atomic {
                atomic_write(path, text);
            } else {
                std::fs::write(path, text).unwrap();
            }
            page.until(
                what,
                &format!("return Number(document.body.dataset.version) > {version}"),
            )
            .await;
            let drawn_at = page.number("return document.body.dataset.drawnAt").await;
            let took = Duration::from_secs_f64(((drawn_at - saved_at) / 1e3).max(0.0));
            latencies.push((what.to_string(), took));
            page.until_pixels(what, &cli_png(&s, &["--seed", "7"])).await;
            assert!(
                took < UPDATE_WITHIN,
                "{what}: the page showed the new map {took:?} after the save"
            );
        }
        assert_eq!(page.js("return window.unreloaded").await, 42, "the page was not reloaded");
        assert_eq!(page.js("return warren.view()").await, view, "zoom and pan kept");
        assert_eq!(page.js("return warren.seed()").await, "7", "seed kept");

        // A broken region file: its file:line:col on the page, the last map kept.
        let last = cli_png(&s, &["--seed", "7"]);
        std::fs::write(&terrain_path, terrain.replacen("[[terrain]]", "[[terrain]", 1)).unwrap();
        page.until(
            "the region error",
            "return !document.getElementById('errors').hidden && [...document.querySelectorAll('#error-list .where')].some(e => /regions\\/terrain\\.toml:\\d+:\\d+$/.test(e.textContent))",
        )
        .await;
        page.until_pixels("the last good map after a bad region file", &last).await;
        std::fs::write(&terrain_path, &terrain).unwrap();
        page.until("the error to clear", "return document.getElementById('errors').hidden").await;

        // A broken recipe: the same, with its file:line.
        let good = cli_png(&s, &["--seed", "7"]);
        page.until_pixels("the fixed regions", &good).await;
        std::fs::write(&recipe_path, recipe.replace("rooms:sort(\"leftmost\")", "rooms:sort(\"leftmost\"")).unwrap();
        page.until(
            "the recipe error",
            "return !document.getElementById('errors').hidden && /^scripts\\/rooms\\.lua:\\d+/.test(document.querySelector('#error-list .where')?.textContent ?? '')",
        )
        .await;
        let shown = page.text("#error-list li").await;
        assert!(shown.contains("scripts/rooms.lua:"), "{shown}");
        page.until_pixels("the last good map after a bad recipe", &good).await;
        atomic_write(&recipe_path, &recipe);
        page.until("the recipe error to clear", "return document.getElementById('errors').hidden")
            .await;
        page.until_pixels("the original recipe", &cli_png(&s, &["--seed", "7"])).await;
        assert_eq!(page.js("return window.unreloaded").await, 42, "still not reloaded");

        for (what, took) in &latencies {
            eprintln!("save to page update: {:>6.1} ms  {what}", took.as_secs_f64() * 1e3);
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cell_inspector_shows_terrain_and_annotations_as_the_json_has_them() {
    with_browser(|client| async move {
        let s = serve_rooms(&["--set", "corridor_spawns=true", "--set", "max_spawns=8"]);
        let page = Page { client: &client, served: &s };
        page.open("view=8,0,0").await;
        let json = cli_json(&s, &["--seed", "7", "--set", "corridor_spawns=true", "--set", "max_spawns=8", "--format", "json"]);
        let rows: Vec<Vec<char>> = json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().chars().collect())
            .collect();
        let point = |p: &Value| (p["x"].as_i64().unwrap(), p["y"].as_i64().unwrap());

        // Cells worth pointing at: a spawn, the stairs, a corridor's middle, a room's corner,
        // and solid rock.
        let spawn = point(&json["spawns"][0]);
        let stairs = point(&json["stairs"]["down"][0]);
        let corridor = &json["corridors"][0]["cells"];
        let middle = point(&corridor[corridor.as_array().unwrap().len() / 2]);
        let room = point(&json["rooms"][0]);
        let cells = [spawn, stairs, middle, room, (0, 0)];

        for (x, y) in cells {
            page.hover(x, y).await;
            page.until(
                &format!("the inspector on {x}, {y}"),
                &format!("return document.querySelector('[data-field=xy]').textContent === '{x}, {y}'"),
            )
            .await;
            // The terrain: one of the legend's terrains for the JSON's glyph, as solid.
            let glyph = rows[y as usize][x as usize].to_string();
            let legend = &json["legend"][&glyph];
            let shown = page
                .js("const t = document.querySelector('[data-field=terrain]'); return [t.dataset.terrain, t.dataset.solid]")
                .await;
            assert!(
                legend["terrains"].as_array().unwrap().contains(&shown[0]),
                "{x}, {y}: {shown} is not a terrain drawn '{glyph}': {legend}"
            );
            assert_eq!(shown[1], legend["solid"].to_string(), "{x}, {y}");

            // Every annotation on the cell, and nothing else.
            let mut expected: Vec<String> = Vec::new();
            let inside = |r: &Value| {
                let (rx, ry) = point(r);
                let (w, h) = (r["w"].as_i64().unwrap(), r["h"].as_i64().unwrap());
                x >= rx && x < rx + w && y >= ry && y < ry + h
            };
            for r in json["rooms"].as_array().unwrap() {
                if inside(r) {
                    expected.push("room".into());
                }
            }
            for c in json["corridors"].as_array().unwrap() {
                if c["cells"].as_array().unwrap().iter().any(|p| point(p) == (x, y)) {
                    expected.push("corridor".into());
                }
            }
            for d in json["doors"].as_array().unwrap() {
                if point(d) == (x, y) {
                    expected.push("door".into());
                }
            }
            for (key, kind) in [("up", "up stairs"), ("down", "down stairs")] {
                for p in json["stairs"][key].as_array().unwrap() {
                    if point(p) == (x, y) {
                        expected.push(kind.into());
                    }
                }
            }
            for sp in json["spawns"].as_array().unwrap() {
                if point(sp) == (x, y) {
                    expected.push(format!("spawn {}", sp["what"].as_str().unwrap()));
                }
            }
            let shown = page
                .js("return [...document.querySelectorAll('#cell-notes li')].map(li => li.dataset.kind + (li.dataset.what !== undefined ? ' ' + li.dataset.what : ''))")
                .await;
            let mut shown: Vec<String> = shown
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            shown.sort();
            expected.sort();
            assert_eq!(shown, expected, "annotations on {x}, {y}");
        }
        assert!(!json["spawns"].as_array().unwrap().is_empty(), "the test needs a spawn");

        // A click pins the cell: moving away keeps showing it.
        page.hover(stairs.0, stairs.1).await;
        page.click_here().await;
        page.hover(0, 0).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(
            page.text("[data-field=xy]").await,
            format!("{}, {}", stairs.0, stairs.1)
        );
        assert!(page.text("#cell-notes").await.contains("down stairs"));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn levels_layers_and_steps_show_what_the_cli_draws() {
    with_browser(|client| async move {
        let s = serve_rooms(&["--levels", "2"]);
        let page = Page { client: &client, served: &s };
        page.open("view=4,0,0&glyphs=off").await;
        // Two levels stack in the CLI's PNG with a one-cell (4 px) gap.
        let both = cli_png(&s, &["--seed", "7", "--levels", "2"]);
        page.until_pixels("level 1", &both.rows(0, 200)).await;
        client
            .find(Locator::Id("level"))
            .await
            .unwrap()
            .select_by_value("2")
            .await
            .unwrap();
        page.until_pixels("level 2", &both.rows(204, 200)).await;

        // A layer, as `--layer` draws it.
        client
            .find(Locator::Id("layer"))
            .await
            .unwrap()
            .select_by_value("components")
            .await
            .unwrap();
        let layered = cli_png(&s, &["--seed", "7", "--levels", "2", "--layer", "components"]);
        page.until_pixels("level 2's components", &layered.rows(204, 200)).await;

        // The steps: the first snapshot is the CLI's first frame.
        client
            .find(Locator::Id("level"))
            .await
            .unwrap()
            .select_by_value("1")
            .await
            .unwrap();
        client
            .find(Locator::Id("layer"))
            .await
            .unwrap()
            .select_by_value("terrain")
            .await
            .unwrap();
        client.find(Locator::Id("steps")).await.unwrap().click().await.unwrap();
        page.until(
            "the scrubber",
            "return !document.getElementById('scrubber').hidden && document.getElementById('frame').max === '2'",
        )
        .await;
        page.js("const f = document.getElementById('frame'); f.value = '0'; f.dispatchEvent(new Event('input')); return true")
            .await;
        let frames = s.path("frames");
        let out = warren()
            .current_dir(s.dir.path())
            .args(["run", "scripts/rooms.lua", "--seed", "7", "--scale", "4", "--format", "ascii", "--frames"])
            .arg(&frames)
            .output()
            .unwrap();
        assert!(out.status.success());
        let first = Image::decode(&std::fs::read(frames.join("000-rooms.png")).unwrap());
        page.until_pixels("step 1 (rooms)", &first).await;
        assert!(page.text("#frame-label").await.contains("phase 1 of 3: rooms"));
    })
    .await;
}

/// The shipped recipes and the module they share.
const SHIPPED: [&str; 5] = [
    "scripts/rooms.lua",
    "scripts/cave.lua",
    "scripts/dungeon.lua",
    "scripts/townmaze.lua",
    "scripts/lib/cave.lua",
];

/// `warren serve RECIPE --seed 7 ARGS` over a private copy of every shipped recipe and the
/// regions: one server, every recipe.
fn serve_shipped(recipe: &str, args: &[&str]) -> Served {
    let texts: Vec<(&str, String)> = SHIPPED
        .iter()
        .map(|f| (*f, std::fs::read_to_string(root().join(f)).unwrap()))
        .collect();
    let files: Vec<(&str, &str)> = texts.iter().map(|(f, t)| (*f, t.as_str())).collect();
    let mut all = vec![recipe, "--seed", "7"];
    all.extend_from_slice(args);
    Served::start(&files, &all)
}

/// The first level of `warren run ARGS --format json` in the served tree.
fn json_of(s: &Served, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let doc: Value = serde_json::from_slice(&run_cli(s, &all, "cli.json")).unwrap();
    doc["levels"][0].clone()
}

/// The exact terrain name of every cell of a JSON map, row by row.
fn terrain_names(json: &Value) -> Vec<String> {
    let terrains = json["terrains"].as_array().unwrap();
    json["terrain_rows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter())
        .map(|id| {
            terrains[id.as_u64().unwrap() as usize]["name"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// `from → to: cells` for every change between two JSON maps of one size, and their total.
fn cell_diff(before: &Value, after: &Value) -> (usize, std::collections::BTreeMap<String, usize>) {
    let (a, b) = (terrain_names(before), terrain_names(after));
    assert_eq!(a.len(), b.len(), "maps of one size");
    let mut changes = std::collections::BTreeMap::new();
    for (x, y) in a.iter().zip(&b) {
        if x != y {
            *changes.entry(format!("{x} → {y}")).or_insert(0) += 1;
        }
    }
    (changes.values().sum(), changes)
}

/// What `warren batch` printed and recorded.
struct BatchRun {
    /// The table's metric rows by name: maps, min, median, p95, max, mean.
    table: Vec<(String, Vec<String>)>,
    /// The CSV records' column names.
    head: Vec<String>,
    /// The CSV records, one row per seed.
    records: Vec<Vec<String>>,
}

/// `warren batch ARGS --records records.csv` in the served tree.
fn batch(s: &Served, args: &[&str]) -> BatchRun {
    let out = warren()
        .current_dir(s.dir.path())
        .arg("batch")
        .args(args)
        .args(["--records", "records.csv"])
        .output()
        .unwrap();
    let printed = String::from_utf8(out.stdout).unwrap();
    let table = printed
        .lines()
        .skip_while(|l| !l.starts_with("metric "))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let words: Vec<String> = l.split_whitespace().map(String::from).collect();
            (words[0].clone(), words[1..7].to_vec())
        })
        .collect();
    let csv = std::fs::read_to_string(s.path("records.csv")).unwrap();
    let mut lines = csv.lines();
    let head = lines.next().unwrap().split(',').map(String::from).collect();
    let records = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    BatchRun {
        table,
        head,
        records,
    }
}

/// Checks that the statistics panel shows exactly what `warren batch` makes of the same seeds:
/// each metric's table row, and its histogram's counts (binned from the batch's records as the
/// page bins them).
async fn panel_equals_batch(page: &Page<'_>, s: &Served, args: &[&str]) {
    let shown = page
        .js("return [...document.querySelectorAll('#sweep-table tr.metric')].map(r => [r.dataset.metric, JSON.parse(r.dataset.table), JSON.parse(r.dataset.bins)])")
        .await;
    let BatchRun {
        table,
        head,
        records,
    } = batch(s, args);
    let shown = shown.as_array().unwrap();
    let names: Vec<&str> = shown.iter().map(|r| r[0].as_str().unwrap()).collect();
    let expected: Vec<&str> = table.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, expected, "the metrics, in the table's order");
    for (row, (name, cells)) in shown.iter().zip(&table) {
        let on_page: Vec<String> = row[1]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            &on_page, cells,
            "{name}: the page's row and `warren batch`'s"
        );
        let col = head.iter().position(|h| h == name).unwrap();
        let bins = &row[2];
        let (lo, hi) = (bins["lo"].as_f64().unwrap(), bins["hi"].as_f64().unwrap());
        let counts: Vec<u64> = bins["counts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        let n = counts.len();
        let mut expected = vec![0u64; n];
        for r in &records {
            if let Ok(v) = r[col].parse::<f64>() {
                let i = if hi > lo {
                    ((v - lo) / (hi - lo) * n as f64) as usize
                } else {
                    0
                };
                expected[i.min(n - 1)] += 1;
            }
        }
        assert_eq!(counts, expected, "{name}: the histogram's counts");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_statistics_panel_follows_saves_and_shows_what_warren_batch_makes() {
    with_browser(|client| async move {
        let s = serve_rooms(&[]);
        let page = Page { client: &client, served: &s };
        page.open("").await;
        page.until(
            "the sweep of 1,000 seeds",
            "return document.body.dataset.sweep === 'done' && document.body.dataset.sweepDone === '1000'",
        )
        .await;
        assert_eq!(
            page.js("return document.getElementById('sweep-command').value").await,
            "warren batch scripts/rooms.lua --count 1000"
        );
        panel_equals_batch(&page, &s, &["scripts/rooms.lua", "--count", "1000"]).await;
        let median = |name: &str| {
            format!("return document.querySelector(\"#sweep-table tr.metric[data-metric='{name}'] td.median\").textContent")
        };
        assert_eq!(page.js(&median("rooms")).await, "14");

        // A save re-runs it: the new distribution beside the previous one.
        let recipe = s.path("scripts/rooms.lua");
        let text = std::fs::read_to_string(&recipe).unwrap();
        let id = page.number("return document.body.dataset.sweepId").await;
        let saved_at = epoch_ms();
        atomic_write(&recipe, &text.replace("max_rooms = { default = 30", "max_rooms = { default = 60"));
        page.until(
            "the new sweep",
            &format!("return Number(document.body.dataset.sweepId) > {id} && document.body.dataset.sweep === 'done'"),
        )
        .await;
        let first = page.number("return document.body.dataset.sweepFirstAt").await - saved_at;
        let done = page.number("return document.body.dataset.sweepDoneAt").await - saved_at;
        eprintln!("save to first histogram: {first:>6.1} ms; to 1,000 seeds: {done:>6.1} ms (rooms.lua, test build)");
        panel_equals_batch(&page, &s, &["scripts/rooms.lua", "--count", "1000"]).await;
        assert!(!page.js("return document.getElementById('sweep-legend').hidden").await.as_bool().unwrap());
        let moved = page.js(&median("rooms")).await;
        assert!(moved.as_str().unwrap().starts_with("14 → "), "{moved}");

        // Fewer seeds, from elsewhere: the command says which, and the numbers follow.
        page.js("const c = document.getElementById('sweep-count'); c.value = '300'; c.dispatchEvent(new Event('change')); const f = document.getElementById('sweep-start'); f.value = '500'; f.dispatchEvent(new Event('change')); return true").await;
        page.until(
            "300 seeds from 500",
            "return document.body.dataset.sweep === 'done' && document.body.dataset.sweepDone === '300'",
        )
        .await;
        assert_eq!(
            page.js("return document.getElementById('sweep-command').value").await,
            "warren batch scripts/rooms.lua --count 300 --seed-start 500"
        );
        panel_equals_batch(&page, &s, &["scripts/rooms.lua", "--count", "300", "--seed-start", "500"]).await;

        // Failures are listed by seed, each a link to its map.
        client
            .find(Locator::Css(".param[data-param='min_size'] input[type='number']"))
            .await
            .unwrap()
            .send_keys("\u{E003}\u{E003}12\u{E007}")
            .await
            .unwrap();
        page.until(
            "the failures",
            "return document.body.dataset.sweep === 'done' && !document.getElementById('sweep-failures').hidden",
        )
        .await;
        let title = page.text("#sweep-failures-title").await;
        assert_eq!(title, "300 maps failed (the first 100 by seed)");
        let seeds = page
            .js("return [...document.querySelectorAll('#sweep-failure-list a')].map(a => a.dataset.seed)")
            .await;
        let expected: Vec<String> = (500..600).map(|n| n.to_string()).collect();
        assert_eq!(seeds, json!(expected));
        page.js("document.getElementById('sweep-failures').open = true; return true").await;
        client.find(Locator::Css("#sweep-failure-list a[data-seed='503']")).await.unwrap().click().await.unwrap();
        page.until("seed 503", "return warren.seed() === '503'").await;
        page.until(
            "its error",
            "return document.getElementById('error-list').innerText.includes('min_size = 12 exceeds max_size = 10')",
        )
        .await;
    })
    .await;
}

/// `scripts/NAME.lua` → `NAME`, the frames' labels as `warren run --frames` names their files.
fn frame_labels(s: &Served, recipe: &str, dir: &str) -> Vec<(String, Image)> {
    let out = warren()
        .current_dir(s.dir.path())
        .args([
            "run", recipe, "--seed", "7", "--scale", "2", "--format", "ascii", "--frames", dir,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = std::fs::read_dir(s.path(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".png"))
        .collect();
    names.sort();
    names
        .iter()
        .map(|n| {
            let label = n[4..n.len() - 4].to_string();
            (
                label,
                Image::decode(&std::fs::read(s.path(dir).join(n)).unwrap()),
            )
        })
        .collect()
}

/// A label as `--frames` writes it into a file name.
fn slug(label: &str) -> String {
    let mut out = String::new();
    for c in label.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_steps_through_the_phases_of_every_shipped_recipe() {
    with_browser(|client| async move {
        let s = serve_shipped("scripts/rooms.lua", &[]);
        let page = Page { client: &client, served: &s };
        page.open("view=2,0,0&glyphs=off&steps=1").await;
        // The marks of what a phase changed would colour the cells compared below; their count
        // stays.
        client.find(Locator::Id("step-changes")).await.unwrap().click().await.unwrap();
        let recipes = page.js("return [...document.getElementById('recipe').options].map(o => o.value)").await;
        assert_eq!(
            recipes,
            json!(["scripts/cave.lua", "scripts/dungeon.lua", "scripts/rooms.lua", "scripts/townmaze.lua"])
        );
        for (recipe, phases) in [
            ("scripts/rooms.lua", 2),
            ("scripts/cave.lua", 2),
            ("scripts/dungeon.lua", 6),
            ("scripts/townmaze.lua", 8),
        ] {
            // Through the recipe picker.
            let select = client.find(Locator::Id("recipe")).await.unwrap();
            select.select_by_value(recipe).await.unwrap();
            page.until(
                &format!("{recipe}'s phases"),
                &format!("return document.body.dataset.recipe === '{recipe}' && document.body.dataset.state === 'ready' && warren.recipe() === '{recipe}' && !document.getElementById('scrubber').hidden"),
            )
            .await;
            // A map of another size is fitted anew; back to 2 px per cell, through the address.
            page.js("location.hash = location.hash.replace(/view=[^&]*/, 'view=2,0,0'); return true").await;
            page.until("2 px per cell", "const v = warren.view(); return v.zoom === 2 && v.x === 0 && v.y === 0").await;
            let dir = format!("frames-{}", slug(recipe));
            let frames = frame_labels(&s, recipe, &dir);
            assert_eq!(frames.len(), phases + 1, "{recipe}: {phases} phases and the final map");
            client.find(Locator::Id("step-first")).await.unwrap().click().await.unwrap();
            // The cells the phases changed, as the page counts them.
            let mut changed = 0.0;
            for (i, (label, image)) in frames.iter().enumerate() {
                page.until(
                    &format!("{recipe} phase {i}"),
                    &format!("return document.getElementById('frame-label').dataset.step === '{i}'"),
                )
                .await;
                let shown = page.js("return document.getElementById('frame-label').dataset.label").await;
                assert_eq!(&slug(shown.as_str().unwrap()), label, "{recipe} phase {i}");
                page.until_pixels(&format!("{recipe} phase {i} ({label})"), image).await;
                if i > 0 {
                    changed += page.number("return document.getElementById('step-changed').dataset.cells").await;
                }
                client.find(Locator::Id("step-next")).await.unwrap().click().await.unwrap();
            }
            assert_eq!(
                page.js("return document.getElementById('frame-label').dataset.label").await,
                "final"
            );
            assert!(changed > 0.0, "{recipe}: the phases changed nothing");
        }

        // Play runs through them on its own, and stops at the finished map.
        client.find(Locator::Id("step-first")).await.unwrap().click().await.unwrap();
        client.find(Locator::Id("step-play")).await.unwrap().click().await.unwrap();
        page.until(
            "the replay to end",
            "return document.getElementById('frame-label').dataset.label === 'final' && document.getElementById('step-play').textContent === 'play'",
        )
        .await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_legend_matches_the_region_data_after_a_save_and_marks_an_entry() {
    with_browser(|client| async move {
        let s = serve_rooms(&[]);
        let page = Page { client: &client, served: &s };
        page.open("view=4,0,0&glyphs=off").await;
        let legend = || async {
            page.js("return [...document.querySelectorAll('#legend-table tr.legend-entry')].map(r => [r.dataset.name, r.dataset.glyph, r.dataset.color, Number(r.dataset.count)])")
                .await
        };
        // The terrains the map holds, as the JSON has them (its terrains come from the region
        // files): name, glyph, colour and cells.
        let expected = |json: &Value| {
            let names = terrain_names(json);
            let mut rows = Vec::new();
            for t in json["terrains"].as_array().unwrap() {
                let n = names.iter().filter(|x| **x == t["name"]).count();
                if n > 0 {
                    rows.push(json!([t["name"], t["glyph"], t["color"], n]));
                }
            }
            Value::Array(rows)
        };
        let before = json_of(&s, &["scripts/rooms.lua", "--seed", "7"]);
        assert_eq!(legend().await, expected(&before));

        // A save of the region files: the legend follows.
        let terrain = s.path("regions/terrain.toml");
        let text = std::fs::read_to_string(&terrain).unwrap();
        let version = page.number("return document.body.dataset.version").await;
        std::fs::write(&terrain, text.replace("#c8c8c8", "#30a040")).unwrap();
        page.until("the save", &format!("return Number(document.body.dataset.version) > {version}")).await;
        let after = json_of(&s, &["scripts/rooms.lua", "--seed", "7"]);
        assert_eq!(legend().await, expected(&after));
        assert!(legend().await.to_string().contains("\"floor\",\".\",\"#30a040\""));

        // Clicking an entry marks its cells: the floor changes colour, the rock does not.
        let floor = terrain_names(&after).iter().position(|n| n == "floor").unwrap();
        let rock = terrain_names(&after).iter().position(|n| n == "rock").unwrap();
        let at = |i: usize, px: &[u8]| {
            let (x, y) = (i % 80, i / 80);
            let p = ((y * 4 + 1) * 320 + x * 4 + 1) * 3;
            px[p..p + 3].to_vec()
        };
        let plain = page.pixels(320, 200).await;
        assert_eq!(at(floor, &plain), [0x30, 0xa0, 0x40]);
        client.find(Locator::Css("#legend-table tr[data-name='floor']")).await.unwrap().click().await.unwrap();
        page.until("the mark", "return document.querySelector(\"#legend-table tr[data-name='floor']\").classList.contains('on')").await;
        let marked = page.pixels(320, 200).await;
        assert_ne!(at(floor, &marked), at(floor, &plain), "floor cells are marked");
        assert_eq!(at(rock, &marked), at(rock, &plain), "rock cells are not");

        // Regions and priorities, as their layers draw them.
        client.find(Locator::Id("layer")).await.unwrap().select_by_value("priority").await.unwrap();
        page.until("the priority legend", "return document.body.dataset.legend === 'priority'").await;
        let priorities = page
            .js("return [...document.querySelectorAll('#legend-table tr.legend-entry')].map(r => [r.dataset.glyph, r.dataset.name, Number(r.dataset.count)])")
            .await;
        // rooms.lua writes without priorities: every cell is 0.
        assert_eq!(priorities, json!([["", "never written with a priority", 4000]]));
        client.find(Locator::Id("legend-kind")).await.unwrap().select_by_value("region").await.unwrap();
        page.until("the region legend", "return document.body.dataset.legend === 'region'").await;
        let regions = page
            .js("return [...document.querySelectorAll('#legend-table tr.legend-entry')].map(r => [r.dataset.name, Number(r.dataset.count)])")
            .await;
        let region_cells: Vec<u64> = after["region_rows"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()))
            .collect();
        let mut expected = Vec::new();
        for (id, name) in after["regions"].as_array().unwrap().iter().enumerate() {
            let n = region_cells.iter().filter(|&&r| r == id as u64).count();
            if n > 0 {
                let name = if id == 0 { "no region" } else { name.as_str().unwrap() };
                expected.push(json!([name, n]));
            }
        }
        assert_eq!(regions, Value::Array(expected));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn back_and_forward_return_to_seeds_and_recipes_and_an_edited_address_is_followed() {
    with_browser(|client| async move {
        let s = serve_shipped("scripts/rooms.lua", &[]);
        let page = Page { client: &client, served: &s };
        page.open("view=4,0,0&glyphs=off").await;
        let png = |args: &[&str]| cli_png(&s, args);
        page.until_pixels("seed 7", &png(&["--seed", "7"])).await;
        client.find(Locator::Id("seed-next")).await.unwrap().click().await.unwrap();
        page.until_pixels("seed 8", &png(&["--seed", "8"])).await;
        client
            .find(Locator::Css(".param[data-param='corridors'] select"))
            .await
            .unwrap()
            .select_by_value("bsp")
            .await
            .unwrap();
        page.until_pixels("seed 8, bsp", &png(&["--seed", "8", "--set", "corridors=bsp"])).await;
        client.find(Locator::Id("seed-random")).await.unwrap().click().await.unwrap();
        page.until("a random seed", "return warren.seed() !== '8' && document.body.dataset.seed === warren.seed()").await;

        client.back().await.unwrap();
        page.until_pixels("back: seed 8, bsp", &png(&["--seed", "8", "--set", "corridors=bsp"])).await;
        assert_eq!(page.js("return document.querySelector(\".param[data-param='corridors'] select\").value").await, "bsp");
        client.back().await.unwrap();
        page.until_pixels("back: seed 8", &png(&["--seed", "8"])).await;
        assert_eq!(page.js("return document.getElementById('seed').value").await, "8");
        client.back().await.unwrap();
        page.until_pixels("back: seed 7", &png(&["--seed", "7"])).await;
        client.forward().await.unwrap();
        page.until_pixels("forward: seed 8", &png(&["--seed", "8"])).await;

        // An address edited by hand is followed, without a reload.
        page.js("window.unreloaded = 1; location.hash = 'seed=42&set=max_rooms=9&view=4,0,0&glyphs=off'; return true").await;
        page.until_pixels("seed 42", &png(&["--seed", "42", "--set", "max_rooms=9"])).await;
        assert_eq!(page.js("return window.unreloaded").await, 1);

        // Recipes are history too.
        client.find(Locator::Id("recipe")).await.unwrap().select_by_value("scripts/cave.lua").await.unwrap();
        page.until("the cave", "return document.body.dataset.recipe === 'scripts/cave.lua' && document.body.dataset.state === 'ready'").await;
        let cave = Image::decode(&run_cli(&s, &["scripts/cave.lua", "--seed", "42", "--scale", "4"], "cave.png"));
        page.until_pixels("the cave, seed 42", &cave).await;
        client.back().await.unwrap();
        page.until("rooms again", "return document.body.dataset.recipe === 'scripts/rooms.lua'").await;
        page.until_pixels("back: rooms seed 42", &png(&["--seed", "42", "--set", "max_rooms=9"])).await;
        assert_eq!(page.js("return window.unreloaded").await, 1);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_diff_counts_what_a_save_changed_and_a_pinned_map_sits_beside_the_live_one() {
    with_browser(|client| async move {
        let s = serve_rooms(&[]);
        let page = Page { client: &client, served: &s };
        page.open("view=4,0,0&glyphs=off").await;
        let before = json_of(&s, &["scripts/rooms.lua", "--seed", "7"]);
        client.find(Locator::Id("diff")).await.unwrap().click().await.unwrap();
        assert!(page.text("#diff-count").await.starts_with("No save has changed this map"));

        let recipe = s.path("scripts/rooms.lua");
        let text = std::fs::read_to_string(&recipe).unwrap();
        let version = page.number("return document.body.dataset.version").await;
        atomic_write(&recipe, &text.replace("max_rooms = { default = 30", "max_rooms = { default = 12"));
        page.until("the save", &format!("return Number(document.body.dataset.version) > {version}")).await;
        let after = json_of(&s, &["scripts/rooms.lua", "--seed", "7"]);
        let (cells, changes) = cell_diff(&before, &after);
        assert!(cells > 0, "the save changed the map");
        page.until("the diff", "return document.getElementById('diff-count').dataset.cells !== ''").await;
        assert_eq!(page.number("return document.getElementById('diff-count').dataset.cells").await, cells as f64);
        let shown = page
            .js("return Object.fromEntries([...document.querySelectorAll('#diff-table tr')].map(r => [r.dataset.change, Number(r.dataset.count)]))")
            .await;
        assert_eq!(shown, json!(changes));
        // The marked cells are drawn: a changed cell is not its plain colour.
        let changed = terrain_names(&before).iter().zip(terrain_names(&after)).position(|(a, b)| *a != b).unwrap();
        let (x, y) = (changed % 80, changed / 80);
        let px = page.pixels(320, 200).await;
        let p = ((y * 4 + 1) * 320 + x * 4 + 1) * 3;
        let plain = cli_png(&s, &["--seed", "7"]);
        assert_ne!(px[p..p + 3], plain.rgb[p..p + 3], "the changed cell is marked");

        // A pinned A beside the live B, and the diff against A.
        client.find(Locator::Id("pin-a")).await.unwrap().click().await.unwrap();
        client.find(Locator::Id("seed-next")).await.unwrap().click().await.unwrap();
        page.until("seed 8 beside A", "return warren.seed() === '8' && document.body.dataset.seed === '8' && !document.getElementById('view-a').hidden").await;
        page.js("document.getElementById('diff').click(); return true").await;
        page.until_pixels("B, seed 8", &cli_png(&s, &["--seed", "8"])).await;
        page.until_pixels_of("map-a", "A, seed 7", &plain).await;
        page.js("document.getElementById('diff').click(); return true").await;
        let eight = json_of(&s, &["scripts/rooms.lua", "--seed", "8"]);
        let (cells, changes) = cell_diff(&after, &eight);
        page.until("the diff against A", &format!("return document.getElementById('diff-count').dataset.cells === '{cells}'")).await;
        let shown = page
            .js("return Object.fromEntries([...document.querySelectorAll('#diff-table tr')].map(r => [r.dataset.change, Number(r.dataset.count)]))")
            .await;
        assert_eq!(shown, json!(changes));
        client.find(Locator::Id("unpin-a")).await.unwrap().click().await.unwrap();
        page.until("A gone", "return document.getElementById('view-a').hidden").await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_small_things_a_designer_notices() {
    with_browser(|client| async move {
        let s = serve_shipped("scripts/rooms.lua", &[]);
        let page = Page { client: &client, served: &s };
        page.open("").await;

        // Parameters in the order the recipe declares them.
        let order = page.js("return [...document.querySelectorAll('.param')].map(p => p.dataset.param)").await;
        assert_eq!(
            order,
            json!(["width", "height", "max_rooms", "min_size", "max_size", "corridors", "connectivity", "corridor_spawns", "max_spawns"])
        );

        // A new size fits the map again.
        let fits = "const c = document.getElementById('map'); const v = warren.view(); const f = [Number(document.body.dataset.w), Number(document.body.dataset.h)]; return v.x >= 0 && v.y >= 0 && v.x + f[0] * v.zoom <= c.clientWidth + 0.5 && v.y + f[1] * v.zoom <= c.clientHeight + 0.5 && (f[0] * v.zoom > c.clientWidth * 0.5 || f[1] * v.zoom > c.clientHeight * 0.5)";
        page.until("the fitted map", fits).await;
        let width = client.find(Locator::Css(".param[data-param='width'] input[type='number']")).await.unwrap();
        width.clear().await.unwrap();
        width.send_keys("200\u{E007}").await.unwrap();
        page.until("the wider map", "return document.body.dataset.w === '200'").await;
        page.until("the wider map fitted", fits).await;

        // An error floats over the map: the map keeps its place and size.
        let rect = "const r = document.getElementById('map').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]";
        let before = page.js(rect).await;
        let recipe = s.path("scripts/rooms.lua");
        let text = std::fs::read_to_string(&recipe).unwrap();
        std::fs::write(&recipe, text.replace("rooms:sort(\"leftmost\")", "rooms:sort(\"leftmost\"")).unwrap();
        page.until("the error", "return !document.getElementById('errors').hidden").await;
        assert_eq!(page.js(rect).await, before, "the map did not move");
        let inside = page
            .js("const e = document.getElementById('errors').getBoundingClientRect(); const s = document.getElementById('stage').getBoundingClientRect(); return e.top >= s.top && e.bottom <= s.bottom + 0.5")
            .await;
        assert_eq!(inside, true);
        atomic_write(&recipe, &text);
        page.until("the error gone", "return document.getElementById('errors').hidden").await;

        // The inspector shows a door's state and kind.
        page.open("recipe=scripts/dungeon.lua&seed=7&view=4,0,0").await;
        let dungeon = json_of(&s, &["scripts/dungeon.lua", "--seed", "7"]);
        let doors = dungeon["doors"].as_array().unwrap();
        assert!(doors.len() > 3, "the test needs doors");
        for door in doors.iter().take(4) {
            let (x, y) = (door["x"].as_i64().unwrap(), door["y"].as_i64().unwrap());
            page.hover(x, y).await;
            page.until(&format!("the door at {x}, {y}"), &format!("return document.querySelector('[data-field=xy]').textContent === '{x}, {y}'")).await;
            let shown = page
                .js("const li = document.querySelector('#cell-notes li[data-kind=door]'); return li ? [li.dataset.state, li.dataset.doorKind, li.textContent] : null")
                .await;
            assert_eq!(shown[0], door["state"], "{door} {shown}");
            assert_eq!(shown[1], door.get("kind").cloned().unwrap_or(json!("")), "{door} {shown}");
            assert!(shown[2].as_str().unwrap().contains(door["state"].as_str().unwrap()));
        }
        // Its priorities, named: every cell once.
        client.find(Locator::Id("legend-kind")).await.unwrap().select_by_value("priority").await.unwrap();
        page.until("the priority legend", "return document.body.dataset.legend === 'priority'").await;
        let priorities = page
            .js("return [...document.querySelectorAll('#legend-table tr.legend-entry')].map(r => [r.dataset.glyph, r.dataset.name, Number(r.dataset.count)])")
            .await;
        let total: f64 = priorities.as_array().unwrap().iter().map(|r| r[2].as_f64().unwrap()).sum();
        assert_eq!(total, 128.0 * 128.0, "{priorities}");
        assert!(priorities.to_string().contains("\"70\",\"ROOM_FLOOR\""), "{priorities}");

        // townmaze's debug view shows its letters at the fitted zoom; the plain town does not
        // need them.
        page.open("recipe=scripts/townmaze.lua&set=show=debug").await;
        let zoom = page.number("return warren.view().zoom").await;
        assert!(zoom < 16.0, "fitted below the usual glyph zoom: {zoom}");
        assert_eq!(page.js("return warren.glyphsDrawn()").await, true);
        page.open("recipe=scripts/townmaze.lua").await;
        assert_eq!(page.js("return warren.glyphsDrawn()").await, false);
    })
    .await;
}
