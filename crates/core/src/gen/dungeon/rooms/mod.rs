//! Step 4 (seed 003, `DrawPanel`): one room per panel, of one of seven kinds. Every kind writes
//! through priority writes (room walls at ROOM_WALL, floors at ROOM_FLOOR, pillars and rubble
//! at PILLARS, a castle's inner walls at ROOM_FURNITURE), stamps its region on every cell it
//! writes, records a room annotation (the bounding box of its floor) and leaves at least one
//! open floor cell that corridors can reach through its walls.

mod castle;
mod circular;
mod lifecave;
// reached by the crate's tests (tests/core/), not API
#[doc(hidden)]
pub mod maze;
mod paint;
mod rect;

use super::panels::LevelPanels;
use super::DungeonError;
use crate::gen::meter::Meter;
use crate::map::{DoorKind, Map, Rect, Room, TerrainId};
use crate::rng::Rng;
use paint::Paint;

/// The kinds of room a panel may hold (Incursion's `RM_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RoomKind {
    /// A walled rectangle (`RM_NORMAL`).
    Normal,
    /// An organic cave grown by a cellular automaton over the panel (`RM_LIFECAVE`).
    Lifecave,
    /// A large walled rectangle split recursively into chambers joined by doors (`RM_CASTLE`).
    Castle,
    /// A walled perfect maze (`RM_MAZE`).
    Maze,
    /// A ruined rectangle: rubble on the floor and in the broken walls (`RM_DESTROYED`).
    Destroyed,
    /// A rectangle with a grid of pillars (`RM_PILLARS`).
    Pillared,
    /// A round chamber (`RM_CIRCLE`).
    Circular,
}

impl RoomKind {
    /// Every kind's name, as region files spell it.
    pub const NAMES: [&'static str; 7] = [
        "normal",
        "lifecave",
        "castle",
        "maze",
        "destroyed",
        "pillared",
        "circular",
    ];

    /// Parses a kind name.
    pub fn from_name(name: &str) -> Option<RoomKind> {
        Some(match name {
            "normal" => RoomKind::Normal,
            "lifecave" => RoomKind::Lifecave,
            "castle" => RoomKind::Castle,
            "maze" => RoomKind::Maze,
            "destroyed" => RoomKind::Destroyed,
            "pillared" => RoomKind::Pillared,
            "circular" => RoomKind::Circular,
            _ => return None,
        })
    }

    /// The kind's name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// How a room region looks.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RoomStyle {
    /// Region name, stamped on the room's cells (tunnels look its door up by this name).
    pub name: String,
    /// Floor terrain (must be open).
    pub floor: TerrainId,
    /// Wall terrain.
    pub wall: TerrainId,
    /// Kind of door: a castle's inner doors, a maze's secret doors, and the doors tunnels make
    /// in the room's walls.
    pub door: DoorKind,
    /// Pillars of a pillared room, rubble of a destroyed one; the wall terrain when `None`.
    pub furnishing: Option<TerrainId>,
}

/// Room sizes (walls included), the lifecave's fill (Incursion's `ROOM_MINX` … and
/// `LIFE_PERCENT`) and the level's depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoomLimits {
    /// Narrowest normal room.
    pub min_width: i32,
    /// Widest normal room.
    pub max_width: i32,
    /// Shortest normal room.
    pub min_height: i32,
    /// Tallest normal room.
    pub max_height: i32,
    /// Percent of a lifecave's cells that start as wall (0..=100).
    pub life_percent: u32,
    /// The level's depth (1 = the first level): a maze deeper than 3 gets `min(7, depth − 3)`
    /// secret doors.
    pub depth: u32,
}

/// The smallest room side (walls included): three floor cells between two walls.
pub const MIN_ROOM: i32 = 5;

impl RoomLimits {
    /// Checks the limits against a panel of `panel_width × panel_height`: sizes from
    /// [`MIN_ROOM`] up to the panel less a one-cell margin on each side, min ≤ max.
    pub fn validate(&self, panel_width: i32, panel_height: i32) -> Result<(), DungeonError> {
        for (axis, lo, hi, panel) in [
            ("width", self.min_width, self.max_width, panel_width),
            ("height", self.min_height, self.max_height, panel_height),
        ] {
            let most = panel - 2;
            if !(MIN_ROOM..=most).contains(&lo) {
                return Err(DungeonError::bad(
                    format!("room_min_{axis}"),
                    lo,
                    format!("{MIN_ROOM}..={most} (the panel {axis} less 2)"),
                ));
            }
            if !(lo..=most).contains(&hi) {
                return Err(DungeonError::bad(
                    format!("room_max_{axis}"),
                    hi,
                    format!("room_min_{axis} ({lo})..={most} (the panel {axis} less 2)"),
                ));
            }
        }
        if self.life_percent > 100 {
            return Err(DungeonError::bad(
                "life_percent",
                self.life_percent,
                "0..=100",
            ));
        }
        Ok(())
    }
}

