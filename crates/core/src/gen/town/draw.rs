//! Drawing a town onto a [`Map`]: every display character becomes a terrain, and the map's
//! annotations record the rooms with their doors, the open gates and the street cells.
//!
//! The town's top-left character lands on the map's (0, 0) and the whole town is written with
//! force, because its outer wall is usually the map's edge.

use super::grid::{Heading, BLANK, HDOOR, VDOOR};
use super::{CellStatus, Town, TownError};
use crate::gen::meter::Meter;
use crate::map::{
    Brush, Corridor, Door, DoorState, Map, MapError, Point, Rect, Room, Spawn, TerrainId,
};

/// The terrains a town is drawn with (the `[town]` region section, resolved to ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
        let mut street = Vec::new();
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
            write_row(map, y, &row)?;
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

/// Writes one row of terrains from x = 0, a run of equal terrains at a time.
fn write_row(map: &mut Map, y: usize, row: &[TerrainId]) -> Result<(), MapError> {
    let mut start = 0;
    while start < row.len() {
        let terrain = row[start];
        let len = row[start..].iter().take_while(|&&t| t == terrain).count();
        let rect = Rect::new(start as i32, y as i32, len as i32, 1);
        map.fill_rect(&rect, &Brush::new(terrain).forced())?;
        start += len;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::meter::Unmetered;
    use crate::gen::town::TownParams;
    use crate::map::{Rgb, Terrain, TerrainTable};
    use crate::rng::Rng;
    use proptest::prelude::*;
    use std::sync::Arc;

    /// Every terrain a town draws with, each with its own glyph: wall, vertical and horizontal
    /// door, vertical and horizontal gate, street, floor, unused, then the debug view's nine.
    const GLYPHS: &str = "#|-!= .@ILDU^>v<X";

    fn terrains() -> (TownTerrains, DebugTerrains) {
        (
            TownTerrains {
                wall: 0,
                vertical_door: 1,
                horizontal_door: 2,
                vertical_gate: 3,
                horizontal_gate: 4,
                street: 5,
                floor: 6,
                unused: 7,
            },
            DebugTerrains {
                isolated: 8,
                live: 9,
                dead: 10,
                unused: 11,
                headings: [12, 13, 14, 15],
                no_heading: 16,
            },
        )
    }

    fn map(width: usize, height: usize) -> Map {
        let table = GLYPHS
            .chars()
            .enumerate()
            .map(|(i, glyph)| Terrain {
                name: format!("t{i}"),
                glyph,
                color: Rgb(0, 0, 0),
                solid: matches!(glyph, '#' | '@' | 'U'),
                hazard: false,
                move_cost: None,
            })
            .collect();
        Map::new(
            width as i64,
            height as i64,
            0,
            Arc::new(TerrainTable::new(table)),
        )
        .unwrap()
    }

    fn glyphs(map: &Map) -> String {
        crate::render::text::ascii(&crate::render::View::terrain(map))
    }

    /// What the drawing must look like: the town's own characters with room centres as floor,
    /// unused centres as unused, doors in the town wall as gates.
    fn expected(t: &Town, debug: bool) -> String {
        let text = if debug { t.render_debug() } else { t.render() };
        let (w, h) = (t.width(), t.height());
        text.lines()
            .enumerate()
            .flat_map(|(y, line)| {
                let chars: Vec<char> = line.chars().collect();
                (0..w)
                    .map(move |x| {
                        let border = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
                        let centre = x % 2 == 1 && y % 2 == 1;
                        let status = centre.then(|| t.status(y / 2, x / 2).unwrap());
                        match (chars[x], border, status) {
                            ('|', true, _) => '!',
                            ('-', true, _) => '=',
                            (' ', _, Some(s)) if s != CellStatus::Street => '.',
                            ('#', _, Some(CellStatus::Unused)) => '@',
                            (c, ..) => c,
                        }
                    })
                    .chain(std::iter::once('\n'))
                    .collect::<Vec<char>>()
            })
            .collect()
    }

    fn town(p: &TownParams, seed: u64) -> Town {
        Town::generate(p, &mut Rng::new(seed), &mut Unmetered).unwrap()
    }

    #[test]
    fn every_character_becomes_its_terrain() {
        let (t, _) = terrains();
        let town = town(
            &TownParams {
                unused: 1,
                ..TownParams::default()
            },
            3,
        );
        let mut m = map(77, 23);
        town.draw(&mut m, &t, None, &mut Unmetered).unwrap();
        let drawn = glyphs(&m);
        assert_eq!(drawn, expected(&town, false));
        assert_eq!(drawn.matches('@').count(), 5, "four corners and one block");
        assert_eq!(drawn.matches(['!', '=']).count(), 2, "leftgates");
    }

    #[test]
    fn the_debug_view_shows_statuses_and_directions_mid_run() {
        let (t, d) = terrains();
        let mut town = Town::new(&TownParams::default(), &mut Unmetered).unwrap();
        let mut rng = Rng::new(9);
        town.make_gates(&mut rng, &mut Unmetered).unwrap();
        town.make_street(&mut rng, 5, 20, Some(Heading::West))
            .unwrap();
        let mut m = map(77, 23);
        town.draw(&mut m, &t, Some(&d), &mut Unmetered).unwrap();
        let drawn = glyphs(&m);
        assert_eq!(drawn, expected(&town, true));
        for letter in ['I', 'L', 'D', 'U'] {
            assert!(drawn.contains(letter), "{letter} missing:\n{drawn}");
        }
        assert!(drawn.contains(['^', '>', 'v', '<']));
    }

    #[test]
    fn rooms_doors_gates_and_streets_are_recorded() {
        let (t, _) = terrains();
        let p = TownParams::default();
        let town = town(&p, 11);
        let mut m = map(77, 23);
        let drawn = town.draw(&mut m, &t, None, &mut Unmetered).unwrap();
        let notes = &m.notes;
        assert_eq!(drawn.rooms, town.count(CellStatus::Dead));
        assert_eq!(notes.rooms.len(), drawn.rooms);
        assert_eq!(drawn.gates as i64, p.leftgates);
        let mut doors = Vec::new();
        for room in &notes.rooms {
            assert_eq!((room.rect.w, room.rect.h, &*room.kind), (1, 1, ROOM_KIND));
            assert_eq!(room.doors.len(), 1, "{room:?}");
            let (d, c) = (room.doors[0], room.rect.center());
            assert_eq!(
                (d.x - c.x).abs() + (d.y - c.y).abs(),
                1,
                "door beside the floor"
            );
            doors.push(d);
        }
        let gates: Vec<Point> = notes.spawns.iter().map(|s| Point::new(s.x, s.y)).collect();
        assert!(notes.spawns.iter().all(|s| s.what == GATE_SPAWN));
        doors.extend(&gates);
        let recorded: Vec<Point> = notes.doors.iter().map(|d| d.at()).collect();
        assert_eq!(recorded, doors, "room doors, then gates");
        assert!(notes.doors.iter().all(|d| d.state == DoorState::Open));
        let [street] = &notes.corridors[..] else {
            panic!("one street corridor");
        };
        assert_eq!(street.region.as_deref(), Some(STREET_REGION));
        assert_eq!(street.cells.len(), drawn.street_cells);
        let text = glyphs(&m);
        let rows: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
        let spaces = text.matches(' ').count();
        assert_eq!(
            spaces, drawn.street_cells,
            "every street cell and nothing else"
        );
        assert!(street
            .cells
            .iter()
            .all(|p| rows[p.y as usize][p.x as usize] == b' '));
    }

    #[test]
    fn a_map_smaller_than_the_town_is_refused_untouched() {
        let (t, _) = terrains();
        let town = town(&TownParams::default(), 1);
        let mut m = map(76, 23);
        let before = glyphs(&m);
        let e = town.draw(&mut m, &t, None, &mut Unmetered).unwrap_err();
        assert!(
            e.to_string().contains("(76, 22) is outside the 76×23 map"),
            "{e}"
        );
        assert_eq!(glyphs(&m), before);
        assert!(m.notes.rooms.is_empty() && m.notes.corridors.is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn any_town_draws_exactly_its_characters(
            half_h in 5i64..20,
            half_w in 5i64..30,
            seed in 0u64..1_000_000,
            straightness in 0i64..=998,
            debug in proptest::bool::ANY,
        ) {
            let (h, w) = (2 * half_h + 1, 2 * half_w + 1);
            let p = TownParams {
                height: h,
                width: w,
                gates: TownParams::max_gates(h, w).min(3),
                leftgates: TownParams::max_gates(h, w).min(1),
                courts: TownParams::max_courts(h, w).min(2),
                unused: TownParams::max_unused(h, w),
                straightness,
            };
            prop_assume!(p.validate().is_ok());
            let town = town(&p, seed);
            let (t, d) = terrains();
            // A map larger than the town: only the town's corner is drawn.
            let mut m = map(w as usize + 3, h as usize + 2);
            town.draw(&mut m, &t, debug.then_some(&d), &mut Unmetered).unwrap();
            let drawn: String = glyphs(&m)
                .lines()
                .take(h as usize)
                .map(|l| format!("{}\n", &l[..w as usize]))
                .collect();
            prop_assert_eq!(drawn, expected(&town, debug));
        }
    }
}
