//! Placing vault templates: pick one by tags, depth and weight; lay it down in one of the
//! orientations it allows, its substitutions drawn; fit it into solid rock (then dig a
//! corridor from its entrance to the nearest open cell) or inside a room; write it through
//! priority writes; and keep it only if the level is in no more pieces than before.

use super::{substitute, Cell, Glyphs, Orientation, Prefab};
use crate::gen::area::{Area, Mask, Scope};
use crate::gen::connectivity::{Components, Connectivity};
use crate::gen::field::distance::{distance_map, Cost, MoveRules};
use crate::gen::meter::Meter;
use crate::gen::path::descend;
use crate::gen::tool_error::ToolError;
use crate::map::{
    passable, priority, Adjacency, Backup, Brush, Corridor, Dir, Door, DoorState, Map, Point, Rect,
};
use crate::rng::Rng;

/// Where a template goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Fit {
    /// Into solid rock: the template and a ring of one cell round it must lie on solid cells
    /// of the area; a corridor is then dug from its entrance (each `connect` cell, else one
    /// open cell of its border) to the nearest open cell of the level.
    #[default]
    Free,
    /// Inside the area's rectangle (a room), over what is there.
    Inside,
}

impl Fit {
    /// The names options spell.
    pub const NAMES: [&'static str; 2] = ["free", "inside"];
}

/// The brushes a placement writes with: the built-in glyphs' terrains, the corridors dug to
/// templates placed in free space, and (their priority, force and region aside) the legend's
/// own terrains, which are written like the floor.
#[derive(Clone, Copy, Debug)]
pub struct PrefabBrushes<'a> {
    /// `.`, and the legend's terrains.
    pub floor: &'a Brush,
    /// `#`.
    pub wall: &'a Brush,
    /// `+`, and the legend's `[[door]]` kinds.
    pub door: &'a Brush,
    /// Corridors dug to connect a template placed in free space.
    pub corridor: &'a Brush,
}

/// What to place, and how hard to try.
#[derive(Clone, Copy, Debug)]
pub struct PlaceRequest<'a> {
    /// The level's depth: only templates whose depth range holds it are picked.
    pub depth: u32,
    /// Only templates with every one of these tags are picked.
    pub include: &'a [String],
    /// Templates with any of these tags are not picked.
    pub exclude: &'a [String],
    /// How many templates to place.
    pub count: usize,
    /// Attempts per template (an orientation, its substitutions and a spot each) before the
    /// next template is drawn.
    pub tries: u32,
    /// Place each template at most once.
    pub unique: bool,
    /// Into free space or inside a room.
    pub fit: Fit,
    /// How a walker moves when the level's pieces are counted.
    pub adjacency: Adjacency,
}

/// A placed template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// Its name.
    pub name: String,
    /// The cells its map covers.
    pub rect: Rect,
    /// How it was laid down.
    pub orientation: Orientation,
}

/// Places up to `req.count` templates of `prefabs` on `map` within `area`: each is drawn by
/// weight among the eligible ones ([`Prefab::eligible`]) and tried `req.tries` times; one that
/// never fits is not drawn again. A placement is kept only when every cell of its `connect`
/// glyphs opens onto the level outside it and the level's open cells (in `req.adjacency`) are
/// in no more separate areas than before (one, on a level that had none); otherwise its cells,
/// doors and corridors are put back as they were. Returns what was placed, in order (fewer than
/// asked, or none, when nothing more fits).
pub fn place(
    map: &mut Map,
    area: Area<'_>,
    prefabs: &[Prefab],
    req: &PlaceRequest<'_>,
    brushes: PrefabBrushes<'_>,
    rng: &mut Rng,
    meter: &mut dyn Meter,
) -> Result<Vec<Placed>, ToolError> {
    let scope = area.on(map)?;
    if req.fit == Fit::Inside && !scope.is_rectangular() {
        return Err(ToolError::NotARectangle {
            what: "a vault placed inside",
        });
    }
    let mut weights: Vec<f64> = prefabs
        .iter()
        .map(|p| {
            if p.eligible(req.depth, req.include, req.exclude) {
                p.weight
            } else {
                0.0
            }
        })
        .collect();
    let mut level = Level {
        conn: Connectivity::new(),
        comps: Components::new(),
        areas: 0,
        adjacency: req.adjacency,
    };
    meter.work(map.len() as u64)?;
    level.count(map);
    let mut placed = Vec::new();
    while placed.len() < req.count {
        let Some(i) = rng.weighted_index(&weights) else {
            break;
        };
        match attempt(
            map,
            &scope,
            &prefabs[i],
            req,
            brushes,
            rng,
            meter,
            &mut level,
        )? {
            Some(p) => {
                placed.push(p);
                if req.unique {
                    weights[i] = 0.0;
                }
            }
            None => weights[i] = 0.0,
        }
    }
    Ok(placed)
}

