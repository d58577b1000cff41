use crate::common::ascii::{grid_map, put_door, terrains, CHASM, DOOR, FLOOR, ROCK};
use warren_core::gen::area::Area;
use warren_core::gen::bsp::{
    interior, rooms, BspInterior, BspRooms, InteriorBrushes, RoomBrushes, Split,
};
use warren_core::gen::connectivity::components;
use warren_core::gen::meter::{Meter, Stopped, Tally, Unmetered};
use warren_core::map::{Adjacency, Door, DoorState, KindName, Room};
use warren_core::map::{Brush, Map, Point, Rect};
use warren_core::rng::Rng;

/// Over 1,000 seeds and sizes: BSP rooms lie inside the area, never overlap or touch (two
/// cells apart at least), keep their sides within `min_room..=max_room`, are all connected
/// by the corridors, and the same seed gives the same map.
#[test]
fn bsp_rooms_never_overlap_and_are_connected() {
    let mut rng = Rng::new(31);
    for seed in 0..1000 {
        let (w, h) = (rng.range(6, 90) as usize, rng.range(6, 60) as usize);
        let min_leaf = rng.range(3, 12) as i32;
        let min_room = rng.range(1, (min_leaf - 2) as i64) as i32;
        let max_room = rng.percent(50).then(|| min_room + rng.range(0, 4) as i32);
        let options = BspRooms {
            min_leaf,
            min_room,
            max_room,
        };
        let area = Rect::new(1, 1, w as i32 - 2, h as i32 - 2);
        let run = |seed| {
            let mut map = grid_map(w, h, &vec![true; w * h]);
            let floor = Brush::new(FLOOR);
            let brushes = RoomBrushes {
                floor: &floor,
                corridor: &floor,
            };
            let placed = rooms(
                &mut map,
                Area::Rect(area),
                &options,
                &mut Rng::new(seed),
                brushes,
                &mut Unmetered,
            )
            .unwrap();
            (map, placed)
        };
        let (map, placed) = run(seed);
        assert_eq!(map.terrain_cells(), run(seed).0.terrain_cells());
        assert_eq!(map.notes.rooms.len(), placed.len());
        for (i, a) in placed.iter().enumerate() {
            assert!(
                area.contains(Point::new(a.x, a.y)) && area.contains(Point::new(a.x2(), a.y2()))
            );
            let largest = max_room.unwrap_or(i32::MAX);
            for side in [a.w, a.h] {
                assert!((min_room..=largest).contains(&side), "seed {seed}: {a:?}");
            }
            for b in &placed[i + 1..] {
                assert!(!a.intersects(b, 1), "seed {seed}: {a:?} and {b:?}");
            }
        }
        if !placed.is_empty() {
            assert_eq!(components(&map, Adjacency::Four).len(), 1, "seed {seed}");
        }
    }
}

/// The BSP interior of `area` with `options`, drawn from `seed`.
fn interior_of(
    map: &mut Map,
    area: Rect,
    options: BspInterior,
    seed: u64,
    brushes: InteriorBrushes<'_>,
) -> Vec<Rect> {
    let (a, m) = (Area::Rect(area), &mut Unmetered);
    interior(map, a, &options, &mut Rng::new(seed), brushes, m).unwrap()
}

/// Either cutting rule, drawn from `rng`.
fn drawn_split(rng: &mut Rng) -> Split {
    [Split::Longer, Split::Halves][rng.below(2) as usize]
}

