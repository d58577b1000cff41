//! Unit tests of seeding (steps 4a–4c): unused cells, gates, courtyards.

use warren_core::gen::meter::Unmetered;
use warren_core::gen::town::seed::SidePlan;
use warren_core::gen::town::{CellStatus, Town, TownParams, STREET, UNUSED, WALL};
use warren_core::rng::Rng;

fn town(f: impl FnOnce(&mut TownParams)) -> Town {
    let mut p = TownParams::default();
    f(&mut p);
    Town::new(&p, &mut Unmetered).unwrap()
}

#[test]
fn side_plans_count_gates_three_apart() {
    let plan = SidePlan::new([true; 7].into_iter());
    assert_eq!(plan.capacity(), 3);
    assert_eq!(plan.after(0), 3);
    assert_eq!(
        plan.after(1),
        2,
        "a gate at 1 leaves room only for one of 4..=6"
    );
    assert_eq!(plan.after(2), 2);
    assert_eq!(plan.after(3), 3);
    assert_eq!(plan.after(6), 3);
    let gappy = SidePlan::new([true, false, true, true, false, false, true].into_iter());
    assert_eq!(gappy.capacity(), 3);
    assert_eq!(gappy.after(2), 2);
}

#[test]
fn unused_cells_sit_inside_isolated_blocks_with_walls_at_their_centres() {
    for seed in 0..40 {
        let mut t = town(|p| {
            p.height = 43;
            p.width = 71;
            p.unused = TownParams::max_unused(43, 71);
        });
        let placed = t.make_unused(&mut Rng::new(seed), &mut Unmetered).unwrap();
        assert_eq!(t.count(CellStatus::Unused), 4 + placed);
        let unused: Vec<usize> = t
            .lists()
            .cells(UNUSED)
            .unwrap()
            .iter()
            .map(|&c| c as usize)
            .collect();
        for &a in &unused {
            assert_eq!(t.chars()[t.grid.centre_index(a)], WALL);
            for &b in &unused {
                let ((ra, ca), (rb, cb)) = (t.grid.row_col(a), t.grid.row_col(b));
                let apart = ra.abs_diff(rb).max(ca.abs_diff(cb));
                assert!(
                    a == b
                        || apart >= 4
                        || t.grid.corners().contains(&a)
                        || t.grid.corners().contains(&b)
                );
            }
        }
        assert_eq!(placed as i64, t.params().unused, "seed {seed}");
    }
}

#[test]
fn gates_are_always_all_placed_even_at_the_limit() {
    for (h, w) in [(23, 77), (11, 11), (13, 13), (29, 41), (101, 39)] {
        let max = TownParams::max_gates(h, w);
        for seed in 0..60 {
            let mut t = town(|p| {
                p.height = h;
                p.width = w;
                p.gates = max;
                p.leftgates = 0;
                p.courts = 1;
            });
            assert_eq!(
                t.make_gates(&mut Rng::new(seed), &mut Unmetered).unwrap() as i64,
                max,
                "{h}×{w} seed {seed}"
            );
            assert_eq!(t.count(CellStatus::Street) as i64, max);
            assert_eq!(t.distinct_streets() as i64, max);
            for &cell in t.lists().cells(STREET).unwrap() {
                let cell = cell as usize;
                assert!(!t.grid.is_interior(cell), "gates are on the border");
                let inward = t.heading[cell].unwrap();
                assert!(
                    t.grid.neighbour(cell, inward).is_some(),
                    "gates head inward"
                );
            }
        }
    }
}

#[test]
fn gates_spread_over_every_border_position() {
    let mut hits = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let mut t = town(|p| {
            p.height = 19;
            p.width = 19;
            p.gates = 1;
            p.leftgates = 1;
        });
        t.make_gates(&mut Rng::new(seed), &mut Unmetered).unwrap();
        hits.insert(t.lists().cells(STREET).unwrap()[0]);
    }
    // 9 × 9 cells: positions 2..=6 on each of four sides.
    assert_eq!(hits.len(), 20, "{hits:?}");
}

#[test]
fn courts_are_interior_and_spaced() {
    for seed in 0..40 {
        let mut t = town(|p| {
            p.gates = 0;
            p.leftgates = 0;
            p.courts = 36;
        });
        let placed = t.make_courts(&mut Rng::new(seed), &mut Unmetered).unwrap();
        assert_eq!(placed, 36, "seed {seed}");
        let streets: Vec<usize> = t
            .lists()
            .cells(STREET)
            .unwrap()
            .iter()
            .map(|&c| c as usize)
            .collect();
        assert_eq!(streets.len(), placed);
        for &a in &streets {
            assert!(t.grid.is_interior(a));
            assert!(t.heading[a].is_some());
            for &b in &streets {
                let ((ra, ca), (rb, cb)) = (t.grid.row_col(a), t.grid.row_col(b));
                assert!(a == b || ra.abs_diff(rb) + ca.abs_diff(cb) >= 3);
            }
        }
    }
}
