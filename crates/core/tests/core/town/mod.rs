//! Whole-town invariants over many seeds and a spread of parameters.

mod connect;
mod draw;
mod finish;
mod grid;
mod make_street;
mod params;
mod seed;
mod status;
mod streets;

use std::collections::VecDeque;
use warren_core::gen::meter::Unmetered;
use warren_core::gen::town::{
    CellStatus, Heading, Town, TownError, TownParams, BLANK, HDOOR, ISOLATED, STREET, VDOOR, WALL,
};
use warren_core::map::Point;
use warren_core::rng::Rng;

/// Everything a finished town promises; returns the first broken promise.
fn check(t: &Town) -> Result<(), String> {
    let g = t.grid;
    let is_door = |i: usize| matches!(t.chars[i], HDOOR | VDOOR);
    for corner in g.corners() {
        if t.status_of(corner) != CellStatus::Unused {
            return Err(format!("corner {corner} is not unused"));
        }
    }
    if t.count(CellStatus::Isolated) + t.count(CellStatus::Live) > 0 {
        return Err("isolated or live cells remain".into());
    }
    if t.count(CellStatus::Unused) as i64 != 4 + t.params().unused {
        return Err(format!(
            "{} unused cells for {} asked",
            t.count(CellStatus::Unused),
            t.params().unused
        ));
    }
    if t.distinct_streets() != 1 {
        return Err(format!("{} distinct streets", t.distinct_streets()));
    }
    for cell in 0..g.len() {
        let status = t.status_of(cell);
        let street_neighbours: Vec<Heading> = g
            .neighbours(cell)
            .filter(|&(_, n)| t.status_of(n) == CellStatus::Street)
            .map(|(h, _)| h)
            .collect();
        match status {
            CellStatus::Unused if !street_neighbours.is_empty() => {
                return Err(format!("unused cell {cell} touches a street"));
            }
            CellStatus::Dead => {
                let doors: Vec<Heading> = Heading::ALL
                    .into_iter()
                    .filter(|&h| is_door(g.wall_index(cell, h)))
                    .collect();
                if doors.len() != 1 || !street_neighbours.contains(&doors[0]) {
                    return Err(format!(
                        "room {cell} has doors {doors:?} (streets {street_neighbours:?})"
                    ));
                }
            }
            CellStatus::Street => {
                for h in street_neighbours {
                    if t.chars[g.wall_index(cell, h)] != BLANK {
                        return Err(format!("wall between streets at cell {cell} {h:?}"));
                    }
                }
            }
            _ => {}
        }
    }
    // One street network, walking only through open walls.
    let streets = t.lists().list(STREET);
    let mut seen = vec![false; g.len()];
    let mut queue = VecDeque::from([streets[0] as usize]);
    seen[streets[0] as usize] = true;
    let mut reached = 1;
    while let Some(cell) = queue.pop_front() {
        for (h, n) in g.neighbours(cell) {
            if !seen[n] && t.chars[g.wall_index(cell, h)] == BLANK {
                seen[n] = true;
                reached += 1;
                queue.push_back(n);
            }
        }
    }
    if reached != streets.len() {
        return Err(format!(
            "{reached} of {} street cells connected",
            streets.len()
        ));
    }
    let gates = t.gate_indices();
    if gates.len() as i64 != t.params().leftgates {
        return Err(format!(
            "{} gates open, leftgates {}",
            gates.len(),
            t.params().leftgates
        ));
    }
    let (w, h) = (g.width(), g.height());
    for &gate in &gates {
        let (x, y) = (gate % w, gate / w);
        let inside = (y.clamp(1, h - 2) / 2) * g.cols + x.clamp(1, w - 2) / 2;
        if t.status_of(inside) != CellStatus::Street {
            return Err(format!("gate at ({x}, {y}) opens onto a room"));
        }
    }
    for y in (2..h - 1).step_by(2) {
        for x in (2..w - 1).step_by(2) {
            let i = y * w + x;
            if t.chars[i] == WALL
                && [i - w, i + 1, i + w, i - 1]
                    .iter()
                    .all(|&a| t.chars[a] == BLANK)
            {
                return Err(format!("pillar at ({x}, {y})"));
            }
        }
    }
    Ok(())
}

fn params(height: i64, width: i64, f: impl FnOnce(&mut TownParams)) -> TownParams {
    let mut p = TownParams {
        height,
        width,
        ..TownParams::default()
    };
    f(&mut p);
    p
}

/// The spread the sweep cycles through.
fn spread() -> Vec<TownParams> {
    vec![
        TownParams::default(),
        params(201, 401, |_| {}),
        params(41, 61, |p| p.straightness = 0),
        params(41, 61, |p| p.straightness = 998),
        params(23, 77, |p| {
            p.gates = 0;
            p.leftgates = 0;
            p.courts = TownParams::max_courts(23, 77);
        }),
        params(57, 85, |p| p.unused = TownParams::max_unused(57, 85)),
        params(23, 77, |p| {
            p.gates = TownParams::max_gates(23, 77);
            p.leftgates = 5;
        }),
        params(11, 11, |p| {
            p.gates = 0;
            p.leftgates = 0;
            p.courts = 1;
        }),
        params(13, 13, |p| {
            p.gates = 4;
            p.leftgates = 4;
            p.straightness = 998;
        }),
        params(101, 99, |p| {
            p.gates = TownParams::max_gates(101, 99);
            p.leftgates = 3;
            p.courts = TownParams::max_courts(101, 99);
            p.unused = TownParams::max_unused(101, 99);
            p.straightness = 998;
        }),
    ]
}

