//! Golden maps: fixed seeds must keep producing exactly these maps, each shipped recipe's listed
//! in `tests/golden/cases.list` (which CI also checks the profile-guided build's binary against).
//! A change here changes every user's seeds; when it is intended, regenerate with
//! `WARREN_BLESS=1 cargo test --test lua golden` and say so in the changelog.

use crate::common::*;
use std::collections::BTreeSet;

/// The list of cases, beside the maps.
const CASES: &str = "tests/golden/cases.list";

/// One golden map (one line of [`CASES`]).
struct Case {
    /// The shipped recipe, in `scripts/`.
    script: String,
    /// The run's seed.
    seed: u64,
    /// Its `--set` values.
    sets: Vec<(String, String)>,
    /// The file of `tests/golden/` that holds the map.
    file: String,
}

/// The cases of [`CASES`], in its order; a line that cannot be read fails the test with its
/// place.
fn cases() -> Vec<Case> {
    let path = root().join(CASES);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = format!("{CASES}:{}", n + 1);
        let line = line.split_once('#').map_or(line, |(data, _)| data);
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [script, seed, settings, file] = fields[..] else {
            assert!(
                fields.is_empty(),
                "{at}: expected recipe, seed, settings, golden file"
            );
            continue;
        };
        let seed = seed
            .parse()
            .unwrap_or_else(|e| panic!("{at}: seed {seed:?}: {e}"));
        let sets = match settings {
            "-" => Vec::new(),
            _ => settings
                .split(',')
                .map(|kv| match kv.split_once('=') {
                    Some((k, v)) => (k.to_string(), v.to_string()),
                    None => panic!("{at}: setting {kv:?} is not key=value"),
                })
                .collect(),
        };
        cases.push(Case {
            script: script.to_string(),
            seed,
            sets,
            file: file.to_string(),
        });
    }
    cases
}

#[test]
fn fixed_seeds_keep_their_maps() {
    let bless = std::env::var_os("WARREN_BLESS").is_some();
    for Case {
        script,
        seed,
        sets,
        file,
    } in cases()
    {
        let host = host(&script);
        let params = host.resolve_params(&sets).expect("params resolve");
        let map = generate(&host, seed, &params);
        let text = warren_core::render::text::ascii(&warren_core::render::View::terrain(&map));
        let path = root().join("tests/golden").join(&file);
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

/// Every map in `tests/golden/` is one case's, and no two cases share a file: a map left out
/// of the list would no longer be checked, by the tests or by CI's profile-guided build. (A
/// listed map that is missing fails [`fixed_seeds_keep_their_maps`] instead: a bless run makes
/// it meanwhile, and must not fail here.)
#[test]
fn every_golden_map_is_listed_once() {
    let mut listed = BTreeSet::new();
    for case in cases() {
        assert!(
            listed.insert(case.file.clone()),
            "{CASES}: {} twice",
            case.file
        );
    }
    let dir = root().join("tests/golden");
    let on_disk: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".txt"))
        .collect();
    let unlisted: Vec<_> = on_disk.difference(&listed).collect();
    assert!(
        unlisted.is_empty(),
        "maps in tests/golden/ that {CASES} does not list: {unlisted:?}"
    );
}
