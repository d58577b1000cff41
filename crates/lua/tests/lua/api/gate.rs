//! Each type's gates have room and the ranges stay apart (`api/gate.rs`).

use warren_lua::api::decl::Decl;
use warren_lua::api::gate::{
    FIELD_GATES, LEVEL_GATES, LISTS_GATES, MAP_GATES, RECTS_GATES, RNG_GATES, TOWN_GATES,
    TUNNELS_GATES,
};
use warren_lua::api::{dungeon, map, rects, rng, status, toolbox, town, tunnel};

#[test]
fn each_type_has_room_for_its_gates_and_the_ranges_stay_apart() {
    let count = |lists: &[&[&Decl]]| lists.iter().map(|l| l.len() as u64).sum::<u64>();
    let types = [
        (MAP_GATES, count(&map::METHOD_LISTS)),
        (RNG_GATES, count(&[rng::METHODS])),
        (RECTS_GATES, count(&[rects::METHODS])),
        (LEVEL_GATES, count(&[dungeon::METHODS])),
        (TUNNELS_GATES, count(&[tunnel::METHODS])),
        (TOWN_GATES, count(&[town::METHODS])),
        (LISTS_GATES, count(&[status::METHODS])),
        (FIELD_GATES, count(&[toolbox::field::METHODS])),
    ];
    for pair in types.windows(2) {
        let ((first, n), (next, _)) = (pair[0], pair[1]);
        assert!(
            first + n <= next,
            "gates from {first:#x} ({n}) run into {next:#x}"
        );
    }
    let (last, n) = types[types.len() - 1];
    // Loading's warm-up numbers from 2^39 + 2^32.
    assert!(last + n < (1 << 39) + (1 << 32));
}
