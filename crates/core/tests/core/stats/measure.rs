use std::sync::Arc;
use warren_core::map::Map;
use warren_core::map::{Corridor, Point, TerrainTable};
use warren_core::stats::measure::{Measurer, BUILTIN};
use warren_core::stats::pack;

/// A map drawn as rows of `#` (rock) and `.` (floor).
fn map_from(rows: &[&str]) -> Map {
    let table = TerrainTable::plain(&[("rock", '#', true), ("floor", '.', false)]);
    Map::from_ascii(rows, Arc::new(table)).expect("a map drawn with # and .")
}

fn value(m: &[f64; BUILTIN.len()], name: &str) -> f64 {
    m[BUILTIN.iter().position(|n| *n == name).expect("a built-in")]
}

/// Dead ends by the definition, one cell at a time.
fn reference_dead_ends(map: &Map) -> usize {
    const RING: [(i32, i32); 8] = [
        (0, -1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    let open = |x: i32, y: i32| map.is_solid(Point::new(x, y)) == Ok(false);
    let mut n = 0;
    for y in 0..map.height() {
        for x in 0..map.width() {
            if !open(x, y) {
                continue;
            }
            let ring: Vec<bool> = RING.iter().map(|(dx, dy)| open(x + dx, y + dy)).collect();
            let arcs = (0..8).filter(|&i| ring[i] && !ring[(i + 7) % 8]).count();
            let count = ring.iter().filter(|&&b| b).count();
            n += usize::from(arcs == 1 && count <= 2);
        }
    }
    n
}

#[test]
fn hand_made_map_has_known_dead_ends_and_components() {
    // A 3×3 room; a corridor east from it that ends with a diagonal stub at (11, 1); a branch
    // down from (7, 2) that steps diagonally to (6, 5) and turns up at its tip (5, 4); an
    // isolated cell (1, 6); a separate two-cell area (9..=10, 5).
    let map = map_from(&[
        "############",
        "#...#######.",
        "#..........#",
        "#...###.####",
        "#####.#.####",
        "#####..##..#",
        "#.##########",
        "############",
    ]);
    let v = Measurer::new().measure(&map);
    // (11, 1): one neighbour. (5, 4): SE and S, touching. (9, 5) and (10, 5): one each.
    // Not dead ends: (10, 2) has W and NE apart; the isolated (1, 6) has none; room corners
    // see three or more in a row.
    assert_eq!(value(&v, "dead_ends"), 4.0);
    assert_eq!(value(&v, "components"), 3.0);
    assert_eq!(value(&v, "floor_fraction"), 25.0 / 96.0);
}

#[test]
fn straight_diagonal_and_turning_tips_are_dead_ends_but_room_corners_are_not() {
    let straight = map_from(&["#####", "#...#", "#####"]);
    let diagonal = map_from(&["#####", "#.###", "##.##", "###.#", "#####"]);
    let turning = map_from(&["#####", "#..##", "##.##", "#####"]);
    let room = map_from(&["#####", "#...#", "#...#", "#####"]);
    let mut m = Measurer::new();
    assert_eq!(value(&m.measure(&straight), "dead_ends"), 2.0);
    assert_eq!(value(&m.measure(&diagonal), "dead_ends"), 2.0);
    // (1, 1) sees E (2, 1) and SE (2, 2): touching, a tip; (2, 2) sees N and NW: also a tip.
    assert_eq!(value(&m.measure(&turning), "dead_ends"), 2.0);
    assert_eq!(value(&m.measure(&room), "dead_ends"), 0.0);
}

#[test]
fn runs_reaching_the_end_of_a_full_word_are_areas() {
    for w in [64, 128] {
        let solid = "#".repeat(w);
        let tail = format!("{}..", "#".repeat(w - 2));
        let split = format!(".{}.", "#".repeat(w - 2));
        let map = map_from(&[&tail, &solid, &tail, &split]);
        assert_eq!(
            value(&Measurer::new().measure(&map), "components"),
            3.0,
            "{w}"
        );
    }
}

proptest::proptest! {
    #[test]
    fn areas_match_the_flood_fill_components(
        w in 1usize..150,
        h in 1usize..12,
        cells in proptest::collection::vec(0u8..100, 150 * 12),
        open_pct in 20u8..80,
    ) {
        let rows: Vec<String> = (0..h)
            .map(|y| (0..w).map(|x| if cells[x + y * w] < open_pct { '.' } else { '#' }).collect())
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let map = map_from(&rows);
        let mut measurer = Measurer::new();
        let v = measurer.measure(&map);
        // The build for this CPU and the portable one agree.
        proptest::prop_assert_eq!(v, measurer.measure_with(&map, pack::Portable));
        let eight = warren_core::map::Adjacency::Eight;
        let expected = warren_core::gen::connectivity::components(&map, eight).len();
        proptest::prop_assert_eq!(value(&v, "components"), expected as f64);
        proptest::prop_assert_eq!(value(&v, "dead_ends"), reference_dead_ends(&map) as f64);
        // A map tagged 4-neighbour counts its areas that way.
        let mut four = map.clone();
        let tag = warren_core::map::TagValue::Text("4".into());
        four.notes.tags.insert("connectivity", tag);
        let expected = warren_core::gen::connectivity::components(&map, warren_core::map::Adjacency::Four);
        let v = measurer.measure(&four);
        proptest::prop_assert_eq!(value(&v, "components"), expected.len() as f64);
    }
}

#[test]
fn annotations_are_counted() {
    let mut map = map_from(&["#####", "#...#", "#####"]);
    map.notes.corridors.push(Corridor {
        cells: vec![Point::new(1, 1), Point::new(2, 1)],
        region: None,
    });
    map.notes.corridors.push(Corridor {
        cells: vec![Point::new(3, 1)],
        region: None,
    });
    map.notes.stairs.up.push(Point::new(1, 1));
    map.notes.stairs.down.push(Point::new(3, 1));
    let door = warren_core::map::Door::new(Point::new(2, 1), warren_core::map::DoorState::Open);
    map.add_door(door).unwrap();
    let v = Measurer::new().measure(&map);
    assert_eq!(value(&v, "corridors"), 2.0);
    assert_eq!(value(&v, "corridor_cells"), 3.0);
    assert_eq!(value(&v, "stairs"), 2.0);
    assert_eq!(value(&v, "doors"), 1.0);
    assert_eq!(value(&v, "rooms"), 0.0);
}
