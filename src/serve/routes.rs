//! The HTTP side: the page and its assets (embedded in the binary), the status stream, the
//! page's map and layers, and the downloads. Handlers only read queries and encode answers;
//! generation happens on the worker thread, encoding on tokio's blocking pool.
//!
//! Every `/api` route takes `recipe=PATH`, one of the recipes the server lists (default: the
//! one it was started with).
//!
//! | route | answers |
//! |---|---|
//! | `GET /` (`/app.js`, `/sweep.js`, `/style.css`, `/favicon.svg`) | the page |
//! | `GET /api/recipes` | the recipes offered, and the start recipe |
//! | `GET /api/status?recipe` | the recipe's current [`Status`] as JSON |
//! | `GET /api/events?recipe` | server-sent `status` events: the current status, then one per reload |
//! | `GET /api/map?recipe&seed&set&levels&steps` | the generation, for the page |
//! | `GET /api/layer?…&layer&level&frame` | one layer of one level (or step) |
//! | `GET /api/sweep?recipe&set&count&start` | server-sent `progress` events: a statistics sweep as it runs ([`sweep`](super::sweep)) |
//! | `GET /api/export.json?recipe&seed&set&levels&layer` | exactly `warren run --format json` |
//! | `GET /api/export.png?recipe&seed&set&levels&layer&scale` | exactly `warren run --format png` |
//! | `GET /api/export.tiled.zip?recipe&seed&set&levels` | the map and tileset `warren run --out NAME.tmx` writes, in one zip |
//!
//! Errors are JSON `{ "error": { "kind", "problems": [{ message, file, line, column }] } }` with
//! 400 (malformed request), 404, 413 (too large), 422 (the recipe or its files are broken),
//! 503 (busy) or 500 (a bug in warren).

use super::catalog::Catalog;
use super::payload;
use super::query::{self, BadQuery, Defaults, Extras, Request};
use super::status::{Problem, Status};
use super::sweep::Sweeps;
use super::worker::{Failure, Generation, Worker};
use crate::render::{png::MAX_SIDE_PX, render_layer, Format, LayerChoice, Output};
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Serialize;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio_stream::wrappers::{ReceiverStream, WatchStream};
use tokio_stream::{Stream, StreamExt};

/// The page's files, embedded at build time.
const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const SWEEP_JS: &str = include_str!("assets/sweep.js");
const STYLE_CSS: &str = include_str!("assets/style.css");
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");

/// Content-Security-Policy of the page: its own scripts, styles and data only.
const CSP: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/// How long a request waits for the worker before giving up (budgets stop any one
/// generation well before this).
const WAIT: Duration = Duration::from_secs(120);

/// What every handler shares.
#[derive(Clone)]
pub struct App {
    /// The generation worker.
    pub worker: Worker,
    /// The recipes offered.
    pub catalog: Catalog,
    /// The statistics sweeps.
    pub sweeps: Arc<Sweeps>,
    /// The start-up recipe, seed and levels.
    pub defaults: Defaults,
    /// Whether only loopback host names may be used (the server is bound to loopback).
    pub loopback: bool,
}

/// Every route.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(index))
        .route(
            "/app.js",
            get(|| asset("text/javascript; charset=utf-8", APP_JS)),
        )
        .route(
            "/sweep.js",
            get(|| asset("text/javascript; charset=utf-8", SWEEP_JS)),
        )
        .route(
            "/style.css",
            get(|| asset("text/css; charset=utf-8", STYLE_CSS)),
        )
        .route("/favicon.svg", get(|| asset("image/svg+xml", FAVICON_SVG)))
        .route("/api/recipes", get(recipes))
        .route("/api/status", get(status))
        .route("/api/events", get(events))
        .route("/api/map", get(map))
        .route("/api/layer", get(layer))
        .route("/api/sweep", get(sweep))
        .route("/api/export.json", get(export_json))
        .route("/api/export.png", get(export_png))
        .route("/api/export.tiled.zip", get(export_tiled))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// Refuses host names other than loopback ones while bound to loopback: a web page elsewhere