/// Over 1,000 seeds: BSP interior rooms tile the area but for the walls on the cuts, every
/// room is reached, and the doors form a tree (as many as rooms less one, one area).
#[test]
fn bsp_interiors_tile_the_area_joined_by_a_tree_of_doors() {
    let mut rng = Rng::new(37);
    for seed in 0..1000 {
        let (w, h) = (rng.range(4, 60) as usize, rng.range(4, 40) as usize);
        let options = BspInterior {
            min_room: rng.range(2, 8) as i32,
            split: drawn_split(&mut rng),
        };
        let area = Rect::new(1, 1, w as i32 - 2, h as i32 - 2);
        let mut map = grid_map(w, h, &vec![true; w * h]);
        let (floor, wall, door) = (Brush::new(FLOOR), Brush::new(ROCK), Brush::new(DOOR));
        let brushes = InteriorBrushes {
            floor: &floor,
            wall: &wall,
            door: Some(&door),
        };
        let placed = interior_of(&mut map, area, options, seed, brushes);
        assert_eq!(map.notes.doors.len() + 1, placed.len(), "seed {seed}");
        assert_eq!(components(&map, Adjacency::Four).len(), 1, "seed {seed}");
        for (i, a) in placed.iter().enumerate() {
            assert!(a.w >= options.min_room.min(area.w) && a.h >= options.min_room.min(area.h));
            for b in &placed[i + 1..] {
                assert!(!a.intersects(b, 0), "seed {seed}");
            }
        }
        let floor_cells: i32 = placed.iter().map(|r| r.w * r.h).sum();
        let open = map.passable_count() as i32;
        assert_eq!(
            open,
            floor_cells + map.notes.doors.len() as i32,
            "seed {seed}"
        );
    }
}

/// Over 1,000 seeds, with ranked brushes over cells of higher and lower priority: the
/// interior writes what filling its rectangle with wall and then each room with floor, one
/// room at a time, writes; only the doors (one cell of each cut) differ.
#[test]
fn bsp_interiors_write_like_room_by_room_fills() {
    let mut rng = Rng::new(41);
    for seed in 0..1000 {
        let (w, h) = (rng.range(4, 90) as usize, rng.range(4, 40) as usize);
        let mut map = grid_map(w, h, &vec![true; w * h]);
        for i in 0..w * h {
            let p = rng.below(4) as u8 * 20;
            map.write_index(i, &Brush::new(FLOOR).priority(p).forced());
        }
        let before = map.clone();
        let floor = Brush::new(FLOOR).priority(rng.below(4) as u8 * 20);
        let wall = Brush::new(ROCK).priority(rng.below(4) as u8 * 20);
        let brushes = InteriorBrushes {
            floor: &floor,
            wall: &wall,
            door: None,
        };
        let area = Rect::new(1, 1, w as i32 - 2, h as i32 - 2);
        let options = BspInterior {
            min_room: rng.range(2, 8) as i32,
            split: drawn_split(&mut rng),
        };
        let rooms = interior_of(&mut map, area, options, seed, brushes);
        let mut by_rooms = before;
        by_rooms.fill_rect(&area, &wall).unwrap();
        for r in &rooms {
            by_rooms.fill_rect(r, &floor).unwrap();
        }
        let differ = (0..w * h)
            .filter(|&i| {
                let cell = |m: &Map| {
                    let flags = m.flag_cells()[i];
                    (m.terrain_cells()[i], flags, m.priority_cells()[i])
                };
                cell(&map) != cell(&by_rooms)
            })
            .count();
        assert!(differ < rooms.len(), "seed {seed}: {differ} cells differ");
    }
}

/// A cut's wall in the oracle: its first cell, the step from a cell to the next, its length.
type OracleWall = (Point, Point, i32);

