//! Drawing a town onto a [`Map`]: every display character becomes a terrain, and the map's
//! annotations record the rooms with their doors, the open gates and the street cells.
//!
//! The town's top-left character lands on the map's (0, 0) and the whole town is written with
//! force, because its outer wall is usually the map's edge.

use super::grid::{Heading, BLANK, HDOOR, VDOOR};
use super::{CellStatus, Town, TownError};
use crate::gen::meter::Meter;
use crate::map::{Corridor, Door, DoorState, Map, Point, Room, Spawn, TerrainId};

/// The terrains a town is drawn with (the `[town]` region section, resolved to ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TownTerrains {
    /// Walls, closed doors and closed gates (`#`).
    pub wall: TerrainId,
    /// A door in a vertical wall (`|`).
    pub vertical_door: TerrainId,
    /// A door in a horizontal wall (`-`).
    pub horizontal_door: TerrainId,
    /// An open gate in the west or east town wall.
    pub vertical_gate: TerrainId,
    /// An open gate in the north or south town wall.
    pub horizontal_gate: TerrainId,
    /// Street cells, open walls between them and removed pillars.
    pub street: TerrainId,
    /// The centre of a room cell.
    pub floor: TerrainId,
    /// The centre of an UNUSED cell.
    pub unused: TerrainId,
}

/// The debug view's terrains (the `[town.debug]` region section, resolved to ids), drawn at
/// cell centres: a status letter for rooms and unused cells, a direction for streets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DebugTerrains {
    /// An ISOLATED cell (`I`).
    pub isolated: TerrainId,
    /// A LIVE cell (`L`).
    pub live: TerrainId,
    /// A DEAD cell (`D`).
    pub dead: TerrainId,
    /// An UNUSED cell (`U`).
    pub unused: TerrainId,
    /// Streets running north, east, south and west (`^ > v <`), in [`Heading`] order.
    pub headings: [TerrainId; 4],
    /// A street with no direction (`X`).
    pub no_heading: TerrainId,
}

/// What [`Town::draw`] recorded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drawn {
    /// Rooms added to `map.notes.rooms`.
    pub rooms: usize,
    /// Open gates.
    pub gates: usize,
    /// Street cells in the street corridor.
    pub street_cells: usize,
}

/// The `kind` of the rooms a town records.
pub const ROOM_KIND: &str = "room";
/// The `what` of the spawn recorded at every open gate.
pub const GATE_SPAWN: &str = "gate";
/// The `region` of the corridor that lists every street cell.
pub const STREET_REGION: &str = "street";

impl Town {
    /// Draws the town onto `map` with `terrains`, or with the debug view's cell centres when
    /// `debug` is given, and records it in `map.notes`:
    ///
    /// - one room (kind [`ROOM_KIND`]) per room cell, row by row: its rectangle is the 1 × 1
    ///   floor at the cell's centre, its `doors` the open doors in its walls (one, once doors are
    ///   closed); each door is also added to `doors`, in state open;
    /// - every open gate, row-major, in `doors` (after the rooms' doors, open) and as a spawn
    ///   [`GATE_SPAWN`];
    /// - one corridor (region [`STREET_REGION`]) with every street display cell, row-major.
    ///
    /// Fails without writing anything if the map is smaller than the town. The cells drawn
    /// are reported to `meter`.
    pub fn draw(
        &self,
        map: &mut Map,
        terrains: &TownTerrains,
        debug: Option<&DebugTerrains>,
        meter: &mut dyn Meter,
    ) -> Result<Drawn, TownError> {
        let (width, height) = (self.grid.width(), self.grid.height());
        map.locate(width as i64 - 1, height as i64 - 1)?;
        meter.work(2 * (width * height) as u64)?;
        // Every street cell's centre, the open walls between them and the pillars taken out
        // among them: up to four a street cell, about 2.2 in the towns measured; reserved for
        // three, so that the list seldom grows.
        let mut street = Vec::with_capacity(3 * self.lists.size(super::STREET));
        let mut row = Vec::with_capacity(width);
        for y in 0..height {
            row.clear();
            for x in 0..width {
                let part = self.part(x, y);
                if part.is_street() {
                    street.push(Point::new(x as i32, y as i32));
                }
                row.push(part.terrain(terrains, debug));
            }
            map.write_terrain_row(0, y as i32, &row)?;
        }
        let layout = self.layout();
        // TownMaze's doors and gates are openings drawn as open doors.
        let doors = layout.rooms.iter().flat_map(|r| &r.doors);
        for &p in doors.chain(&layout.gates) {
            map.add_door(Door::new(p, DoorState::Open))?;
        }
        let notes = &mut map.notes;
        notes.spawns.extend(layout.gates.iter().map(|g| Spawn {
            x: g.x,
            y: g.y,
            what: GATE_SPAWN.into(),
        }));
        let drawn = Drawn {
            rooms: layout.rooms.len(),
            gates: layout.gates.len(),
            street_cells: street.len(),
        };
        notes.rooms.extend(layout.rooms.into_iter().map(|r| Room {
            rect: r.rect.inset(1),
            kind: ROOM_KIND.into(),
            doors: r.doors,
        }));
        notes.corridors.push(Corridor {
            cells: street,
            region: Some(STREET_REGION.into()),
        });
        Ok(drawn)
    }