/// cannot reach the server through a name that resolves to 127.0.0.1 (DNS rebinding). Every
/// answer says not to guess its type.
async fn guard(State(app): State<App>, request: axum::extract::Request, next: Next) -> Response {
    if app.loopback {
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok());
        if let Some(host) = host {
            if !is_loopback_host(host) {
                return Refusal::new(
                    StatusCode::FORBIDDEN,
                    "forbidden",
                    format!(
                        "host {host:?} is not this machine; warren serve answers 127.0.0.1, localhost and [::1] (use --bind to serve other addresses)"
                    ),
                )
                .into_response();
            }
        }
    }
    let mut response = next.run(request).await;
    response.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// Whether a `Host` header names this machine by a loopback name (any port).
pub fn is_loopback_host(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        host.rsplit_once(':').map_or(host, |(n, _)| n)
    };
    let name = name.to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

async fn index() -> Response {
    let mut r = asset("text/html; charset=utf-8", INDEX_HTML).await;
    r.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    r
}

async fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn not_found(uri: axum::http::Uri) -> Refusal {
    Refusal::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("no such page: {}", uri.path()),
    )
}

async fn recipes(State(app): State<App>) -> Response {
    #[derive(Serialize)]
    struct Recipes<'a> {
        recipes: Vec<String>,
        start: &'a str,
    }
    let body = Recipes {
        recipes: app.catalog.list(),
        start: app.catalog.start(),
    };
    json(serde_json::to_vec(&body).unwrap_or_default())
}

/// The `recipe=` of a status query (the only key it takes).
fn recipe_of(app: &App, q: Option<String>) -> Result<String, Refusal> {
    let mut recipe = None;
    for (key, value) in form_urlencoded::parse(q.as_deref().unwrap_or("").as_bytes()) {
        match key.as_ref() {
            "recipe" if recipe.is_none() => recipe = Some(value.into_owned()),
            "recipe" => return Err(Refusal::bad("'recipe' is given more than once".into())),
            _ => {
                return Err(Refusal::bad(format!(
                    "unknown query parameter '{key}' (valid: recipe)"
                )))
            }
        }
    }
    let recipe = recipe.unwrap_or_else(|| app.defaults.recipe.clone());
    check_recipe(app, &recipe)?;
    Ok(recipe)
}

/// Refuses a recipe the server does not offer.
fn check_recipe(app: &App, recipe: &str) -> Result<(), Refusal> {
    match app.catalog.find(recipe) {
        Some(_) => Ok(()),
        None => Err(Refusal::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!(
                "no recipe {recipe:?} here (this server offers: {})",
                app.catalog.list().join(", ")
            ),
        )),
    }
}

async fn status(State(app): State<App>, RawQuery(q): RawQuery) -> Result<Response, Refusal> {
    let recipe = recipe_of(&app, q)?;
    let status = app.worker.status(&recipe).await?;
    let s: Arc<Status> = status.borrow().clone();
    Ok(json(serde_json::to_vec(&*s).unwrap_or_default()))
}

