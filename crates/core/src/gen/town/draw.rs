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
        let looks = Looks::new(terrains, debug);
        let mut row = vec![terrains.wall; width];
        for y in 0..height {
            let chars = &self.chars[y * width..(y + 1) * width];
            // The town wall's rows are border throughout; the other rows at their two ends.
            let border = y == 0 || y + 1 == height;
            let looks_here = if border { &looks.border } else { &looks.inner };
            // Each cell's point is written to the next free slot and kept only when the cell is
            // a street: no branch on the town's contents (a cell's kind is unpredictable).
            street.reserve(width);
            let slots = &mut street.spare_capacity_mut()[..width];
            let mut kept = 0;
            let mut mark = |x: usize, is_street: bool| {
                slots[kept].write(Point::new(x as i32, y as i32));
                kept += usize::from(is_street);
            };
            if y % 2 == 0 {
                for (x, (&c, to)) in chars.iter().zip(row.iter_mut()).enumerate() {
                    *to = looks_here[usize::from(c)];
                    mark(x, c == BLANK);
                }
            } else {
                // Characters at even columns; cell centres at odd ones, drawn from the cell's
                // status (and a street's heading), not its character.
                let cells = (y / 2) * self.grid.cols..(y / 2 + 1) * self.grid.cols;
                let centres = self.lists.statuses()[cells.clone()]
                    .iter()
                    .zip(&self.heading[cells]);
                for (x, (&status, &heading)) in (0..width).step_by(2).zip(centres) {
                    let c = chars[x];
                    row[x] = looks_here[usize::from(c)];
                    mark(x, c == BLANK);
                    let (look, is_street) = looks.centre(status, heading);
                    row[x + 1] = look;
                    mark(x + 1, is_street);
                }
                // The last column, a character on the border (its terrain follows).
                mark(width - 1, chars[width - 1] == BLANK);
            }
            if !border {
                row[0] = looks.border[usize::from(chars[0])];
                row[width - 1] = looks.border[usize::from(chars[width - 1])];
            }
            // SAFETY: the first `kept` spare slots were written above (`mark` writes a slot
            // before it may keep it).
            unsafe { street.set_len(street.len() + kept) };
            map.write_terrain_row(0, y as i32, &row)?;
        }
        // TownMaze's doors and gates are openings drawn as open doors: each room's, in order
        // (recorded with the room as it is reached), then the gates'.
        let notes_rooms = map.notes.rooms.len();
        map.notes.rooms.reserve(self.room_count());
        for room in self.rooms() {
            for &p in &room.doors {
                map.add_door(Door::new(p, DoorState::Open))?;
            }
            map.notes.rooms.push(Room {
                rect: room.rect.inset(1),
                kind: ROOM_KIND.into(),
                doors: room.doors,
            });
        }
        let gates = self.gates();
        for &p in &gates {
            map.add_door(Door::new(p, DoorState::Open))?;
        }
        let notes = &mut map.notes;
        notes.spawns.extend(gates.iter().map(|g| Spawn {
            x: g.x,
            y: g.y,
            what: GATE_SPAWN.into(),
        }));
        let drawn = Drawn {
            rooms: notes.rooms.len() - notes_rooms,
            gates: gates.len(),
            street_cells: street.len(),
        };
        notes.corridors.push(Corridor {
            cells: street,
            region: Some(STREET_REGION.into()),
        });
        Ok(drawn)
    }
}

/// The terrain each display character and cell centre of a town is drawn with: tables made
/// once a drawing, so that a cell costs a lookup and no branch.
struct Looks {
    /// A character's terrain inside the town wall, by its byte.
    inner: [TerrainId; 256],
    /// A character's terrain on the town wall (its doors are gates), by its byte.
    border: [TerrainId; 256],
    /// A cell centre's terrain, by status (list index; any other index is unused, as
    /// [`Town::status_of`] has it) and heading (in [`Heading`] order, `None` last).
    centres: [[TerrainId; 5]; 5],
}

impl Looks {
    /// The tables for a drawing with `t`, or with the debug view's cell centres.
    fn new(t: &TownTerrains, debug: Option<&DebugTerrains>) -> Looks {
        let chars = |vertical, horizontal| {
            let mut looks = [t.wall; 256];
            looks[usize::from(BLANK)] = t.street;
            looks[usize::from(VDOOR)] = vertical;
            looks[usize::from(HDOOR)] = horizontal;
            looks
        };
        const HEADINGS: [Option<Heading>; 5] = [
            Some(Heading::North),
            Some(Heading::East),
            Some(Heading::South),
            Some(Heading::West),
            None,
        ];
        Looks {
            inner: chars(t.vertical_door, t.horizontal_door),
            border: chars(t.vertical_gate, t.horizontal_gate),
            centres: std::array::from_fn(|status| {
                let status = CellStatus::from_index(status).unwrap_or(CellStatus::Unused);
                HEADINGS.map(|heading| centre_look(t, debug, status, heading))
            }),
        }
    }

    /// The terrain of a cell centre with list index `status` and `heading`, and whether the
    /// cell is a street.
    #[inline]
    fn centre(&self, status: u8, heading: Option<Heading>) -> (TerrainId, bool) {
        let status = usize::from(status).min(CellStatus::Unused.index());
        let heading = heading.map_or(4, |h| h as usize);
        (
            self.centres[status][heading],
            status == CellStatus::Street.index(),
        )
    }
}

/// The terrain drawn at the centre of a cell of `status` whose street runs `heading`.
fn centre_look(
    t: &TownTerrains,
    debug: Option<&DebugTerrains>,
    status: CellStatus,
    heading: Option<Heading>,
) -> TerrainId {
    match (status, debug) {
        (CellStatus::Street, None) => t.street,
        (CellStatus::Unused, None) => t.unused,
        (_, None) => t.floor,
        (CellStatus::Street, Some(d)) => heading.map_or(d.no_heading, |h| d.headings[h as usize]),
        (CellStatus::Isolated, Some(d)) => d.isolated,
        (CellStatus::Live, Some(d)) => d.live,
        (CellStatus::Dead, Some(d)) => d.dead,
        (CellStatus::Unused, Some(d)) => d.unused,
    }
}