/// The level's open areas, counted with reused buffers.
struct Level {
    conn: Connectivity,
    comps: Components,
    /// Separate open areas after the last placement kept.
    areas: usize,
    adjacency: Adjacency,
}

impl Level {
    /// Counts the map's separate open areas.
    fn count(&mut self, map: &Map) -> usize {
        self.conn.components(map, &mut self.comps, self.adjacency);
        self.areas = self.comps.len();
        self.areas
    }
}

/// Up to `req.tries` attempts at placing `prefab`.
#[allow(clippy::too_many_arguments)]
fn attempt(
    map: &mut Map,
    scope: &Scope<'_>,
    prefab: &Prefab,
    req: &PlaceRequest<'_>,
    brushes: PrefabBrushes<'_>,
    rng: &mut Rng,
    meter: &mut dyn Meter,
    level: &mut Level,
) -> Result<Option<Placed>, ToolError> {
    let orientations = prefab.orientations();
    for _ in 0..req.tries {
        let orientation = orientations[rng.below(orientations.len() as u64) as usize];
        let mut glyphs = prefab.glyphs.oriented(orientation);
        substitute(&mut glyphs, &prefab.subst, rng);
        meter.work(glyphs.cells.len() as u64)?;
        let spot = match req.fit {
            Fit::Free => free_spot(map, scope, &glyphs, rng, meter)?,
            Fit::Inside => inside_spot(map, scope.bounds, &glyphs, rng),
        };
        let Some(at) = spot else { continue };
        let rect = Rect::new(at.x, at.y, glyphs.width, glyphs.height);
        let mut backup = map.backup();
        draw(map, prefab, &glyphs, rect, &brushes, &mut backup)?;
        let joined = match req.fit {
            Fit::Free => dig(
                map,
                prefab,
                &glyphs,
                rect,
                brushes.corridor,
                rng,
                meter,
                &mut backup,
            )?,
            Fit::Inside => true,
        };
        let areas = level.areas;
        meter.work(map.len() as u64)?;
        if joined && entrances_open(map, prefab, &glyphs, rect) && level.count(map) <= areas.max(1)
        {
            return Ok(Some(Placed {
                name: prefab.name.clone(),
                rect,
                orientation,
            }));
        }
        map.restore(backup);
        level.areas = areas;
    }
    Ok(None)
}

/// Whether a cell may hold part of a template placed in free space: solid, no door, in the
/// area.
fn free(map: &Map, scope: &Scope<'_>, i: usize) -> bool {
    let f = map.flag_cells()[i];
    f & crate::map::FLAG_SOLID != 0 && f & crate::map::FLAG_DOOR == 0 && scope.contains_index(i)
}

