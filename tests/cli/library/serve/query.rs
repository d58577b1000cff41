//! `warren::serve::query` (src/serve/query.rs): query strings read, bad values refused.

use warren::serve::query::{
    parse, parse_sweep, BadQuery, Defaults, Extras, Request, DEFAULT_SWEEP,
};

fn defaults() -> Defaults {
    Defaults {
        recipe: "scripts/r.lua".into(),
        seed: 9,
        levels: 2,
    }
}

fn page(q: &str) -> Result<Request, BadQuery> {
    parse(Some(q), Extras::Page, &defaults())
}

#[test]
fn reads_every_key_and_falls_back_on_the_defaults() {
    let r =
        page("seed=18446744073709551615&set=width%3D40&set=mode=a%3Db&levels=3&steps=1").unwrap();
    assert_eq!(r.map.seed, u64::MAX);
    assert_eq!(
        r.map.sets,
        vec![
            ("width".to_string(), "40".to_string()),
            ("mode".to_string(), "a=b".to_string())
        ]
    );
    assert_eq!((r.map.levels, r.map.steps), (3, true));
    assert_eq!(r.map.recipe, "scripts/r.lua");
    let r = parse(None, Extras::Png, &defaults()).unwrap();
    assert_eq!((r.map.seed, r.map.levels, r.map.steps), (9, 2, false));
    let r = page("recipe=scripts%2Fcave.lua").unwrap();
    assert_eq!(r.map.recipe, "scripts/cave.lua");
    assert_eq!((r.layer.as_str(), r.scale), ("terrain", 4));
}

#[test]
fn refuses_bad_values_with_what_is_valid() {
    let e = |q: &str| page(q).unwrap_err().0;
    assert_eq!(
        e("seed=-1"),
        "seed must be a whole number from 0 to 18446744073709551615, got \"-1\""
    );
    assert!(e("seed=18446744073709551616").starts_with("seed must be"));
    assert!(e("seed=1.5").starts_with("seed must be"));
    assert_eq!(
        e("levels=65"),
        "levels must be a whole number from 1 to 64, got \"65\""
    );
    assert!(e("levels=0").starts_with("levels must be"));
    assert_eq!(e("seed=1&seed=2"), "'seed' is given more than once");
    assert_eq!(e("set=width"), "set expects key=value, got \"width\"");
    assert_eq!(e("steps=yes"), "steps must be 1 or 0, got \"yes\"");
    assert_eq!(
        e("scale=2"),
        "unknown query parameter 'scale' (valid: recipe, seed, set, levels, steps)"
    );
    let png = |q: &str| parse(Some(q), Extras::Png, &defaults()).unwrap_err().0;
    assert_eq!(
        png("scale=65"),
        "scale must be a whole number from 1 to 64, got \"65\""
    );
    assert_eq!(png("layer="), "layer must not be empty");
    let layer = |q: &str| parse(Some(q), Extras::Layer, &defaults());
    let r = layer("level=2&frame=0&layer=region").unwrap();
    assert_eq!((r.level, r.frame, r.layer.as_str()), (2, Some(0), "region"));
    assert_eq!(
        layer("level=3").unwrap_err().0,
        "level 3 is past the last level generated (2)"
    );
}

#[test]
fn sweeps_read_their_seeds_and_refuse_bad_ones() {
    let sweep = |q: &str| parse_sweep(Some(q), &defaults());
    let r = sweep("count=20&start=5&set=width%3D40").unwrap();
    assert_eq!(
        (r.start, r.count, r.recipe.as_str()),
        (5, 20, "scripts/r.lua")
    );
    assert_eq!(r.sets, vec![("width".to_string(), "40".to_string())]);
    let r = parse_sweep(None, &defaults()).unwrap();
    assert_eq!((r.start, r.count), (0, DEFAULT_SWEEP));
    let e = |q: &str| sweep(q).unwrap_err().0;
    assert_eq!(
        e("count=0"),
        "count must be a whole number from 1 to 1000000, got \"0\""
    );
    assert!(e("count=1000001").starts_with("count must be"));
    assert!(e("start=-1").starts_with("start must be"));
    assert_eq!(
        e("start=18446744073709551615&count=2"),
        "start 18446744073709551615 + count 2 is past the largest seed 18446744073709551615"
    );
    assert_eq!(
        e("seed=3"),
        "unknown query parameter 'seed' (valid: recipe, set, count, start)"
    );
    assert_eq!(e("count=1&count=2"), "'count' is given more than once");
}