/// The oracle's cut: BSP interior's rules written plainly, its rooms and walls listed in
/// preorder. A cut leaves at least `min` cells on either side of a one-cell wall. `Longer`: a
/// piece much longer one way is cut across its length, else the direction is drawn, and the
/// place is drawn. `Halves`: the direction is drawn, the wall goes in the middle (the first
/// half the smaller), and a piece is cut only while the side its parent cut (`halved`) is
/// long enough to cut again and so is the drawn side.
fn oracle_cut(
    r: Rect,
    (min, split, halved): (i32, Split, i32),
    rng: &mut Rng,
    rooms: &mut Vec<Rect>,
    walls: &mut Vec<OracleWall>,
) {
    let (can_x, can_y) = (r.w > 2 * min, r.h > 2 * min);
    let vertical = match (split, can_x, can_y) {
        (Split::Halves, ..) if halved <= 2 * min => return rooms.push(r),
        (Split::Halves, ..) => rng.percent(50),
        (Split::Longer, false, false) => return rooms.push(r),
        (Split::Longer, true, false) => true,
        (Split::Longer, false, true) => false,
        _ if r.w * 4 > r.h * 5 => true,
        _ if r.h * 4 > r.w * 5 => false,
        _ => rng.percent(50),
    };
    let len = if vertical { r.w } else { r.h };
    if len <= 2 * min {
        return rooms.push(r);
    }
    let cut = match split {
        Split::Longer => rng.range(min as i64, (len - min - 1) as i64) as i32,
        Split::Halves => (len - 1) / 2,
    };
    let (a, b) = if vertical {
        walls.push((Point::new(r.x + cut, r.y), Point::new(0, 1), r.h));
        let a = Rect::new(r.x, r.y, cut, r.h);
        (a, Rect::new(r.x + cut + 1, r.y, r.w - cut - 1, r.h))
    } else {
        walls.push((Point::new(r.x, r.y + cut), Point::new(1, 0), r.w));
        let a = Rect::new(r.x, r.y, r.w, cut);
        (a, Rect::new(r.x, r.y + cut + 1, r.w, r.h - cut - 1))
    };
    let side = |r: Rect| if vertical { r.w } else { r.h };
    oracle_cut(a, (min, split, side(a)), rng, rooms, walls);
    oracle_cut(b, (min, split, side(b)), rng, rooms, walls);
}

/// BSP interior as it was first written, the oracle of the fast one: the wall over the whole
/// rectangle, the floor room by room, then for each wall in preorder a door drawn among the
/// wall's cells whose two side cells the map says are passable, charging the meter as
/// [`interior`] does.
fn oracle_interior(
    map: &mut Map,
    rect: Rect,
    options: BspInterior,
    rng: &mut Rng,
    brushes: InteriorBrushes<'_>,
    meter: &mut dyn Meter,
) -> Result<Vec<Rect>, Stopped> {
    let (mut rooms, mut walls) = (Vec::new(), Vec::new());
    let cutting = (options.min_room, options.split, i32::MAX);
    oracle_cut(rect, cutting, rng, &mut rooms, &mut walls);
    meter.work((rooms.len() + walls.len()) as u64 + (rect.w * rect.h) as u64)?;
    map.fill_rect(&rect, brushes.wall).unwrap();
    for r in &rooms {
        map.fill_rect(r, brushes.floor).unwrap();
        map.notes.rooms.push(Room {
            rect: *r,
            kind: KindName::Fixed("interior"),
            doors: Vec::new(),
        });
    }
    for &(first, step, len) in &walls {
        let cell = |k: i32| Point::new(first.x + k * step.x, first.y + k * step.y);
        let open = |p: Point| map.is_passable(p) == Ok(true);
        let (dx, dy) = (step.y, step.x);
        let candidates: Vec<Point> = (0..len)
            .map(cell)
            .filter(|p| {
                open(Point::new(p.x - dx, p.y - dy)) && open(Point::new(p.x + dx, p.y + dy))
            })
            .collect();
        meter.work(candidates.len() as u64 + 1)?;
        let Some(&p) = candidates.get(rng.below(candidates.len() as u64) as usize) else {
            continue;
        };
        match brushes.door {
            Some(door) => {
                map.write(p, door).unwrap();
                map.add_door(Door::new(p, DoorState::Closed)).unwrap();
            }
            None => {
                map.write(p, brushes.floor).unwrap();
            }
        }
    }
    Ok(rooms)
}