/// A random spot (the template's top-left cell) where `glyphs` and a ring of one cell round
/// it lie on free cells, or `None`. Summed-area table: linear in the map's size.
fn free_spot(
    map: &Map,
    scope: &Scope<'_>,
    glyphs: &Glyphs,
    rng: &mut Rng,
    meter: &mut dyn Meter,
) -> Result<Option<Point>, ToolError> {
    let (mw, mh) = (map.width() as usize, map.height() as usize);
    let (w, h) = (glyphs.width as usize + 2, glyphs.height as usize + 2);
    if w > mw || h > mh {
        return Ok(None);
    }
    meter.work(2 * map.len() as u64)?;
    let stride = mw + 1;
    let mut sum = vec![0u32; stride * (mh + 1)];
    for y in 0..mh {
        let mut row = 0;
        for x in 0..mw {
            row += u32::from(free(map, scope, x + y * mw));
            sum[(x + 1) + (y + 1) * stride] = sum[(x + 1) + y * stride] + row;
        }
    }
    let whole = (w * h) as u32;
    let fits = |x: usize, y: usize| {
        let (x2, y2) = (x + w, y + h);
        sum[x2 + y2 * stride] + sum[x + y * stride] - sum[x + y2 * stride] - sum[x2 + y * stride]
            == whole
    };
    let spots = || (0..=mh - h).flat_map(move |y| (0..=mw - w).map(move |x| (x, y)));
    let n = spots().filter(|&(x, y)| fits(x, y)).count();
    if n == 0 {
        return Ok(None);
    }
    let k = rng.below(n as u64) as usize;
    Ok(spots()
        .filter(|&(x, y)| fits(x, y))
        .nth(k)
        .map(|(x, y)| Point::new(x as i32 + 1, y as i32 + 1)))
}

/// A random spot for `glyphs` inside `room`, off the map's edge, or `None` when it is too
/// small.
fn inside_spot(map: &Map, room: Rect, glyphs: &Glyphs, rng: &mut Rng) -> Option<Point> {
    let x0 = room.x.max(1);
    let y0 = room.y.max(1);
    let x1 = (room.x2().min(map.width() - 2)) - glyphs.width + 1;
    let y1 = (room.y2().min(map.height() - 2)) - glyphs.height + 1;
    if x1 < x0 || y1 < y0 {
        return None;
    }
    let x = x0 + rng.below((x1 - x0 + 1) as u64) as i32;
    let y = y0 + rng.below((y1 - y0 + 1) as u64) as i32;
    Some(Point::new(x, y))
}

/// Writes `glyphs` (the template oriented and substituted) into `rect`, each cell stamped
/// with the template's region, saving what it writes over in `backup`; doors are recorded.
fn draw(
    map: &mut Map,
    prefab: &Prefab,
    glyphs: &Glyphs,
    rect: Rect,
    brushes: &PrefabBrushes<'_>,
    backup: &mut Backup,
) -> Result<(), ToolError> {
    let region = map.region_id(&prefab.name);
    for (i, c) in glyphs.cells.iter().enumerate() {
        let p = Point::new(
            rect.x + i as i32 % glyphs.width,
            rect.y + i as i32 / glyphs.width,
        );
        let (base, terrain, door) = match prefab.legend.get(c).unwrap_or(&Cell::Keep) {
            Cell::Keep => continue,
            Cell::Floor => (brushes.floor, brushes.floor.terrain, None),
            Cell::Wall => (brushes.wall, brushes.wall.terrain, None),
            Cell::Door => (brushes.door, brushes.door.terrain, Some(None)),
            Cell::Terrain(t) => (brushes.floor, *t, None),
            Cell::DoorOf(kind) => (brushes.door, kind.closed, Some(Some(kind.name.clone()))),
        };
        let brush = Brush {
            terrain,
            region: Some(region),
            ..*base
        };
        map.save_cell(backup, p);
        if map.write(p, &brush)? {
            if let Some(kind) = door {
                map.add_door(Door {
                    kind,
                    ..Door::new(p, DoorState::Closed)
                })?;
            }
        }
    }
    Ok(())
}