async fn events(
    State(app): State<App>,
    RawQuery(q): RawQuery,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Refusal> {
    let recipe = recipe_of(&app, q)?;
    let status = app.worker.status(&recipe).await?;
    let stream = WatchStream::new(status).map(|s| {
        Ok(Event::default()
            .event("status")
            .json_data(&*s)
            .unwrap_or_else(|_| Event::default().event("status")))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// A statistics sweep as server-sent `progress` events: the statistics so far, a few times a
/// second, the last one with a final `state`; then the stream ends. A page that closes the
/// stream stops the sweep (unless another page watches it too).
async fn sweep(
    State(app): State<App>,
    RawQuery(q): RawQuery,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Refusal> {
    let request =
        query::parse_sweep(q.as_deref(), &app.defaults).map_err(|BadQuery(m)| Refusal::bad(m))?;
    check_recipe(&app, &request.recipe)?;
    let inputs = app
        .worker
        .sweep_inputs(&request.recipe, &request.sets)
        .await?;
    let watcher = app
        .sweeps
        .watch(&request, inputs)
        .map_err(Refusal::internal)?;
    let (tx, rx) = tokio::sync::mpsc::channel(2);
    tokio::spawn(async move {
        // The watcher lives as long as this task: it ends when the page closes the stream
        // (the next send fails) or the sweep ends.
        let mut watcher = watcher;
        loop {
            let progress = watcher.progress.borrow_and_update().clone();
            if tx.send(progress.clone()).await.is_err() || progress.finished {
                return;
            }
            if watcher.progress.changed().await.is_err() {
                return;
            }
        }
    });
    let stream = ReceiverStream::new(rx)
        .map(|p| Ok(Event::default().event("progress").data(p.json.as_str())));
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

async fn map(State(app): State<App>, RawQuery(q): RawQuery) -> Result<Response, Refusal> {
    let request = parse(&app, q, Extras::Page)?;
    let g = generate(&app, &request).await?;
    blocking(move || Ok(json(payload::page(&g)))).await
}

async fn layer(State(app): State<App>, RawQuery(q): RawQuery) -> Result<Response, Refusal> {
    let request = parse(&app, q, Extras::Layer)?;
    let g = generate(&app, &request).await?;
    blocking(move || {
        let level = &g.levels[request.level as usize - 1];
        let steps = level.snapshots.len();
        let map = match request.frame.map(|f| f as usize) {
            None => &level.level.map,
            Some(f) if f < steps => &level.snapshots[f].map,
            Some(f) if f == steps => &level.level.map,
            Some(f) => {
                return Err(Refusal::bad(format!(
                    "frame {f} is past the last step of level {} ({steps})",
                    request.level
                )))
            }
        };
        payload::layer(map, &request.layer)
            .map(json)
            .map_err(Refusal::bad)
    })
    .await
}

async fn export_json(State(app): State<App>, RawQuery(q): RawQuery) -> Result<Response, Refusal> {
    let request = parse(&app, q, Extras::Json)?;
    let g = generate(&app, &request).await?;
    blocking(move || {
        let bytes = export(&g, &request, Format::Json)?;
        let name = file_name(&g, &request, "json");
        Ok(download("application/json", &name, bytes))
    })
    .await
}

async fn export_png(State(app): State<App>, RawQuery(q): RawQuery) -> Result<Response, Refusal> {
    let request = parse(&app, q, Extras::Png)?;
    let g = generate(&app, &request).await?;
    blocking(move || {
        // Levels stack top to bottom with a one-cell gap, as `warren run` draws them.
        let width = g.levels.iter().map(|l| l.level.map.width()).max().unwrap_or(0) as usize;
        let height = g.levels.iter().map(|l| l.level.map.height() as usize).sum::<usize>()
            + g.levels.len().saturating_sub(1);
        let scale = request.scale as usize;
        if width * scale > MAX_SIDE_PX || height * scale > MAX_SIDE_PX {
            return Err(Refusal::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!(
                    "{width}×{height} cells at scale {scale} is {}×{} pixels; the limit is {MAX_SIDE_PX} per side (lower scale)",
                    width * scale,
                    height * scale
                ),
            ));
        }
        let bytes = export(&g, &request, Format::Png)?;
        Ok(download("image/png", &file_name(&g, &request, "png"), bytes))
    })
    .await
}

async fn export_tiled(State(app): State<App>, RawQuery(q): RawQuery) -> Result<Response, Refusal> {
    let request = parse(&app, q, Extras::Tiled)?;
    let g = generate(&app, &request).await?;
    blocking(move || {
        let bytes = tiled_zip(&g, &request)?;
        let name = file_name(&g, &request, "tiled.zip");
        Ok(download("application/zip", &name, bytes))
    })
    .await
}

/// The Tiled map `warren run --out NAME.tmx` writes for this generation and its tileset image
/// (`NAME.tiles.png`, which the map names), together in one zip archive.
fn tiled_zip(g: &Generation, request: &Request) -> Result<Vec<u8>, Refusal> {
    let levels = g.plain_levels();
    let output = Output {
        levels: &levels,
        recipe: &g.recipe,
        params: &g.params,
        scale: 1,
        layer: &LayerChoice::Terrain,
    };
    let tileset = file_name(g, request, "tiles.png");
    let mut map = Vec::new();
    let image = output
        .write_tiled(&tileset, &mut map)
        .map_err(|e| Refusal::internal(e.to_string()))?;
    archive(&[(&file_name(g, request, "tmx"), &map), (&tileset, &image)])
        .map_err(|e| Refusal::internal(format!("writing the zip: {e}")))
}

/// A zip archive of `files` (name, bytes), stored uncompressed (PNG is compressed already, a
/// map is small), with the format's fixed 1980 date: the same map gives the same bytes.
fn archive(files: &[(&str, &[u8])]) -> zip::result::ZipResult<Vec<u8>> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, bytes) in files {
        zip.start_file(*name, options)?;
        zip.write_all(bytes)?;
    }
    Ok(zip.finish()?.into_inner())
}

/// The bytes `warren run` writes for this generation, layer and format.
fn export(g: &Generation, request: &Request, format: Format) -> Result<Vec<u8>, Refusal> {
    let layer = LayerChoice::from_name(&request.layer);
    render_layer(
        &g.plain_levels(),
        &g.recipe,
        &g.params,
        format,
        request.scale,
        &layer,
    )
    .map_err(|e| match e {
        warren_lua::Error::Param(m) => Refusal::bad(m),
        other => Refusal::internal(other.to_string()),
    })
}

/// `recipe-seed[-layer].ext`, safe as a file name.
fn file_name(g: &Generation, request: &Request, ext: &str) -> String {
    let mut name = crate::frames::slug(&g.recipe);
    name.push_str(&format!("-{}", request.map.seed));
    if request.layer != "terrain" {
        name.push_str(&format!("-{}", crate::frames::slug(&request.layer)));
    }
    format!("{name}.{ext}")
}

fn parse(app: &App, q: Option<String>, extras: Extras) -> Result<Request, Refusal> {
    let request =
        query::parse(q.as_deref(), extras, &app.defaults).map_err(|BadQuery(m)| Refusal::bad(m))?;
    check_recipe(app, &request.map.recipe)?;
    Ok(request)
}

async fn generate(app: &App, request: &Request) -> Result<Arc<Generation>, Refusal> {
    let work = app.worker.generate(request.map.clone());
    match tokio::time::timeout(WAIT, work).await {
        Ok(Ok(g)) => Ok(g),
        Ok(Err(f)) => Err(Refusal::from(f)),
        Err(_) => Err(Refusal::from(Failure::Busy)),
    }
}

/// Runs CPU work (encoding, drawing layers) off the async threads.
async fn blocking(
    work: impl FnOnce() -> Result<Response, Refusal> + Send + 'static,
) -> Result<Response, Refusal> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        Err(Refusal::internal(
            "a panic while encoding (a bug in warren, please report it)".into(),
        ))
    })
}