/// A brush of `terrain` drawn from `rng`: ranked or not, forced or not, stamping a region or
/// not.
fn drawn_brush(terrain: u16, rng: &mut Rng) -> Brush {
    let mut brush = Brush::new(terrain);
    if rng.percent(50) {
        brush = brush.priority(rng.below(4) as u8 * 20);
    }
    if rng.percent(20) {
        brush = brush.forced();
    }
    if rng.percent(20) {
        brush = brush.region(1 + rng.below(3) as u16);
    }
    brush
}

/// A map `w × h` of rock, floor and chasm at random priorities, with a few doors already
/// standing, drawn from `rng`.
fn cluttered_map(w: usize, h: usize, rng: &mut Rng) -> Map {
    let mut map = grid_map(w, h, &vec![true; w * h]);
    for i in 0..w * h {
        let terrain = [ROCK, ROCK, FLOOR, CHASM][rng.below(4) as usize];
        let p = rng.below(4) as u8 * 20;
        map.write_index(i, &Brush::new(terrain).priority(p).forced());
        if rng.percent(3) {
            put_door(&mut map, i);
        }
    }
    map
}

/// Over 3,000 draws of map, area, options, brushes and meter: [`interior`] makes exactly the
/// map of [`oracle_interior`] (every plane, the notes), returns the same rooms or stops at the
/// same point, charges the same work and leaves the generator at the same draw. The draws
/// favour the plain case (floor brushes that write every room cell passable, solid walls) and
/// mix in what departs from it: areas on the map's edge, ranked floors over higher cells,
/// hazard floors, passable walls, doors already standing, meters that stop.
#[test]
fn bsp_interiors_match_the_oracle() {
    let mut rng = Rng::new(43);
    for seed in 0..3000 {
        let (w, h) = (rng.range(3, 70) as usize, rng.range(3, 50) as usize);
        let mut map = if rng.percent(50) {
            grid_map(w, h, &vec![true; w * h])
        } else {
            cluttered_map(w, h, &mut rng)
        };
        let (x, y) = (rng.range(0, 2) as i32, rng.range(0, 2) as i32);
        let rect = match rng.below(3) {
            0 => Rect::new(0, 0, w as i32, h as i32),
            1 => Rect::new(1, 1, w as i32 - 2, h as i32 - 2),
            _ => Rect::new(
                x,
                y,
                rng.range(1, w as i64 - x as i64) as i32,
                rng.range(1, h as i64 - y as i64) as i32,
            ),
        };
        let area = if rect == Rect::new(0, 0, w as i32, h as i32) && rng.percent(50) {
            Area::Map
        } else {
            Area::Rect(rect)
        };
        let min_room = if rng.percent(80) {
            rng.range(2, 8)
        } else {
            rng.range(2, 30)
        } as i32;
        let floor_terrain = [FLOOR, FLOOR, FLOOR, CHASM][rng.below(4) as usize];
        let floor = drawn_brush(floor_terrain, &mut rng);
        let wall = drawn_brush([ROCK, ROCK, ROCK, FLOOR][rng.below(4) as usize], &mut rng);
        let door = drawn_brush(DOOR, &mut rng);
        let brushes = InteriorBrushes {
            floor: &floor,
            wall: &wall,
            door: rng.percent(50).then_some(&door),
        };
        let limit = if rng.percent(80) {
            u64::MAX
        } else {
            rng.below((w * h + w * h / 4) as u64)
        };
        let mut oracle_map = map.clone();
        let (mut meter, mut oracle_meter) = (Tally::with_limit(limit), Tally::with_limit(limit));
        let options = BspInterior {
            min_room,
            split: drawn_split(&mut rng),
        };
        let case = format!("seed {seed}: {w}x{h} {rect:?} {options:?} {brushes:?}");
        let (maps, areas) = ((&mut map, &mut oracle_map), (area, rect));
        let meters = (
            &mut meter as &mut dyn Meter,
            &mut oracle_meter as &mut dyn Meter,
        );
        both_alike(maps, areas, (options, brushes), seed, meters, &case);
        assert_eq!(meter.cells, oracle_meter.cells, "{case}");
    }
}