/// The cells of `rect`'s border that are entrances: the `connect` glyphs' cells, else every
/// border cell a walker may stand on.
fn entrances(map: &Map, prefab: &Prefab, glyphs: &Glyphs, rect: Rect) -> Vec<Point> {
    let mut out = Vec::new();
    for y in 0..glyphs.height {
        for x in 0..glyphs.width {
            let p = Point::new(rect.x + x, rect.y + y);
            let c = glyphs.get(x, y);
            let entrance = if prefab.connect.is_empty() {
                glyphs.on_border(x, y) && map.is_passable(p).unwrap_or(false)
            } else {
                prefab.connect.contains(&c)
            };
            if entrance {
                out.push(p);
            }
        }
    }
    out
}

/// The neighbours of `p` (north, south, east, west) outside `rect`.
fn outside(p: Point, rect: Rect) -> impl Iterator<Item = Point> {
    Dir::CARDINAL
        .into_iter()
        .map(move |d| p.step(d))
        .filter(move |q| !rect.contains(*q))
}

/// Whether every entrance of a template with `connect` glyphs touches an open cell outside it.
fn entrances_open(map: &Map, prefab: &Prefab, glyphs: &Glyphs, rect: Rect) -> bool {
    prefab.connect.is_empty()
        || entrances(map, prefab, glyphs, rect).into_iter().all(|e| {
            outside(e, rect).any(|q| map.in_bounds(q) && map.is_passable(q).unwrap_or(false))
        })
}

/// Digs a corridor from each entrance of a template placed in free space (each `connect`
/// cell, else one open border cell drawn at random) to the nearest open cell of the level, down
/// a distance map over the cells it may carve (not the template, not the map's edge, none that
/// `corridor` would lose to). Returns `false` when an entrance cannot be reached; `true` also
/// when the level has no open cell yet (nothing to join).
#[allow(clippy::too_many_arguments)]
fn dig(
    map: &mut Map,
    prefab: &Prefab,
    glyphs: &Glyphs,
    rect: Rect,
    corridor: &Brush,
    rng: &mut Rng,
    meter: &mut dyn Meter,
    backup: &mut Backup,
) -> Result<bool, ToolError> {
    let mut starts = entrances(map, prefab, glyphs, rect);
    if prefab.connect.is_empty() && !starts.is_empty() {
        let one = starts[rng.below(starts.len() as u64) as usize];
        starts = vec![one];
    }
    let (w, h) = (map.width(), map.height());
    meter.work(2 * map.len() as u64)?;
    let mut sources = Vec::new();
    let mut room = Mask::new(w, h, false);
    for (i, (&f, &prio)) in map
        .flag_cells()
        .iter()
        .zip(map.priority_cells())
        .enumerate()
    {
        let p = map.point(i);
        if rect.contains(p) || map.is_edge(p) {
            continue;
        }
        if passable(f) {
            sources.push(p);
        }
        let wins = corridor.force || corridor.priority.is_none_or(|c| priority::wins(c, prio));
        room.set(p, wins || passable(f))?;
    }
    if sources.is_empty() {
        return Ok(true);
    }
    if starts.is_empty() {
        return Ok(false);
    }
    let mut rules = MoveRules::new(Adjacency::Four);
    for t in 0..map.terrains().len() {
        rules = rules.with(t as u16, Cost::Units(1));
    }
    let field = distance_map(map, Area::Mask(&room), &sources, &rules, meter)?;
    for start in starts {
        let first = outside(start, rect)
            .filter(|&q| room.get(q.x, q.y))
            .min_by(|a, b| {
                let (fa, fb) = (
                    field.get(*a).unwrap_or(f32::MAX),
                    field.get(*b).unwrap_or(f32::MAX),
                );
                fa.total_cmp(&fb)
            });
        let Some(path) = first.and_then(|q| descend(&field, q, Adjacency::Four)) else {
            return Ok(false);
        };
        let carved: Vec<Point> = path[..path.len() - 1].to_vec();
        meter.work(carved.len() as u64)?;
        for &p in &carved {
            map.save_cell(backup, p);
            map.write(p, corridor)?;
        }
        if !carved.is_empty() {
            map.notes.corridors.push(Corridor {
                cells: carved,
                region: Some(prefab.name.clone()),
            });
        }
    }
    Ok(true)
}
