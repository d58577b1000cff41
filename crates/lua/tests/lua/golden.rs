//! Golden maps: fixed seeds must keep producing exactly these maps. A change here changes every
//! user's seeds; when it is intended, regenerate with `WARREN_BLESS=1 cargo test --test lua golden`
//! and say so in the changelog.

use crate::common::*;

/// Recipe, seed, `--set` values, golden file.
type Case = (
    &'static str,
    u64,
    &'static [(&'static str, &'static str)],
    &'static str,
);

const CASES: [Case; 10] = [
    ("rooms.lua", 7, &[], "rooms-7.txt"),
    (
        "rooms.lua",
        7,
        &[("corridors", "lines")],
        "rooms-7-lines.txt",
    ),
    (
        "rooms.lua",
        7,
        &[("corridors", "dogleg")],
        "rooms-7-dogleg.txt",
    ),
    ("rooms.lua", 7, &[("corridors", "bsp")], "rooms-7-bsp.txt"),
    ("cave.lua", 3, &[], "cave-3.txt"),
    (
        "cave.lua",
        3,
        &[("direction", "omni"), ("complexity", "4")],
        "cave-3-omni.txt",
    ),
    ("townmaze.lua", 3, &[], "townmaze-3.txt"),
    ("dungeon.lua", 1, &[], "dungeon-1.txt"),
    (
        "dungeon.lua",
        2,
        &[("connectivity", "4"), ("width", "96"), ("height", "64")],
        "dungeon-2-4way-96x64.txt",
    ),
    (
        "townmaze.lua",
        3,
        &[("show", "debug"), ("stop_after", "connect")],
        "townmaze-3-debug-connect.txt",
    ),
];

#[test]
fn fixed_seeds_keep_their_maps() {
    let bless = std::env::var_os("WARREN_BLESS").is_some();
    for (script, seed, sets, file) in CASES {
        let host = host(script);
        let p = params(&host, sets);
        let map = generate(&host, seed, &p);
        let text = warren_core::render::text::ascii(&warren_core::render::View::terrain(&map));
        let path = root().join("tests/golden").join(file);
        if bless {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (run with WARREN_BLESS=1 to create)",
                path.display()
            )
        });
        assert!(
            text == expected,
            "{script} seed {seed} {sets:?} no longer matches {file}:\n{text}"
        );
    }
}