#[test]
fn every_town_keeps_every_promise_over_a_thousand_seeds() {
    let spread = spread();
    for seed in 0..1000u64 {
        let p = spread[seed as usize % spread.len()];
        let t = Town::generate(&p, &mut Rng::new(seed), &mut Unmetered)
            .unwrap_or_else(|e| panic!("seed {seed} {p:?}: {e}"));
        if let Err(e) = check(&t) {
            panic!("seed {seed} {p:?}: {e}\n{}", t.render_debug());
        }
    }
}

#[test]
fn same_seed_same_town_and_seeds_differ() {
    let p = TownParams::default();
    let a = Town::generate(&p, &mut Rng::new(77), &mut Unmetered).unwrap();
    let b = Town::generate(&p, &mut Rng::new(77), &mut Unmetered).unwrap();
    let c = Town::generate(&p, &mut Rng::new(78), &mut Unmetered).unwrap();
    assert_eq!(a.render(), b.render());
    assert_ne!(a.render(), c.render());
}

#[test]
fn fill_makes_doorless_rooms_with_unused_corners() {
    let small = params(11, 13, |p| p.gates = 2);
    let mut t = Town::generate(&small, &mut Rng::new(3), &mut Unmetered).unwrap();
    t.fill(&mut Unmetered).unwrap();
    let expected = "\
#############
### # # # ###
#############
# # # # # # #
#############
# # # # # # #
#############
# # # # # # #
#############
### # # # ###
#############
";
    assert_eq!(t.render(), expected);
    assert_eq!(t.count(CellStatus::Unused), 4);
    assert_eq!(t.count(CellStatus::Isolated), 26);
    assert_eq!(t.distinct_streets(), 0);
    let fresh = Town::new(t.params(), &mut Unmetered).unwrap();
    assert_eq!(t.lists().list(ISOLATED), fresh.lists().list(ISOLATED));
}

#[test]
fn debug_view_shows_statuses_and_headings() {
    let mut t = Town::new(&params(11, 13, |p| p.gates = 2), &mut Unmetered).unwrap();
    let mut rng = Rng::new(1);
    t.make_street(&mut rng, 0, 2, Some(Heading::South)).unwrap();
    let view = t.render_debug();
    let lines: Vec<&str> = view.lines().collect();
    assert_eq!(lines[0], "#####-#######");
    assert_eq!(lines[1], "#U#D|v|D#I#U#");
    assert_eq!(lines[3], "#I#I#L#I#I#I#");
}

#[test]
fn layout_lists_rooms_gates_and_streets() {
    let p = TownParams::default();
    let t = Town::generate(&p, &mut Rng::new(11), &mut Unmetered).unwrap();
    let layout = t.layout();
    assert_eq!(layout.gates.len(), 2);
    assert_eq!(layout.streets.len(), t.count(CellStatus::Street));
    assert_eq!(layout.rooms.len(), t.count(CellStatus::Dead));
    for room in &layout.rooms {
        assert_eq!(room.doors.len(), 1);
        let d = room.doors[0];
        assert!(room.rect.outline().contains(&d));
        assert!(layout.streets.contains(&Point::new(
            2 * d.x - room.rect.center().x,
            2 * d.y - room.rect.center().y
        )));
    }
    for gate in &layout.gates {
        let on_edge = gate.x == 0
            || gate.y == 0
            || gate.x as usize == t.width() - 1
            || gate.y as usize == t.height() - 1;
        assert!(on_edge);
    }
}

#[test]
fn phases_report_failures_instead_of_hanging() {
    let mut t = Town::new(&TownParams::default(), &mut Unmetered).unwrap();
    let mut rng = Rng::new(1);
    assert_eq!(
        t.connect_streets(&mut rng, &mut Unmetered),
        Err(TownError::NoStreets)
    );
    assert_eq!(
        t.finish_alleys(&mut rng, &mut Unmetered),
        Err(TownError::Unreached { cells: 11 * 38 - 4 })
    );
    let err = Town::new(&params(10, 4097, |_| {}), &mut Unmetered).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid town parameters: height must be at least 11 (five cells, room for one interior row of buildings), got 10; height must be odd (walls on even rows and columns, cells on odd ones), got 10; width must be at most 4095, got 4097"
    );
}

/// Street cells whose next cell ahead is a street running the same way.
fn straight_share(t: &Town) -> f64 {
    let streets = t.lists().list(STREET);
    let straight = streets
        .iter()
        .filter(|&&c| {
            let c = c as usize;
            t.heading[c].is_some_and(|h| {
                t.grid.neighbour(c, h).is_some_and(|n| {
                    t.status_of(n) == CellStatus::Street && t.heading[n] == Some(h)
                })
            })
        })
        .count();
    straight as f64 / streets.len() as f64
}

#[test]
fn straightness_makes_straighter_streets() {
    let share = |s: i64| -> f64 {
        (0..20)
            .map(|seed| {
                straight_share(
                    &Town::generate(
                        &params(61, 121, |p| p.straightness = s),
                        &mut Rng::new(seed),
                        &mut Unmetered,
                    )
                    .unwrap(),
                )
            })
            .sum::<f64>()
            / 20.0
    };
    let (loose, straight) = (share(0), share(998));
    assert!(
        straight > loose + 0.1,
        "straight {straight:.3} vs loose {loose:.3}"
    );
}