/// A request not served: the status code, a kind for the page, and every problem with its
/// place. Answered as
/// `{ "error": { "kind", "problems": [{ message, file, line, column }] } }`.
#[derive(Debug)]
pub struct Refusal {
    code: StatusCode,
    kind: &'static str,
    problems: Vec<Problem>,
}

impl Refusal {
    fn new(code: StatusCode, kind: &'static str, message: String) -> Refusal {
        Refusal {
            code,
            kind,
            problems: vec![Problem::new(&message)],
        }
    }

    /// A malformed request (400).
    fn bad(message: String) -> Refusal {
        Refusal::new(StatusCode::BAD_REQUEST, "request", message)
    }

    /// A bug in warren (500).
    fn internal(message: String) -> Refusal {
        Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("internal error (a bug in warren, please report it): {message}"),
        )
    }
}

impl From<Failure> for Refusal {
    fn from(f: Failure) -> Refusal {
        match f {
            Failure::BadRequest(m) => Refusal::bad(m),
            Failure::TooLarge(m) => Refusal::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", m),
            Failure::Recipe(problems) => Refusal {
                code: StatusCode::UNPROCESSABLE_ENTITY,
                kind: "recipe",
                problems,
            },
            Failure::Busy => Refusal::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                "the generator is busy with other requests; try again".into(),
            ),
            Failure::Internal(m) => Refusal::internal(m),
        }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Body<'a> {
            error: Inner<'a>,
        }
        #[derive(Serialize)]
        struct Inner<'a> {
            kind: &'a str,
            problems: Vec<Problem>,
        }
        let body = Body {
            error: Inner {
                kind: self.kind,
                problems: self.problems,
            },
        };
        let mut r = json(serde_json::to_vec(&body).unwrap_or_default());
        *r.status_mut() = self.code;
        r
    }
}

fn json(body: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

fn download(kind: &'static str, name: &str, body: Vec<u8>) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    (headers, body).into_response()
}
