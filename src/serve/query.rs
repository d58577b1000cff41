//! What a request asks for, read from its query string and checked before any work is queued:
//! a bad seed, an unknown key, a repeated key or an out-of-range number is refused here with a
//! message that says what is valid. (Parameter values are checked by the worker, against the
//! recipe's declared ranges.)

use std::fmt;

/// The most levels one request may ask for (as `--levels`).
pub const MAX_LEVELS: u32 = 64;
/// The largest PNG scale (as `--scale`).
pub const MAX_SCALE: u32 = 64;
/// The most seeds one statistics sweep may run.
pub const MAX_SWEEP: u64 = 1_000_000;
/// Seeds a sweep runs when the request does not say.
pub const DEFAULT_SWEEP: u64 = 1000;

/// A query that cannot be served: the message says why and what is valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadQuery(pub String);

impl fmt::Display for BadQuery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One generation: the same inputs as `warren run RECIPE --seed S --set … --levels N`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MapRequest {
    /// The recipe, as the server lists it ([`super::catalog::Catalog`]).
    pub recipe: String,
    /// The run's seed.
    pub seed: u64,
    /// `key=value` parameter settings, in the order given.
    pub sets: Vec<(String, String)>,
    /// How many levels.
    pub levels: u32,
    /// Whether to keep the `map:snapshot` steps (as `--frames`).
    pub steps: bool,
}

/// A request: a generation, and what to draw of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// What to generate.
    pub map: MapRequest,
    /// The layer to draw (as `--layer`).
    pub layer: String,
    /// PNG pixels per cell (as `--scale`).
    pub scale: u32,
    /// Which level (1-based), for one layer of one level.
    pub level: u32,
    /// Which step of that level (0-based; the finished map is the last), if not the finished map.
    pub frame: Option<u32>,
}

/// Which keys a route accepts besides the generation's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extras {
    /// `/api/map`: `steps`.
    Page,
    /// `/api/layer`: `steps`, `layer`, `level` and `frame`.
    Layer,
    /// `/api/export.json`: `layer`.
    Json,
    /// `/api/export.png`: `layer` and `scale`.
    Png,
    /// `/api/export.tiled.zip`: the terrain only, so nothing else.
    Tiled,
}

impl Extras {
    fn keys(self) -> &'static [&'static str] {
        match self {
            Extras::Page => &["recipe", "seed", "set", "levels", "steps"],
            Extras::Layer => &[
                "recipe", "seed", "set", "levels", "steps", "layer", "level", "frame",
            ],
            Extras::Json => &["recipe", "seed", "set", "levels", "layer"],
            Extras::Png => &["recipe", "seed", "set", "levels", "layer", "scale"],
            Extras::Tiled => &["recipe", "seed", "set", "levels"],
        }
    }
}

/// The defaults a query falls back on: the values `warren serve` was started with.
#[derive(Clone, Debug)]
pub struct Defaults {
    /// The recipe it was started with.
    pub recipe: String,
    /// `--seed` (or the one drawn at start-up).
    pub seed: u64,
    /// `--levels`.
    pub levels: u32,
}

/// Reads a query string (`seed=7&set=width%3D40&levels=2`). `set` may repeat; every other key
/// may appear once.
pub fn parse(
    query: Option<&str>,
    extras: Extras,
    defaults: &Defaults,
) -> Result<Request, BadQuery> {
    let valid = extras.keys();
    let mut recipe = None;
    let mut seed = None;
    let mut levels = None;
    let mut level = None;
    let mut frame = None;
    let mut steps = None;
    let mut layer = None;
    let mut scale = None;
    let mut sets = Vec::new();
    for (key, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        if !valid.contains(&key.as_ref()) {
            return Err(BadQuery(format!(
                "unknown query parameter '{key}' (valid: {})",
                valid.join(", ")
            )));
        }
        match key.as_ref() {
            "recipe" => {
                once(&key, &recipe)?;
                recipe = Some(value.into_owned());
            }
            "seed" => {
                once(&key, &seed)?;
                seed = Some(parse_seed(&value)?);
            }
            "levels" => {
                once(&key, &levels)?;
                levels = Some(parse_number(&key, &value, 1, MAX_LEVELS)?);
            }
            "level" => {
                once(&key, &level)?;
                level = Some(parse_number(&key, &value, 1, MAX_LEVELS)?);
            }
            "frame" => {
                once(&key, &frame)?;
                frame = Some(parse_number(&key, &value, 0, u32::MAX)?);
            }
            "scale" => {
                once(&key, &scale)?;
                scale = Some(parse_number(&key, &value, 1, MAX_SCALE)?);
            }
            "steps" => {
                once(&key, &steps)?;
                steps = Some(parse_flag(&key, &value)?);
            }
            "layer" => {
                once(&key, &layer)?;
                if value.is_empty() {
                    return Err(BadQuery("layer must not be empty".into()));
                }
                layer = Some(value.into_owned());
            }
            _ => sets.push(
                warren_lua::params::split_assignment(&value)
                    .map_err(|_| BadQuery(format!("set expects key=value, got {value:?}")))?,
            ),
        }
    }
    let levels = levels.unwrap_or(defaults.levels);
    let level = level.unwrap_or(1);
    if level > levels {
        return Err(BadQuery(format!(
            "level {level} is past the last level generated ({levels})"
        )));
    }
    Ok(Request {
        map: MapRequest {
            recipe: recipe.unwrap_or_else(|| defaults.recipe.clone()),
            seed: seed.unwrap_or(defaults.seed),
            sets,
            levels,
            steps: steps.unwrap_or(false),
        },
        layer: layer.unwrap_or_else(|| "terrain".into()),
        scale: scale.unwrap_or(4),
        level,
        frame,
    })
}

