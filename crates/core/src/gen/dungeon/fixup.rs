//! Step 5b (seed 003, "Fix-Up Tunneling"), made certain: the connectivity fix-up loop with a
//! connector that tunnels like Incursion and, when a tunnel fails to join, carves the shortest
//! possible way instead.

use super::path::{carve_path, PathBrushes};
use super::DungeonError;
use crate::gen::connectivity::{fixup, FixupError, FixupReport};
use crate::gen::meter::Meter;
use crate::gen::tunnel::{
    tunnel_prechecked, StopReason, TunnelConfig, TunnelFlags, TunnelLevel, TunnelRequest,
    MAX_CORRIDOR_LENGTH,
};
use crate::map::{
    passable, priority, Adjacency, Brush, Corridor, Map, Point, TerrainId, FLAG_CONNECTED,
};
use crate::rng::Rng;

/// How one cut-off area was joined.
#[derive(Clone, Debug, PartialEq)]
pub enum Join {
    /// An earlier tunnel of the same trial had already joined it.
    Already,
    /// A tunnel (connect + direct + length) reached it.
    Tunnel {
        /// Index of the corridor style used.
        style: usize,
        /// Why the tunnel stopped.
        stop: StopReason,
        /// Cells floored.
        carved: usize,
    },
    /// The tunnel did not reach it (it stopped elsewhere, or its corridor was broken by a
    /// vault), so the shortest way was carved with the level's default corridor style.
    Path {
        /// Why the tunnel that came first stopped.
        tunnel_stop: StopReason,
        /// Cells floored by the tunnel and by the path.
        carved: usize,
    },
}

/// How [`fixup_level`] joins a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixupOptions {
    /// Trials before giving up (the original's 26).
    pub trials: u32,
    /// How a walker moves: the level ends as one area in this mode.
    pub adjacency: Adjacency,
    /// Terrain laid across hazards where only they separate two areas; `None` never crosses a
    /// hazard.
    pub bridge: Option<TerrainId>,
}

impl Default for FixupOptions {
    fn default() -> Self {
        FixupOptions {
            trials: 26,
            adjacency: Adjacency::Eight,
            bridge: None,
        }
    }
}

/// Joins every passable area of `map` into one in `opts.adjacency`, tunnelling from the
/// connected area to the nearest cell of each cut-off area (see
/// [`crate::gen::connectivity::fixup`] for the loop).
///
/// Each tunnel uses the `connect` flag (it stops on entering any open cell not yet joined),
/// `direct`, and `length` with a limit of twice the walk's orthogonal distance plus 16, so a
/// tunnel that cannot arrive does not wander the level. A tunnel joins only if every cell it
/// walked is passable (a vault or a hazard can break it). If the area is still cut off after
/// the tunnel, the shortest path is carved ([`carve_path`]), bridging hazards with
/// `opts.bridge`; that always succeeds unless the area is sealed by vault walls, the map's edge
/// or hazards with no bridge. At most `opts.trials` trials are made.
///
/// `config` is checked once ([`TunnelConfig::validate`]). The work is reported to `meter` as
/// it happens — each trial's flood over the whole map, each tunnel's steps, each path
/// search's visited cells — and the phase stops with [`DungeonError::Stopped`] (as a connector
/// error) when the meter refuses.
// Incursion tunnels with direct + wander and no connect flag; a wander stop inside an area that
// is already joined joins nothing, so the fix-up here relies on connect and the path instead.
pub fn fixup_level(
    map: &mut Map,
    config: &TunnelConfig,
    level: &mut TunnelLevel,
    rng: &mut Rng,
    opts: &FixupOptions,
    meter: &mut dyn Meter,
) -> Result<FixupReport<Join>, FixupError<DungeonError>> {
    let adjacency = opts.adjacency;
    let cells = map.len() as u64;
    // The first flood, before any tunnel; later floods are paid for when the loop ends.
    if let Err(stop) = meter.work(cells) {
        let start = map.point(0);
        return Err(FixupError::Connector {
            from: start,
            to: start,
            error: stop.into(),
        });
    }
    let mut checked = false;
    let report = fixup(map, rng, opts.trials, adjacency, |map, rng, from, to| {
        if !checked {
            config.validate(map)?;
            checked = true;
        }
        if map.is_connected(to)? {
            return Ok(Join::Already);
        }
        let span = (from.x - to.x).unsigned_abs() + (from.y - to.y).unsigned_abs();
        let mut req = TunnelRequest::new(
            from,
            to,
            TunnelFlags {
                connect: true,
                direct: true,
                length: true,
                ..TunnelFlags::default()
            },
        );
        req.length_limit = Some((2 * span + 16).min(MAX_CORRIDOR_LENGTH));
        let dug = tunnel_prechecked(map, config, level, &req, rng)?;
        meter.work(u64::from(dug.steps) + dug.carved.len() as u64)?;
        // The corridor joins only if every cell of it is passable (a vault or a hazard can
        // break it).
        let intact = dug
            .path
            .iter()
            .chain([&dug.end])
            .all(|&p| map.is_passable(p).unwrap_or(false));
        if intact && map.is_connected(from)? {
            let walked = dug.path.iter().chain([&dug.end]).copied();
            let spread = spread_connected(map, walked, adjacency);
            meter.work(spread)?;
            if map.is_connected(to)? {
                return Ok(Join::Tunnel {
                    style: dug.style,
                    stop: dug.stop,
                    carved: dug.carved.len(),
                });
            }
        }
        let carved = carve_default(map, config, (from, to), opts, meter)?;
        let spread = spread_connected(map, carved.iter().copied().chain([from, to]), adjacency);
        meter.work(spread)?;
        Ok(Join::Path {
            tunnel_stop: dug.stop,
            carved: dug.carved.len() + carved.len(),
        })
    })?;
    if let Err(stop) = meter.work(u64::from(report.trials) * cells) {
        let start = map.point(0);
        return Err(FixupError::Connector {
            from: start,
            to: start,
            error: stop.into(),
        });
    }
    Ok(report)
}