/// Runs [`interior`] on the first map and [`oracle_interior`] on the second, over `area` (whose
/// rectangle is `rect`), each drawing from `seed` and charging its meter, and asserts that they
/// return the same, leave the generator at the same draw and make the same map.
fn both_alike(
    (map, oracle_map): (&mut Map, &mut Map),
    (area, rect): (Area<'_>, Rect),
    (options, brushes): (BspInterior, InteriorBrushes<'_>),
    seed: u64,
    (meter, oracle_meter): (&mut dyn Meter, &mut dyn Meter),
    case: &str,
) {
    let (mut drawn, mut oracle_drawn) = (Rng::new(seed), Rng::new(seed));
    let made = interior(map, area, &options, &mut drawn, brushes, meter);
    let wanted = oracle_interior(
        oracle_map,
        rect,
        options,
        &mut oracle_drawn,
        brushes,
        oracle_meter,
    );
    assert_eq!(made.ok(), wanted.ok(), "{case}");
    assert_eq!(drawn.next_u64(), oracle_drawn.next_u64(), "{case}");
    same_maps(map, oracle_map, case);
}

/// Asserts that two maps hold the same planes and notes.
fn same_maps(map: &Map, other: &Map, case: &str) {
    assert_eq!(map.terrain_cells(), other.terrain_cells(), "{case}");
    assert_eq!(map.flag_cells(), other.flag_cells(), "{case}");
    assert_eq!(map.priority_cells(), other.priority_cells(), "{case}");
    assert_eq!(map.region_cells(), other.region_cells(), "{case}");
    assert_eq!(map.notes, other.notes, "{case}");
}

/// Over 5,000 draws on maps fresh from [`Map::new`] (whose planes the map knows to be uniform,
/// which a write may skip), with every kind of brush and areas on and off the edge:
/// [`interior`] makes the oracle's map, and a whole-map fill afterwards (which trusts what the
/// map knows) leaves the same map on both.
#[test]
fn bsp_interiors_on_fresh_maps_match_the_oracle() {
    let mut rng = Rng::new(62);
    let kinds = [ROCK, FLOOR, CHASM, DOOR];
    for seed in 0..5000 {
        let (w, h) = (rng.range(1, 40) as i32, rng.range(1, 30) as i32);
        let fill = kinds[rng.below(4) as usize];
        let mut map = Map::new(w as i64, h as i64, fill, terrains()).unwrap();
        let (x, y) = (
            rng.range(0, w as i64 - 1) as i32,
            rng.range(0, h as i64 - 1) as i32,
        );
        let rect = match rng.below(3) {
            0 => Rect::new(0, 0, w, h),
            1 if w > 2 && h > 2 => Rect::new(1, 1, w - 2, h - 2),
            _ => Rect::new(
                x,
                y,
                rng.range(1, (w - x) as i64) as i32,
                rng.range(1, (h - y) as i64) as i32,
            ),
        };
        let floor = drawn_brush(kinds[rng.below(4) as usize], &mut rng);
        let wall = drawn_brush(kinds[rng.below(4) as usize], &mut rng);
        let door = drawn_brush(DOOR, &mut rng);
        let brushes = InteriorBrushes {
            floor: &floor,
            wall: &wall,
            door: rng.percent(50).then_some(&door),
        };
        let options = BspInterior {
            min_room: rng.range(2, 6) as i32,
            split: drawn_split(&mut rng),
        };
        let mut oracle_map = map.clone();
        let case = format!("seed {seed}: fill {fill} {w}x{h} {rect:?} {options:?} {brushes:?}");
        let (maps, areas) = ((&mut map, &mut oracle_map), (Area::Rect(rect), rect));
        let meters = (
            &mut Unmetered as &mut dyn Meter,
            &mut Unmetered as &mut dyn Meter,
        );
        both_alike(maps, areas, (options, brushes), seed, meters, &case);
        let after = Brush::new(kinds[rng.below(4) as usize]);
        map.fill(&after);
        oracle_map.fill(&after);
        same_maps(&map, &oracle_map, &format!("a fill after it: {case}"));
    }
}

/// Areas of one cell, one row, 65,536 cells long and 600 square, with rooms of 2 to 256 under
/// both rules: the rooms are at least `min_room` a side (or the area's), the doors join them
/// in a tree, and a halved room's shorter side is at most `2 × min_room`.
#[test]
fn bsp_interiors_of_extreme_shapes_keep_their_invariants() {
    let shapes = [
        (1, 1),
        (2, 2),
        (3, 3),
        (1, 200),
        (200, 1),
        (5, 4096),
        (4096, 3),
        (65536, 3),
        (3, 65536),
        (600, 600),
    ];
    let (floor, wall, door) = (Brush::new(FLOOR), Brush::new(ROCK), Brush::new(DOOR));
    let brushes = InteriorBrushes {
        floor: &floor.forced(),
        wall: &wall.forced(),
        door: Some(&door.forced()),
    };
    for (w, h) in shapes {
        for min_room in [2, 3, 4, 7, 256] {
            for (seed, split) in [Split::Longer, Split::Halves].into_iter().enumerate() {
                let case = format!("{w}x{h} min_room {min_room} {split:?}");
                let mut map = Map::new(w as i64, h as i64, ROCK, terrains()).unwrap();
                let options = BspInterior { min_room, split };
                let mut rng = Rng::new(seed as u64);
                let rooms = interior(
                    &mut map,
                    Area::Map,
                    &options,
                    &mut rng,
                    brushes,
                    &mut Unmetered,
                );
                let rooms = rooms.unwrap();
                assert_eq!(map.notes.doors.len() + 1, rooms.len(), "{case}");
                for r in &rooms {
                    assert!(
                        r.w >= min_room.min(w) && r.h >= min_room.min(h),
                        "{case}: {r:?}"
                    );
                    if split == Split::Halves && w >= min_room && h >= min_room {
                        assert!(r.w.min(r.h) <= 2 * min_room, "{case}: {r:?}");
                    }
                }
                if w * h <= 400_000 {
                    assert_eq!(components(&map, Adjacency::Four).len(), 1, "{case}");
                }
            }
        }
    }
}

#[test]
fn options_and_areas_are_checked() {
    let mut map = grid_map(20, 20, &[true; 400]);
    let floor = Brush::new(FLOOR);
    let b = RoomBrushes {
        floor: &floor,
        corridor: &floor,
    };
    let cases = [
        (7, None, "bsp option min_room = 7 is out of range: 1..=6"),
        (
            4,
            Some(3),
            "bsp option max_room = 3 is out of range: 4..=65536",
        ),
    ];
    for (min_room, max_room, wanted) in cases {
        let bad = BspRooms {
            min_leaf: 8,
            min_room,
            max_room,
        };
        let e = rooms(
            &mut map,
            Area::Map,
            &bad,
            &mut Rng::new(1),
            b,
            &mut Unmetered,
        );
        assert_eq!(e.unwrap_err().to_string(), wanted);
    }
    let mask = warren_core::gen::area::Mask::new(20, 20, true);
    let e = rooms(
        &mut map,
        Area::Mask(&mask),
        &BspRooms::default(),
        &mut Rng::new(1),
        b,
        &mut Unmetered,
    );
    assert_eq!(
        e.unwrap_err().to_string(),
        "bsp rooms needs a rectangular area (the whole map, a rectangle or a room), not a mask"
    );
}