/// Chooses the room region of panel after panel by weight, never choosing a region again
/// while another with a positive weight is still unused on the level (Incursion's
/// `usedInThisLevel`); once all have been used, all are available again.
// Incursion picks uniformly among the unused regions of the chosen room type and, when none is
// left, stops offering that type; here the region carries its kind and its weight counts.
#[derive(Clone, Debug)]
pub struct RegionPicker {
    weights: Vec<f64>,
    used: Vec<bool>,
}

impl RegionPicker {
    /// A picker over regions with these weights (finite, ≥ 0).
    pub fn new(weights: Vec<f64>) -> RegionPicker {
        let used = vec![false; weights.len()];
        RegionPicker { weights, used }
    }

    /// The next region's index, or `None` when no weight is positive.
    pub fn pick(&mut self, rng: &mut Rng) -> Option<usize> {
        let unused = |w: &[f64], used: &[bool]| -> Vec<f64> {
            w.iter()
                .zip(used)
                .map(|(&w, &u)| if u { 0.0 } else { w })
                .collect()
        };
        let mut weights = unused(&self.weights, &self.used);
        if weights.iter().all(|&w| w <= 0.0) {
            self.used.fill(false);
            weights = unused(&self.weights, &self.used);
        }
        let k = rng.weighted_index(&weights)?;
        self.used[k] = true;
        Some(k)
    }
}

/// Draws a room of `kind` in `panel` and records it in `map.notes.rooms`. Returns the room's
/// annotation rectangle (the bounding box of its floor). The panel's cells are reported to
/// `meter` (a lifecave's automaton passes over them a few times).
pub fn draw_room(
    map: &mut Map,
    rng: &mut Rng,
    panel: Rect,
    kind: RoomKind,
    style: &RoomStyle,
    limits: &RoomLimits,
    meter: &mut dyn Meter,
) -> Result<Rect, DungeonError> {
    limits.validate(panel.w, panel.h)?;
    map.check_rect(&panel)?;
    let passes = if kind == RoomKind::Lifecave { 6 } else { 1 };
    meter.work(passes * panel.w.max(0) as u64 * panel.h.max(0) as u64)?;
    let paint = Paint::new(map, style);
    let (floor, drawn) = match kind {
        RoomKind::Normal => (rect::normal(map, rng, panel, &paint, limits), kind),
        RoomKind::Pillared => (rect::pillared(map, rng, panel, &paint, limits), kind),
        RoomKind::Destroyed => (rect::destroyed(map, rng, panel, &paint, limits), kind),
        RoomKind::Circular => (circular::circular(map, rng, panel, &paint, limits), kind),
        RoomKind::Castle => (castle::castle(map, rng, panel, &paint), kind),
        RoomKind::Maze => (maze::maze(map, rng, panel, &paint, limits.depth), kind),
        RoomKind::Lifecave => match lifecave::lifecave(map, rng, panel, &paint, limits) {
            Some(r) => (r, kind),
            // A cave that grew no usable floor becomes a plain room, so every panel has one.
            None => (
                rect::normal(map, rng, panel, &paint, limits),
                RoomKind::Normal,
            ),
        },
    };
    map.notes.rooms.push(Room {
        rect: floor,
        kind: drawn.name().into(),
        doors: Vec::new(),
    });
    Ok(floor)
}

/// A room region as the rooms phase chooses among them: a kind, a look and a weight.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RoomChoice {
    /// The room's shape.
    pub kind: RoomKind,
    /// Its terrains and region name.
    pub style: RoomStyle,
    /// Relative chance of being chosen (finite, ≥ 0).
    pub weight: f64,
}

/// A room [`draw_rooms`] drew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawnRoom {
    /// The panel (in panel coordinates).
    pub panel: crate::map::Point,
    /// The room's floor rectangle, as recorded.
    pub floor: Rect,
    /// Index of the choice drawn.
    pub choice: usize,
}

/// Step 4 for a whole level: a room in every panel of `level` not taken, in
/// [`Panels::all`](super::Panels::all) order, each of a region drawn by weight from `choices`
/// by a [`RegionPicker`] (no region again while another is unused on the level, as
/// Incursion's `usedInThisLevel`). Stops early when no choice has a positive weight. Returns the
/// rooms drawn, in order; each is also recorded in `map.notes.rooms` (a lifecave that grew no
/// floor is recorded as the plain room drawn instead).
pub fn draw_rooms(
    map: &mut Map,
    rng: &mut Rng,
    level: &LevelPanels,
    choices: &[&RoomChoice],
    limits: &RoomLimits,
    meter: &mut dyn Meter,
) -> Result<Vec<DrawnRoom>, DungeonError> {
    let mut picker = RegionPicker::new(choices.iter().map(|c| c.weight).collect());
    let mut drawn = Vec::new();
    for p in level.free_panels() {
        let Some(k) = picker.pick(rng) else {
            break;
        };
        let c = choices[k];
        let rect = level.panels.rect(p);
        let floor = draw_room(map, rng, rect, c.kind, &c.style, limits, meter)?;
        drawn.push(DrawnRoom {
            panel: p,
            floor,
            choice: k,
        });
    }
    Ok(drawn)
}