/// Marks connected every passable cell connected in `adjacency` to `seeds` (which are
/// passable cells touching the connected area, or in it) that is not marked yet. It only visits
/// what it newly joins, so a check after each tunnel costs the size of the area the tunnel
/// reached. Returns the cells looked at (a cell's neighbours in `adjacency` per cell marked),
/// for the meter.
fn spread_connected(
    map: &mut Map,
    seeds: impl Iterator<Item = Point>,
    adjacency: Adjacency,
) -> u64 {
    let mut work = 0;
    let (w, h) = (map.width(), map.height());
    let mut stack: Vec<Point> = Vec::new();
    for p in seeds {
        if let Ok(i) = map.index(p) {
            let f = &mut map.flag_cells_mut()[i];
            if passable(*f) {
                *f |= FLAG_CONNECTED;
                stack.push(p);
            }
        }
    }
    while let Some(p) = stack.pop() {
        work += adjacency.dirs().len() as u64;
        for &d in adjacency.dirs() {
            let n = p.step(d);
            if n.x < 0 || n.y < 0 || n.x >= w || n.y >= h {
                continue;
            }
            let f = &mut map.flag_cells_mut()[(n.x + n.y * w) as usize];
            if passable(*f) && *f & FLAG_CONNECTED == 0 {
                *f |= FLAG_CONNECTED;
                stack.push(n);
            }
        }
    }
    work
}

/// Carves the shortest path with the default corridor style (bridging hazards with
/// `opts.bridge`) and records it as a corridor.
fn carve_default(
    map: &mut Map,
    config: &TunnelConfig,
    (from, to): (Point, Point),
    opts: &FixupOptions,
    meter: &mut dyn Meter,
) -> Result<Vec<Point>, DungeonError> {
    let style = &config.styles[config.default_style];
    let region = map.region_id(&style.name);
    let floor = Brush::new(style.floor)
        .priority(priority::ROOM_FLOOR)
        .region(region);
    let walls = Brush::new(style.walls)
        .priority(priority::CORRIDOR_WALL)
        .region(region);
    let bridge = opts.bridge.map(|t| {
        Brush::new(t)
            .priority(priority::RIVER_STREAMER)
            .region(region)
    });
    let brushes = PathBrushes {
        floor,
        walls,
        bridge,
    };
    let cells = carve_path(map, (from, to), &brushes, opts.adjacency, meter)?;
    map.notes.corridors.push(Corridor {
        cells: cells.clone(),
        region: Some(style.name.clone()),
    });
    Ok(cells)
}