    /// What stands at display position (`x`, `y`).
    fn part(&self, x: usize, y: usize) -> Part {
        let (width, height) = (self.grid.width(), self.grid.height());
        if x % 2 == 1 && y % 2 == 1 {
            let cell = (y / 2) * self.grid.cols + x / 2;
            return Part::Centre(self.status_of(cell), self.heading[cell]);
        }
        let on_border = x == 0 || y == 0 || x + 1 == width || y + 1 == height;
        match (self.chars[y * width + x], on_border) {
            (BLANK, _) => Part::Passage,
            (VDOOR, false) => Part::VerticalDoor,
            (HDOOR, false) => Part::HorizontalDoor,
            (VDOOR, true) => Part::VerticalGate,
            (HDOOR, true) => Part::HorizontalGate,
            _ => Part::Wall,
        }
    }
}

/// One display position of a town.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    /// A wall, or a closed door or gate.
    Wall,
    /// An open door in a vertical wall.
    VerticalDoor,
    /// An open door in a horizontal wall.
    HorizontalDoor,
    /// An open gate in the west or east town wall.
    VerticalGate,
    /// An open gate in the north or south town wall.
    HorizontalGate,
    /// An open wall between two streets, or a removed pillar.
    Passage,
    /// A cell centre: the cell's status and, for a street, its direction.
    Centre(CellStatus, Option<Heading>),
}

impl Part {
    /// Whether this position is part of the street network.
    fn is_street(self) -> bool {
        matches!(self, Part::Passage | Part::Centre(CellStatus::Street, _))
    }

    /// The terrain drawn here.
    fn terrain(self, t: &TownTerrains, debug: Option<&DebugTerrains>) -> TerrainId {
        match (self, debug) {
            (Part::Wall, _) => t.wall,
            (Part::VerticalDoor, _) => t.vertical_door,
            (Part::HorizontalDoor, _) => t.horizontal_door,
            (Part::VerticalGate, _) => t.vertical_gate,
            (Part::HorizontalGate, _) => t.horizontal_gate,
            (Part::Passage, _) | (Part::Centre(CellStatus::Street, _), None) => t.street,
            (Part::Centre(CellStatus::Unused, _), None) => t.unused,
            (Part::Centre(_, _), None) => t.floor,
            (Part::Centre(CellStatus::Street, Some(h)), Some(d)) => d.headings[h as usize],
            (Part::Centre(CellStatus::Street, None), Some(d)) => d.no_heading,
            (Part::Centre(CellStatus::Isolated, _), Some(d)) => d.isolated,
            (Part::Centre(CellStatus::Live, _), Some(d)) => d.live,
            (Part::Centre(CellStatus::Dead, _), Some(d)) => d.dead,
            (Part::Centre(CellStatus::Unused, _), Some(d)) => d.unused,
        }
    }
}