/// A statistics sweep: the same inputs as `warren batch RECIPE --seed-start S --count N --set …`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SweepRequest {
    /// The recipe, as the server lists it.
    pub recipe: String,
    /// `key=value` parameter settings, in the order given.
    pub sets: Vec<(String, String)>,
    /// The first seed.
    pub start: u64,
    /// How many seeds.
    pub count: u64,
}

/// Reads a sweep's query string (`recipe=scripts/rooms.lua&set=width%3D40&count=1000&start=0`).
pub fn parse_sweep(query: Option<&str>, defaults: &Defaults) -> Result<SweepRequest, BadQuery> {
    const VALID: [&str; 4] = ["recipe", "set", "count", "start"];
    let mut recipe = None;
    let mut start = None;
    let mut count = None;
    let mut sets = Vec::new();
    for (key, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        match key.as_ref() {
            "recipe" => {
                once(&key, &recipe)?;
                recipe = Some(value.into_owned());
            }
            "start" => {
                once(&key, &start)?;
                start = Some(parse_seed(&value).map_err(|_| {
                    BadQuery(format!(
                        "start must be a whole number from 0 to {}, got {value:?}",
                        u64::MAX
                    ))
                })?);
            }
            "count" => {
                once(&key, &count)?;
                count = Some(
                    value
                        .parse::<u64>()
                        .ok()
                        .filter(|n| (1..=MAX_SWEEP).contains(n))
                        .ok_or_else(|| {
                            BadQuery(format!(
                                "count must be a whole number from 1 to {MAX_SWEEP}, got {value:?}"
                            ))
                        })?,
                );
            }
            "set" => sets.push(
                warren_lua::params::split_assignment(&value)
                    .map_err(|_| BadQuery(format!("set expects key=value, got {value:?}")))?,
            ),
            _ => {
                return Err(BadQuery(format!(
                    "unknown query parameter '{key}' (valid: {})",
                    VALID.join(", ")
                )))
            }
        }
    }
    let start = start.unwrap_or(0);
    let count = count.unwrap_or(DEFAULT_SWEEP);
    if start.checked_add(count - 1).is_none() {
        return Err(BadQuery(format!(
            "start {start} + count {count} is past the largest seed {}",
            u64::MAX
        )));
    }
    Ok(SweepRequest {
        recipe: recipe.unwrap_or_else(|| defaults.recipe.clone()),
        sets,
        start,
        count,
    })
}

/// Refuses a second value for a key that takes one.
fn once<T>(key: &str, slot: &Option<T>) -> Result<(), BadQuery> {
    match slot {
        Some(_) => Err(BadQuery(format!("'{key}' is given more than once"))),
        None => Ok(()),
    }
}

fn parse_seed(text: &str) -> Result<u64, BadQuery> {
    text.parse::<u64>().map_err(|_| {
        BadQuery(format!(
            "seed must be a whole number from 0 to {}, got {text:?}",
            u64::MAX
        ))
    })
}

fn parse_number(key: &str, text: &str, lo: u32, hi: u32) -> Result<u32, BadQuery> {
    match text.parse::<u32>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(BadQuery(format!(
            "{key} must be a whole number from {lo} to {hi}, got {text:?}"
        ))),
    }
}

fn parse_flag(key: &str, text: &str) -> Result<bool, BadQuery> {
    match text {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(BadQuery(format!("{key} must be 1 or 0, got {text:?}"))),
    }
}
