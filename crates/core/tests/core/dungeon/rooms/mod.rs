//! The rooms of step 4: every kind drawn in its panel, its walls, floor, region and annotation.

mod maze;

use crate::dungeon::test_support::{blank, render, DOOR, FLOOR, PILLAR, WALL};
use proptest::prelude::*;
use warren_core::gen::dungeon::{draw_room, RegionPicker, RoomKind, RoomLimits, RoomStyle};
use warren_core::gen::meter::Unmetered;
use warren_core::map::{priority, DoorKind, DoorState, Map, Point, Rect, FLAG_SOLID};
use warren_core::rng::Rng;

fn style() -> RoomStyle {
    RoomStyle {
        name: "hall".into(),
        floor: FLOOR,
        wall: WALL,
        door: DoorKind::uniform("door", DOOR),
        furnishing: Some(PILLAR),
    }
}

const LIMITS: RoomLimits = RoomLimits {
    min_width: 6,
    max_width: 16,
    min_height: 6,
    max_height: 12,
    life_percent: 55,
    depth: 1,
};

/// The panel used by these tests: the middle of a 96×64 map.
const PANEL: Rect = Rect::new(32, 16, 32, 32);

fn draw(kind: RoomKind, seed: u64) -> (Map, Rect) {
    draw_at_depth(kind, seed, 1)
}

fn draw_at_depth(kind: RoomKind, seed: u64, depth: u32) -> (Map, Rect) {
    let mut map = blank(96, 64);
    let limits = RoomLimits { depth, ..LIMITS };
    let r = draw_room(
        &mut map,
        &mut Rng::new(seed),
        PANEL,
        kind,
        &style(),
        &limits,
        &mut Unmetered,
    )
    .expect("valid room");
    (map, r)
}

/// Passable cells of the panel (doors included), and how many 8-connected areas they form.
fn open_areas(map: &Map) -> (Vec<Point>, usize) {
    let open: Vec<Point> = PANEL
        .cells()
        .filter(|&p| map.is_passable(p).unwrap())
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut areas = 0;
    for &p in &open {
        if seen.insert(p) {
            areas += 1;
            let mut stack = vec![p];
            while let Some(q) = stack.pop() {
                for d in warren_core::map::Dir::ALL {
                    let n = q.step(d);
                    if open.contains(&n) && seen.insert(n) {
                        stack.push(n);
                    }
                }
            }
        }
    }
    (open, areas)
}

fn check_room(kind: RoomKind, seed: u64) {
    let (mut map, floor) = draw(kind, seed);
    let pic = render(&map);
    let room = map.notes.rooms.last().expect("annotation");
    assert_eq!(room.rect, floor);
    assert!(
        PANEL.contains(Point::new(floor.x, floor.y))
            && PANEL.contains(Point::new(floor.x2(), floor.y2()))
    );
    // Nothing outside the panel changed.
    for i in 0..map.len() {
        if !PANEL.contains(map.point(i)) {
            assert_eq!(
                map.priority_cells()[i],
                0,
                "{kind:?} {seed} wrote outside\n{pic}"
            );
        }
    }
    let (open, areas) = open_areas(&map);
    assert!(!open.is_empty(), "{kind:?} {seed}: no floor\n{pic}");
    if kind != RoomKind::Destroyed {
        assert_eq!(areas, 1, "{kind:?} {seed}: floor in pieces\n{pic}");
    }
    let region = map.region_id("hall");
    for &p in &open {
        assert!(
            floor.contains(p),
            "{kind:?} {seed}: open {p:?} outside {floor:?}\n{pic}"
        );
        assert_eq!(map.region_at(p).unwrap(), region);
        // Doors keep the priority of the cell they stand on.
        assert_eq!(map.priority_at(p).unwrap(), priority::ROOM_FLOOR);
        // Enclosed: every neighbour of the floor is floor or solid room structure.
        for d in warren_core::map::Dir::ALL {
            let n = p.step(d);
            assert!(PANEL.contains(n));
            if map.is_solid(n).unwrap() {
                assert!(
                    map.priority_at(n).unwrap() >= priority::ROOM_WALL,
                    "{kind:?} {seed}: bare rock beside floor at {n:?}\n{pic}"
                );
            }
        }
    }
    // A corridor can get in: some wall beside the floor has a priority a corridor floor beats.
    let diggable = open.iter().any(|&p| {
        warren_core::map::Dir::CARDINAL.iter().any(|&d| {
            let n = p.step(d);
            map.flag_cells()[map.index(n).unwrap()] & FLAG_SOLID != 0
                && map.priority_at(n).unwrap() <= priority::ROOM_FLOOR
        })
    });
    assert!(diggable, "{kind:?} {seed}: sealed\n{pic}");
}

#[test]
fn every_kind_is_enclosed_reachable_and_inside_its_panel() {
    for name in RoomKind::NAMES {
        let kind = RoomKind::from_name(name).unwrap();
        assert_eq!(kind.name(), name);
        for seed in 0..200 {
            check_room(kind, seed);
        }
    }
    assert_eq!(RoomKind::from_name("vault"), None);
}

