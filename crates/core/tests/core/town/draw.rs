//! Unit tests of drawing a town onto a map.

use crate::common::terrain;
use proptest::prelude::*;
use std::sync::Arc;
use warren_core::gen::meter::Unmetered;
use warren_core::gen::town::{
    CellStatus, DebugTerrains, Heading, Town, TownParams, TownTerrains, GATE_SPAWN, ROOM_KIND,
    STREET_REGION,
};
use warren_core::map::{DoorState, Map, Point, TerrainTable};
use warren_core::rng::Rng;

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
        .map(|(i, glyph)| terrain(format!("t{i}"), glyph, matches!(glyph, '#' | '@' | 'U')))
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
    warren_core::render::text::ascii(&warren_core::render::View::terrain(map))
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
        prop_assert_eq!(&drawn, &expected(&town, debug));
        // The street corridor: every street position, row by row (passages are blank, street
        // centres blank or, in the debug view, a heading).
        let streets: Vec<Point> = drawn
            .lines()
            .enumerate()
            .flat_map(|(y, line)| {
                line.chars()
                    .enumerate()
                    .filter(|&(_, c)| " ^>v<X".contains(c))
                    .map(move |(x, _)| Point::new(x as i32, y as i32))
            })
            .collect();
        prop_assert_eq!(&m.notes.corridors[0].cells, &streets);
    }
}
