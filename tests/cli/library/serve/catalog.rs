//! `warren::serve::catalog` (src/serve/catalog.rs): the recipes `warren serve` offers.

use warren::serve::catalog::Catalog;

#[test]
fn lists_the_recipes_beside_the_start_one_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let scripts = dir.path().join("scripts");
    std::fs::create_dir_all(scripts.join("lib")).unwrap();
    for f in ["b.lua", "a.lua", "notes.txt", ".hidden.lua", "lib/m.lua"] {
        std::fs::write(scripts.join(f), "").unwrap();
    }
    let start = scripts.join("b.lua");
    let catalog = Catalog::beside(&start);
    let shown = |n: &str| scripts.join(n).display().to_string();
    assert_eq!(catalog.list(), [shown("a.lua"), shown("b.lua")]);
    assert_eq!(catalog.start(), shown("b.lua"));
    assert_eq!(catalog.find(&shown("a.lua")), Some(scripts.join("a.lua")));
    // A bare name is not a listed path; modules, other files and paths out of the
    // directory are refused however they are spelled.
    assert_eq!(catalog.find("a.lua"), None);
    for refused in ["lib/m.lua", "notes.txt", "../b.lua", ""] {
        assert_eq!(catalog.find(refused), None, "{refused}");
        assert_eq!(catalog.find(&shown(refused)), None, "{refused}");
    }
    // A recipe saved later is offered; the start recipe stays even if it is gone.
    std::fs::write(scripts.join("c.lua"), "").unwrap();
    std::fs::remove_file(&start).unwrap();
    assert_eq!(
        catalog.list(),
        [shown("a.lua"), shown("b.lua"), shown("c.lua")]
    );
}