#[test]
fn pillars_stand_on_a_lattice_inside_pillared_rooms() {
    let (map, floor) = draw(RoomKind::Pillared, 3);
    let pillars: Vec<Point> = floor
        .cells()
        .filter(|&p| map.terrain_at(p).unwrap() == PILLAR)
        .collect();
    assert!(pillars.len() >= 4, "{}", render(&map));
    for p in pillars {
        assert_eq!((p.x - floor.x) % 2, 1, "{p:?}");
        assert_eq!((p.y - floor.y) % 2, 1, "{p:?}");
        assert_eq!(map.priority_at(p).unwrap(), priority::PILLARS);
    }
}

#[test]
fn castles_have_inner_walls_that_corridors_cannot_cut_and_doors_through_them() {
    let mut inner = 0;
    for seed in 0..20 {
        let (map, floor) = draw(RoomKind::Castle, seed);
        inner += floor
            .cells()
            .filter(|&p| {
                map.priority_at(p).unwrap() == priority::ROOM_FURNITURE && map.is_solid(p).unwrap()
            })
            .count();
        let doors = map.notes.doors.len();
        assert!(doors >= 1, "seed {seed}\n{}", render(&map));
        for d in &map.notes.doors {
            assert_eq!(map.terrain_at(d.at()).unwrap(), DOOR);
            assert_eq!(map.priority_at(d.at()).unwrap(), priority::ROOM_FLOOR);
        }
    }
    assert!(inner > 0);
}

/// Incursion's `WriteCastle` splits at `x1 + 2 + random(x2 − (x1 + 4))` (two cells from the
/// left wall to three from the right) and puts the door at `y1 + 1 + random(y2 − (y1 + 2))`
/// (one cell from the top wall to two from the bottom); likewise turned round.
#[test]
fn castle_walls_and_doors_keep_the_originals_distances_from_the_chamber_walls() {
    for seed in 0..300 {
        let (map, floor) = draw(RoomKind::Castle, seed);
        let outer = floor.inset(-1);
        let inner_wall = |p: Point| {
            map.priority_at(p).unwrap() == priority::ROOM_FURNITURE || map.is_door(p).unwrap()
        };
        // Inner walls are whole columns or rows of the chamber that holds them; check the
        // ones that run the castle's full height or width.
        for x in outer.x + 1..outer.x2() {
            let column = (outer.y + 1..outer.y2()).all(|y| inner_wall(Point::new(x, y)));
            if column {
                assert!(
                    x >= outer.x + 2 && x <= outer.x2() - 3,
                    "seed {seed}: wall at x {x}"
                );
                let door = (outer.y + 1..outer.y2())
                    .find(|&y| map.is_door(Point::new(x, y)).unwrap())
                    .expect("a door");
                assert!(door <= outer.y2() - 2, "seed {seed}: door at y {door}");
            }
        }
        for y in outer.y + 1..outer.y2() {
            let row = (outer.x + 1..outer.x2()).all(|x| inner_wall(Point::new(x, y)));
            if row {
                assert!(
                    y >= outer.y + 2 && y <= outer.y2() - 3,
                    "seed {seed}: wall at y {y}"
                );
                let door = (outer.x + 1..outer.x2())
                    .find(|&x| map.is_door(Point::new(x, y)).unwrap())
                    .expect("a door");
                assert!(door <= outer.x2() - 2, "seed {seed}: door at x {door}");
            }
        }
    }
}

#[test]
fn mazes_deeper_than_three_get_secret_doors_in_their_passages() {
    for depth in 1..=12u32 {
        for seed in 0..40 {
            let (map, _) = draw_at_depth(RoomKind::Maze, seed, depth);
            let secret: Vec<_> = map
                .notes
                .doors
                .iter()
                .filter(|d| d.state == DoorState::Secret)
                .collect();
            // Every maze gets all of them, and no two touch (the door pass would remove both).
            assert_eq!(
                secret.len(),
                depth.saturating_sub(3).min(7) as usize,
                "depth {depth} seed {seed}"
            );
            for (i, a) in secret.iter().enumerate() {
                for b in &secret[i + 1..] {
                    let (dx, dy) = ((a.x - b.x).abs(), (a.y - b.y).abs());
                    assert!(dx.max(dy) > 1, "depth {depth} seed {seed}: {a:?} {b:?}");
                }
            }
            for d in secret {
                let p = d.at();
                let wall = |dx: i32, dy: i32| {
                    let q = Point::new(p.x + dx, p.y + dy);
                    map.is_solid(q).unwrap() && !map.is_door(q).unwrap()
                };
                let across = (wall(-1, 0) && wall(1, 0)) || (wall(0, -1) && wall(0, 1));
                assert!(across, "depth {depth} seed {seed}: {p:?}\n{}", render(&map));
                assert_eq!(map.priority_at(p).unwrap(), priority::ROOM_FLOOR);
            }
        }
    }
}

