//! Module names and the search path `require` uses (`require.rs`).

use std::path::PathBuf;
use warren_lua::require::{search_path, segments};

#[test]
fn module_names_are_segments_inside_the_root() {
    assert_eq!(segments("lib.cave"), Some(vec!["lib", "cave"]));
    assert_eq!(segments("spec/helper"), Some(vec!["spec", "helper"]));
    assert_eq!(segments("lua-utils.x_1"), Some(vec!["lua-utils", "x_1"]));
    for bad in [
        "",
        "../x",
        "/etc/passwd",
        "a..b",
        "a.",
        ".a",
        "a//b",
        "a b",
        "a\\b",
    ] {
        assert_eq!(segments(bad), None, "{bad}");
    }
}

#[test]
fn the_search_path_names_both_templates_in_every_root() {
    let roots = [PathBuf::from("scripts"), PathBuf::from("/abs/lib/")];
    assert_eq!(
        search_path(&roots),
        "scripts/?.lua;scripts/?/init.lua;/abs/lib/?.lua;/abs/lib/?/init.lua"
    );
}
