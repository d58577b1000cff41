//! Vault templates (`[[prefab]]`): every bad input located at file:line:col, and placement's
//! invariants over many seeds — the level stays in one piece, depth and tags are honoured,
//! turned and mirrored maps keep their shape, substitutions keep their counts.

use crate::common::*;

/// A prefab entry with `extra` keys after its map.
fn entry(map: &str, extra: &str) -> String {
    format!("[[prefab]]\nname = \"p\"\nmap = \"\"\"\n{map}\"\"\"\n{extra}")
}

#[test]
fn each_prefab_error_names_file_line_and_column() {
    let cases: Vec<(String, &str)> = vec![
        (entry("###\n#.\n###\n", ""), "regions/bad.toml:5:3: prefab 'p': map: row 2 is 2 glyphs long but row 1 is 3"),
        (entry("###\n#.##\n###\n", ""), "regions/bad.toml:5:4: prefab 'p': map: row 2 is 4 glyphs long but row 1 is 3"),
        (entry("###\n#x#\n###\n", ""), "regions/bad.toml:5:2: prefab 'p': map: glyph 'x' (row 2, column 2) is not in the legend"),
        (entry("", ""), "regions/bad.toml:3:7: prefab 'p': map is empty"),
        (entry("#T#\n", "[prefab.legend]\nT = \"flor\"\n"), "regions/bad.toml:7:5: prefab 'p': legend.T = 'flor' is not a terrain; did you mean 'floor'?"),
        (entry("#T#\n", "[prefab.legend]\nTT = \"floor\"\n"), "regions/bad.toml:7:6: prefab 'p': legend key \"TT\" must be exactly one character"),
        (entry("###\n", "weight = -1\n"), "regions/bad.toml:6:10: prefab 'p': weight = -1 is not a valid weight"),
        (entry("###\n", "min_depth = 9\nmax_depth = 3\n"), "regions/bad.toml:6:13: min_depth = 9 must not exceed max_depth = 3"),
        (entry("###\n", "max_depth = 2000\n"), "regions/bad.toml:6:13: prefab 'p': max_depth = 2000 is out of range (1..=1000)"),
        (entry("###\n", "rotat = false\n"), "regions/bad.toml:6:1: prefab 'p': unknown key 'rotat'; did you mean 'rotate'?"),
        (entry("#$#\n", "[[prefab.subst]]\nglyph = \"$\"\ncount = 2\nbecomes = \".\"\nrest = \"#\"\n"), "regions/bad.toml:8:9: prefab 'p': subst #1: count = 2, but the map has only 1 cell(s) of '$'"),
        (entry("#$#\n", "[[prefab.subst]]\nglyph = \"$\"\none_of = \".Q\"\n"), "regions/bad.toml:8:10: prefab 'p': subst #1: one_of = \".Q\": 'Q' is not in the legend nor built in"),
        (entry("#$#\n", "[[prefab.subst]]\nglyph = \"$\"\none_of = \".\"\nper = \"cel\"\n"), "regions/bad.toml:9:7: prefab 'p': subst #1: per = 'cel' is not cell or placement; did you mean 'cell'?"),
        (entry("#$#\n", "[[prefab.subst]]\nglyph = \"$\"\none_of = \".\"\ncount = 1\n"), "regions/bad.toml:9:9: prefab 'p': subst #1 has both one_of and count; give one"),
        (entry("#$#\n", "[[prefab.subst]]\nglyph = \"$\"\ncount = 1\n"), "prefab 'p': subst #1 has count but no becomes"),
        (entry("#$#\n", "[[prefab.subst]]\nglyph = \"$\"\none_of = \"?\"\n[[prefab.subst]]\nglyph = \"?\"\none_of = \".\"\n[prefab.legend]\n\"?\" = \"floor\"\n"), "regions/bad.toml:8:10: prefab 'p': subst #1: one_of produces '?', which subst #2 substitutes; substitutions do not chain"),
        (entry("#.#\n#+#\n###\n", "connect = \"+\"\n"), "regions/bad.toml:5:2: prefab 'p': map: this '+' is an entrance (connect) but not on the map's border"),
        (entry("#.#\n", "connect = \"#\"\n"), "regions/bad.toml:6:11: prefab 'p': connect: glyph '#' is not a cell a walker may stand on"),
        (entry("#.#\n", "connect = \"+\"\n"), "regions/bad.toml:6:11: prefab 'p': connect: glyph '+' is not in the map"),
        (entry("#.#\n", "tags = [\"\"]\n"), "regions/bad.toml:6:9: prefab 'p': tags #1 is empty"),
        (format!("{}{}", entry("#\n", ""), entry("#\n", "")), "prefab 'p' is already defined"),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .map(|(text, expected)| (load_err(text), expected))
        .filter(|(e, expected)| !e.contains(*expected))
        .map(|(e, expected)| format!("expected {expected:?} in:\n{e}"))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

mod placing {
    use std::sync::Arc;
    use warren_core::gen::area::Area;
    use warren_core::gen::bsp::{self, BspRooms, RoomBrushes};
    use warren_core::gen::connectivity::components;
    use warren_core::gen::meter::Unmetered;
    use warren_core::gen::prefab::{place, Cell, Fit, PlaceRequest, Placed, PrefabBrushes};
    use warren_core::map::{Adjacency, Brush, Map, Point, Rect};
    use warren_core::region::{Registry, Source};
    use warren_core::rng::Rng;

    const REGIONS: &str = r##"
[[terrain]]
name = "rock"
glyph = "#"
color = "#505050"
solid = true
[[terrain]]
name = "floor"
glyph = "."
color = "#c0c0c0"
solid = false
[[terrain]]
name = "door"
glyph = "+"
color = "#a06030"
solid = false
[[terrain]]
name = "statue"
glyph = "T"
color = "#ffffff"
solid = true
[[terrain]]
name = "altar"
glyph = "_"
color = "#ffff00"
solid = false

[[prefab]]
name = "ell"
tags = ["small", "odd"]
map = """
##+#  
#..#  
#..###
#....#
######
"""

[[prefab]]
name = "statues"
tags = ["small"]
max_depth = 5
connect = "+"
map = """
###+###
#.$.$.#
#.$.$.#
#######
"""
[prefab.legend]
T = "statue"
[[prefab.subst]]
glyph = "$"
count = 2
becomes = "T"
rest = "."

[[prefab]]
name = "deep shrine"
tags = ["small"]
min_depth = 6
rotate = false
mirror = false
map = """
#+#
#_#
###
"""
[prefab.legend]
"_" = "altar"

[[prefab]]
name = "hall"
tags = ["big"]
map = """
?????????
?.......?
?.T...T.?
?.......?
????+????
"""
[prefab.legend]
T = "statue"
[[prefab.subst]]
glyph = "?"
one_of = "#T"
per = "placement"
"##;

    fn registry() -> Arc<Registry> {
        let source = Source {
            path: "regions/vaults.toml".into(),
            text: REGIONS.into(),
        };
        Arc::new(Registry::from_sources(vec![source]).expect("test regions load"))
    }

    /// A 60×40 level of rock with BSP rooms in its left half (the right half stays rock).
    fn level(reg: &Registry, seed: u64) -> Map {
        let t = reg.terrains();
        let mut map = Map::new(60, 40, 0, t.clone()).unwrap();
        let floor = Brush::new(t.id("floor").unwrap());
        let brushes = RoomBrushes {
            floor: &floor,
            corridor: &floor,
        };
        let opts = BspRooms {
            min_leaf: 8,
            min_room: 3,
            max_room: None,
        };
        let left = Area::Rect(Rect::new(1, 1, 28, 38));
        bsp::rooms(
            &mut map,
            left,
            &opts,
            &mut Rng::new(seed),
            brushes,
            &mut Unmetered,
        )
        .unwrap();
        map
    }

    struct Run {
        map: Map,
        placed: Vec<Placed>,
    }

    fn run(seed: u64, depth: u32, include: &[&str], fit: Fit, area: Area<'_>, count: usize) -> Run {
        let reg = registry();
        let mut map = level(&reg, seed);
        let t = reg.terrains();
        let (floor, wall, door) = (
            Brush::new(t.id("floor").unwrap()).priority(100),
            Brush::new(t.id("rock").unwrap()).priority(100),
            Brush::new(t.id("door").unwrap()).priority(100),
        );
        let corridor = Brush::new(t.id("floor").unwrap()).priority(70);
        let include: Vec<String> = include.iter().map(|s| s.to_string()).collect();
        let req = PlaceRequest {
            depth,
            include: &include,
            exclude: &[],
            count,
            tries: 20,
            unique: false,
            fit,
            adjacency: Adjacency::Eight,
        };
        let brushes = PrefabBrushes {
            floor: &floor,
            wall: &wall,
            door: &door,
            corridor: &corridor,
        };
        let placed = place(
            &mut map,
            area,
            &reg.resolved.prefabs,
            &req,
            brushes,
            &mut Rng::new(seed).stream("vaults"),
            &mut Unmetered,
        )
        .unwrap();
        Run { map, placed }
    }

    fn cells_of(map: &Map, rect: Rect, terrain: &str) -> usize {
        let id = map.terrains().id(terrain).unwrap();
        rect.cells()
            .filter(|&p| map.terrain_at(p).unwrap() == id)
            .count()
    }

    #[test]
    fn vaults_in_free_space_keep_the_level_whole_and_respect_depth_and_tags() {
        let mut placed = std::collections::BTreeMap::new();
        for seed in 0..1000 {
            let depth = (seed % 10 + 1) as u32;
            let r = run(seed, depth, &["small"], Fit::Free, Area::Map, 3);
            assert_eq!(
                components(&r.map, Adjacency::Eight).len(),
                1,
                "seed {seed}: the level fell apart\n{}",
                r.map.to_ascii()
            );
            assert!(!r.placed.is_empty(), "seed {seed}: nothing placed");
            for p in &r.placed {
                *placed.entry(p.name.clone()).or_insert(0) += 1;
                match p.name.as_str() {
                    "statues" => {
                        assert!(depth <= 5, "seed {seed}: statues at depth {depth}");
                        assert_eq!(cells_of(&r.map, p.rect, "statue"), 2, "seed {seed}");
                    }
                    "deep shrine" => {
                        assert!(depth >= 6, "seed {seed}: deep shrine at depth {depth}");
                        assert_eq!((p.rect.w, p.rect.h), (3, 3));
                        assert_eq!(cells_of(&r.map, p.rect, "altar"), 1);
                    }
                    "ell" => {}
                    other => panic!("seed {seed}: {other} is not tagged small"),
                }
                let region = r
                    .map
                    .region_names()
                    .iter()
                    .position(|n| *n == p.name)
                    .unwrap() as u16;
                assert!(
                    p.rect
                        .cells()
                        .filter(|&c| r.map.region_at(c).unwrap() == region)
                        .count()
                        >= 9
                );
            }
        }
        assert_eq!(placed.len(), 3, "every small vault is placed: {placed:?}");
    }

    #[test]
    fn turned_and_mirrored_vaults_have_the_shape_of_their_orientation() {
        let reg = registry();
        let ell = reg
            .resolved
            .prefabs
            .iter()
            .find(|p| p.name == "ell")
            .unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..1000 {
            let r = run(seed, 1, &["odd"], Fit::Free, Area::Map, 1);
            let [p] = &r.placed[..] else {
                panic!("seed {seed}: {:?}", r.placed)
            };
            seen.insert((p.orientation.turns, p.orientation.mirror));
            let g = ell.glyphs.oriented(p.orientation);
            assert_eq!((p.rect.w, p.rect.h), (g.width, g.height));
            for y in 0..g.height {
                for x in 0..g.width {
                    let at = Point::new(p.rect.x + x, p.rect.y + y);
                    let t = r
                        .map
                        .terrains()
                        .get(r.map.terrain_at(at).unwrap())
                        .name
                        .clone();
                    let want = match ell.legend[&g.get(x, y)] {
                        Cell::Wall => "rock",
                        Cell::Floor => "floor",
                        Cell::Door => "door",
                        _ => continue,
                    };
                    assert_eq!(t, want, "seed {seed} at ({x}, {y}) of {:?}", p.orientation);
                }
            }
        }
        assert_eq!(seen.len(), 8, "all eight orientations: {seen:?}");
    }

    #[test]
    fn vaults_inside_a_room_keep_the_level_whole_or_are_not_placed() {
        let mut kept = 0;
        for seed in 0..1000 {
            let reg = registry();
            let map = level(&reg, seed);
            let room = map
                .notes
                .rooms
                .iter()
                .max_by_key(|r| r.rect.w * r.rect.h)
                .unwrap()
                .rect;
            let r = run(seed, 1, &[], Fit::Inside, Area::Rect(room), 2);
            assert_eq!(
                components(&r.map, Adjacency::Eight).len(),
                1,
                "seed {seed}\n{}",
                r.map.to_ascii()
            );
            for p in &r.placed {
                assert!(room.contains(Point::new(p.rect.x, p.rect.y)));
                assert!(room.contains(Point::new(p.rect.x2(), p.rect.y2())));
            }
            kept += r.placed.len();
        }
        assert!(kept > 500, "vaults fit inside rooms: {kept}");
    }

    #[test]
    fn placement_is_deterministic_per_seed() {
        for seed in 0..50 {
            let a = run(seed, 3, &[], Fit::Free, Area::Map, 4);
            let b = run(seed, 3, &[], Fit::Free, Area::Map, 4);
            assert_eq!(a.map.terrain_cells(), b.map.terrain_cells());
            assert_eq!(a.placed, b.placed);
        }
    }
}