/// A river crossing a maze (drawn before the rooms, above their priority) takes none of its
/// secret doors: each still goes on a passage cell of the maze's own floor.
#[test]
fn a_river_through_a_maze_takes_none_of_its_secret_doors() {
    use crate::dungeon::test_support::WATER;
    use warren_core::map::Brush;
    for seed in 0..60 {
        let mut map = blank(96, 64);
        let river = Brush::new(WATER).priority(priority::RIVER_STREAMER);
        for x in [38, 39, 47, 52, 53] {
            map.fill_rect(&Rect::new(x, 10, 1, 44), &river).unwrap();
        }
        let limits = RoomLimits {
            depth: 10,
            ..LIMITS
        };
        draw_room(
            &mut map,
            &mut Rng::new(seed),
            PANEL,
            RoomKind::Maze,
            &style(),
            &limits,
            &mut Unmetered,
        )
        .unwrap();
        let secret: Vec<Point> = map.notes.doors.iter().map(|d| d.at()).collect();
        assert_eq!(secret.len(), 7, "seed {seed}\n{}", render(&map));
        for p in secret {
            assert_eq!(
                map.priority_at(p).unwrap(),
                priority::ROOM_FLOOR,
                "seed {seed} {p:?}"
            );
        }
    }
}

#[test]
fn mazes_are_perfect() {
    for seed in 0..20 {
        let (map, floor) = draw(RoomKind::Maze, seed);
        let open: Vec<Point> = floor
            .cells()
            .filter(|&p| map.is_passable(p).unwrap())
            .collect();
        // A perfect maze on a cell lattice is a tree: edges = cells - 1 (4-neighbour).
        let cells = open
            .iter()
            .filter(|p| (p.x - floor.x) % 2 == 0 && (p.y - floor.y) % 2 == 0)
            .count();
        let passages = open.len() - cells;
        assert_eq!(passages, cells - 1, "seed {seed}\n{}", render(&map));
    }
}

#[test]
fn limits_are_checked_against_the_panel() {
    let mut bad = LIMITS;
    bad.max_width = 31;
    let e = draw_room(
        &mut blank(96, 64),
        &mut Rng::new(1),
        PANEL,
        RoomKind::Normal,
        &style(),
        &bad,
        &mut Unmetered,
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        "room_max_width is 31; valid: room_min_width (6)..=30 (the panel width less 2)"
    );
    bad = LIMITS;
    bad.min_height = 4;
    assert!(bad.validate(32, 32).is_err());
    bad = LIMITS;
    bad.life_percent = 101;
    assert!(bad.validate(32, 32).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn any_limits_give_an_enclosed_room_that_repeats_for_its_seed(
        seed in 0u64..1000,
        kind in 0usize..7,
        min_w in 5i32..=30, min_h in 5i32..=30, dw in 0i32..=25, dh in 0i32..=25,
        life in 30u32..=60,
    ) {
        let lim = RoomLimits {
            min_width: min_w, max_width: (min_w + dw).min(30),
            min_height: min_h, max_height: (min_h + dh).min(30),
            life_percent: life,
            depth: 1 + seed as u32 % 12,
        };
        let kind = RoomKind::from_name(RoomKind::NAMES[kind]).unwrap();
        let mut a = blank(96, 64);
        let mut b = blank(96, 64);
        let ra = draw_room(&mut a, &mut Rng::new(seed), PANEL, kind, &style(), &lim, &mut Unmetered).unwrap();
        let rb = draw_room(&mut b, &mut Rng::new(seed), PANEL, kind, &style(), &lim, &mut Unmetered).unwrap();
        prop_assert_eq!(ra, rb);
        prop_assert_eq!(a.terrain_cells(), b.terrain_cells());
        prop_assert!(ra.w >= 1 && ra.h >= 1);
        prop_assert!(PANEL.contains(Point::new(ra.x, ra.y)) && PANEL.contains(Point::new(ra.x2(), ra.y2())));
        prop_assert!(a.open_count() > 0);
        prop_assert_eq!(&a.notes, &b.notes);
    }
}

/// Incursion's `usedInThisLevel`: no region twice on a level while another is unused.
#[test]
fn room_regions_are_not_reused_until_all_have_been() {
    let mut rng = Rng::new(9);
    for _ in 0..100 {
        let mut picker = RegionPicker::new(vec![5.0, 1.0, 0.0, 1.0]);
        let mut counts = [0; 4];
        for round in 0..4 {
            let picks: Vec<usize> = (0..3).map(|_| picker.pick(&mut rng).unwrap()).collect();
            let mut sorted = picks.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 3], "round {round}: {picks:?}");
            for p in picks {
                counts[p] += 1;
            }
        }
        assert_eq!(counts, [4, 4, 0, 4]);
    }
    assert_eq!(RegionPicker::new(vec![0.0, 0.0]).pick(&mut rng), None);
}
