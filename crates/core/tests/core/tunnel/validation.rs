//! Bad requests and configurations.

use crate::tunnel::test_map::*;
use warren_core::gen::tunnel::{tunnel, TunnelConfig, TunnelLevel, TunnelRequest};
use warren_core::map::Dir;
use warren_core::rng::Rng;

#[test]
fn bad_requests_are_errors_that_name_the_value_and_leave_the_map_alone() {
    let base = two_rooms();
    let cases: Vec<(TunnelRequest, &str)> = vec![
        (
            request((24, 4), (17, 4), flags(&[])),
            "tunnel start: (24, 4) is outside the 24×10 map (x 0..=23, y 0..=9)",
        ),
        (
            request((3, 4), (17, -1), flags(&[])),
            "tunnel destination: (17, -1) is outside the 24×10 map (x 0..=23, y 0..=9)",
        ),
        (
            TunnelRequest {
                start_dir: Some(Dir::NorthEast),
                ..request((3, 4), (17, 4), flags(&[]))
            },
            "tunnel: start_dir is north_east; valid: north, south, east or west",
        ),
        (
            request((3, 4), (17, 4), flags(&["length"])),
            "tunnel: length_limit is missing; valid: 1..=8192 with the `length` flag",
        ),
        (
            TunnelRequest {
                length_limit: Some(0),
                ..request((3, 4), (17, 4), flags(&["length"]))
            },
            "tunnel: length_limit is 0; valid: 1..=8192",
        ),
        (
            TunnelRequest {
                length_limit: Some(9),
                ..request((3, 4), (17, 4), flags(&[]))
            },
            "tunnel: length_limit is 9; valid: no limit unless the `length` flag is set",
        ),
        (
            request((3, 4), (22, 4), flags(&["exact"])),
            "tunnel: destination with the `exact` flag is (22, 4); valid: x 2..=21, y 2..=7 \
             (the walk never reaches the outer two rings)",
        ),
    ];
    for (req, message) in cases {
        let mut map = base.clone();
        let e = tunnel(
            &mut map,
            &config(),
            &mut TunnelLevel::default(),
            &req,
            &mut Rng::new(1),
        );
        assert_eq!(e.map_err(|e| e.to_string()).err().as_deref(), Some(message));
        assert_eq!(map.terrain_cells(), base.terrain_cells());
        assert!(map.notes.corridors.is_empty());
    }
}

#[test]
fn bad_configs_are_errors_that_name_the_setting() {
    let map = two_rooms();
    let check = |edit: &dyn Fn(&mut TunnelConfig), message: &str| {
        let mut cfg = config();
        edit(&mut cfg);
        assert_eq!(
            cfg.validate(&map).map_err(|e| e.to_string()),
            Err(message.into())
        );
    };
    check(
        &|c| c.styles.clear(),
        "tunnel: styles is an empty list; valid: at least one corridor style",
    );
    check(
        &|c| c.default_style = 1,
        "tunnel: default_style is 1; valid: 0..=0",
    );
    check(
        &|c| c.panel_height = 0,
        "tunnel: panel_height is 0; valid: 1 or more",
    );
    check(
        &|c| c.styles[0].weight = f64::NAN,
        "tunnel: styles[0] (\"tunnel\").weight is NaN; valid: a finite number ≥ 0",
    );
    check(
        &|c| c.styles[0].walls = 99,
        "tunnel: styles[0] (\"tunnel\").walls is 99; valid: a terrain id 0..=9",
    );
    check(
        &|c| {
            let door = warren_core::map::DoorKind::uniform("bad", 40);
            c.doors.by_region.insert("room".into(), door);
        },
        "tunnel: doors[\"room\"] is 40; valid: a terrain id 0..=9",
    );
}
