//! Unit tests of TownMaze's parameters and their sanity checks.

use warren_core::gen::town::{ParamErrors, TownParams};
fn errors(p: TownParams) -> Vec<String> {
    match p.validate() {
        Ok(()) => Vec::new(),
        Err(ParamErrors(v)) => v.iter().map(|e| e.to_string()).collect(),
    }
}

fn with(f: impl FnOnce(&mut TownParams)) -> Vec<String> {
    let mut p = TownParams::default();
    f(&mut p);
    errors(p)
}

#[test]
fn defaults_are_the_originals_and_valid() {
    let p = TownParams::default();
    assert_eq!(
        (
            p.height,
            p.width,
            p.gates,
            p.leftgates,
            p.courts,
            p.unused,
            p.straightness
        ),
        (23, 77, 4, 2, 0, 0, 750)
    );
    assert_eq!(p.validate(), Ok(()));
}

#[test]
fn each_rule_has_its_own_message() {
    let cases: Vec<(Vec<String>, &str)> = vec![
        (with(|p| p.height = 9), "height must be at least 11 (five cells, room for one interior row of buildings), got 9"),
        (with(|p| p.height = 24), "height must be odd (walls on even rows and columns, cells on odd ones), got 24"),
        (with(|p| p.width = 7), "width must be at least 11 (five cells, room for one interior row of buildings), got 7"),
        (with(|p| p.width = 78), "width must be odd (walls on even rows and columns, cells on odd ones), got 78"),
        (with(|p| p.height = 4097), "height must be at most 4095, got 4097"),
        (with(|p| p.width = (1 << 40) + 1), "width must be at most 4095, got 1099511627777"),
        (with(|p| { p.gates = -1; p.leftgates = 0; p.courts = 2 }), "gates must be at least 0, got -1"),
        (with(|p| { p.gates = 25; p.leftgates = 0 }), "gates must be at most 2*((height-6)/7)+2*((width-6)/7) = 24 for a 23×77 town, got 25"),
        (with(|p| p.leftgates = -2), "leftgates must be at least 0, got -2"),
        (with(|p| p.leftgates = 5), "leftgates must be at most gates = 4, got 5"),
        (with(|p| p.courts = -1), "courts must be at least 0, got -1"),
        (with(|p| p.courts = 37), "courts must be at most ((height-5)/6)*((width-5)/6) = 36 for a 23×77 town, got 37"),
        (with(|p| { p.gates = 0; p.leftgates = 0 }), "courts + gates must be at least 1 so that some street exists, got 0 + 0"),
        (with(|p| p.unused = -1), "unused must be at least 0, got -1"),
        (with(|p| p.unused = 6), "unused must be at most ((height-1)/14)*((width-1)/14) = 5 for a 23×77 town, got 6"),
        (with(|p| p.straightness = -1), "straightness must be at least 0, got -1"),
        (with(|p| p.straightness = 999), "straightness must be at most 998 so that a bend is always possible, got 999"),
    ];
    for (got, want) in &cases {
        assert_eq!(got[0], *want);
        // Negative gates always also leave leftgates (≥ 0 or ≤ gates) in the wrong.
        assert_eq!(
            got.len(),
            1 + usize::from(want.starts_with("gates must be at least")),
            "{got:?}"
        );
    }
    let mut all: Vec<&String> = cases.iter().map(|(g, _)| &g[0]).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), cases.len(), "messages must be distinct");
}

#[test]
fn limits_hold_exactly_at_the_boundary() {
    assert!(with(|p| {
        p.gates = 24;
        p.courts = 36;
        p.unused = 5;
        p.straightness = 998
    })
    .is_empty());
    assert!(with(|p| {
        p.height = 11;
        p.width = 11;
        p.gates = 0;
        p.leftgates = 0;
        p.courts = 1
    })
    .is_empty());
    assert!(with(|p| {
        p.height = 4095;
        p.width = 4095;
        p.straightness = 0
    })
    .is_empty());
}

#[test]
fn every_violation_is_reported_not_only_the_first() {
    let p = TownParams {
        height: 10,
        width: 4096,
        gates: -3,
        leftgates: 1,
        courts: -1,
        unused: -1,
        straightness: 1000,
    };
    let got = errors(p);
    assert_eq!(got.len(), 10, "{got:#?}");
    assert!(got[0].starts_with("height must be at least 11"));
    assert!(got[1].starts_with("height must be odd"));
    assert!(got[2].starts_with("width must be at most 4095"));
    assert!(got[3].starts_with("width must be odd"));
    assert!(got[4].starts_with("gates must be at least 0"));
    assert!(got[5].starts_with("leftgates must be at most gates = -3"));
    assert!(got[6].starts_with("courts must be at least 0"));
    assert!(got[7].starts_with("courts + gates must be at least 1"));
    assert!(got[8].starts_with("unused must be at least 0"));
    assert!(got[9].starts_with("straightness must be at most 998"));
    let joined = p.validate().unwrap_err().to_string();
    assert_eq!(joined.matches("; ").count(), 9);
}

#[test]
fn negative_sizes_report_too_small_and_odd_correctly() {
    // C's (-1)%2 == -1 made the original's checks order sensitive; rem_euclid does not.
    let got = with(|p| p.height = -1);
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].starts_with("height must be at least 11"));
    assert_eq!(with(|p| p.height = -2).len(), 2);
}
