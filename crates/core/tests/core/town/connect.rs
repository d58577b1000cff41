//! Unit tests of growing the streets (steps 5 and 6).

use warren_core::gen::meter::Unmetered;
use warren_core::gen::town::{CellStatus, DeadStreets, Heading, Town, TownParams, FROM_LIVE};
use warren_core::rng::Rng;

/// Rooms left in a dense town (TownMaze's largest counts for 23 × 77) joined each way.
fn rooms_left(dead: DeadStreets, seed: u64) -> usize {
    let params = TownParams {
        gates: TownParams::max_gates(23, 77),
        courts: TownParams::max_courts(23, 77),
        unused: TownParams::max_unused(23, 77),
        leftgates: 0,
        ..TownParams::default()
    };
    let mut rng = Rng::new(seed);
    let mut t = Town::new(&params, &mut Unmetered).unwrap();
    t.make_unused(&mut rng, &mut Unmetered).unwrap();
    t.make_gates(&mut rng, &mut Unmetered).unwrap();
    t.make_courts(&mut rng, &mut Unmetered).unwrap();
    t.connect_streets_with(&mut rng, dead, &mut Unmetered)
        .unwrap();
    assert_eq!(t.distinct_streets(), 1);
    t.finish_alleys(&mut rng, &mut Unmetered).unwrap();
    t.layout().rooms.len()
}

#[test]
fn sparing_dead_streets_keep_more_rooms_in_dense_towns() {
    let (mut freely, mut sparingly) = (0, 0);
    for seed in 0..200 {
        freely += rooms_left(DeadStreets::Freely, seed);
        sparingly += rooms_left(DeadStreets::Sparingly, seed);
    }
    assert!(
        sparingly > freely,
        "{sparingly} rooms sparingly, {freely} freely"
    );
}

#[test]
fn growth_draws_as_the_pick_and_roll_loop_would_accept() {
    // One street heading east at (2, 2): (2, 3) continues it, (1, 2), (3, 2), (2, 1) are
    // bends. Straightness 750 weighs them 1000 : 250 : 250 : 250.
    let mut start = Town::new(
        &TownParams {
            height: 15,
            width: 17,
            straightness: 750,
            ..TownParams::default()
        },
        &mut Unmetered,
    )
    .unwrap();
    let mut rng = Rng::new(4);
    start
        .make_street(&mut rng, 2, 2, Some(Heading::East))
        .unwrap();
    let cells = [(2, 3), (1, 2), (3, 2), (2, 1)];
    let expected = [
        1000.0 / 1750.0,
        250.0 / 1750.0,
        250.0 / 1750.0,
        250.0 / 1750.0,
    ];
    let trials = 20_000;
    let mut hits = [0usize; 4];
    for _ in 0..trials {
        let mut t = start.clone();
        assert!(t.grow(&mut rng, FROM_LIVE));
        let grown = cells
            .iter()
            .position(|&(r, c)| t.status(r, c).unwrap() == CellStatus::Street)
            .unwrap();
        hits[grown] += 1;
    }
    // χ² with 3 degrees of freedom; 16.27 is the 0.1% critical value.
    let chi2: f64 = hits
        .iter()
        .zip(expected)
        .map(|(&h, p)| (h as f64 - p * trials as f64).powi(2) / (p * trials as f64))
        .sum();
    assert!(chi2 < 16.27, "χ² = {chi2}, hits {hits:?}");
}
