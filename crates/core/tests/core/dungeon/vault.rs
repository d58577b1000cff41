//! Unit tests of step 3: vaults.

use crate::dungeon::test_support::{blank, render, FLOOR, ROCK, VAULT_WALL};
use warren_core::gen::dungeon::{place_vault, Panels, VaultGlyph, VaultGrid};
use warren_core::gen::meter::Unmetered;
use warren_core::map::{priority, DoorKind, DoorState, Point};
use warren_core::rng::Rng;

fn legend(c: char) -> Option<VaultGlyph> {
    match c {
        '#' => Some(VaultGlyph::Terrain(VAULT_WALL)),
        '.' => Some(VaultGlyph::Terrain(FLOOR)),
        '+' => Some(VaultGlyph::Door(DoorKind::uniform("gate", ROCK))),
        _ => None,
    }
}

const SHRINE: &str = "\n#####\n#...#\n#.#.#\n##.##\n";

#[test]
fn grids_parse_and_bad_grids_name_row_and_column() {
    let v = VaultGrid::parse("shrine", SHRINE, legend).unwrap();
    assert_eq!((v.width, v.height), (5, 4));
    assert_eq!(v.cells[6], FLOOR);
    let e = VaultGrid::parse("x", "###\n#.\n", legend)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "vault 'x' grid row 2 is 2 glyphs long; valid: 3 glyphs, like row 1"
    );
    let e = VaultGrid::parse("x", "#.#\n#Z#", legend)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "vault 'x' grid row 2, column 2 is 'Z'; valid: a glyph of the vault's legend"
    );
    assert!(VaultGrid::parse("x", "\n", legend).is_err());
}

#[test]
fn sealed_interiors_are_found() {
    let table = blank(1, 1).terrains().clone();
    let open = VaultGrid::parse("o", SHRINE, legend).unwrap();
    assert_eq!(open.sealed_cell(&table), None);
    let sealed = VaultGrid::parse("s", "#####\n#...#\n#####", legend).unwrap();
    assert_eq!(sealed.sealed_cell(&table), Some((2, 2)));
    let diagonal = VaultGrid::parse("d", "##.\n#.#\n###", legend).unwrap();
    assert_eq!(diagonal.sealed_cell(&table), None);
    // A door (drawn with a solid terrain) lets corridors in.
    let door = VaultGrid::parse("g", "#####\n#...+\n#####", legend).unwrap();
    assert_eq!(door.doors.len(), 1);
    assert_eq!(door.sealed_cell(&table), None);
}

#[test]
fn vaults_go_in_unused_panels_clear_of_stairs_and_edges() {
    let panels = Panels::new(96, 64, 32, 32).unwrap();
    let v = VaultGrid::parse("shrine", SHRINE, legend).unwrap();
    for seed in 0..200 {
        let mut map = blank(96, 64);
        let mut used = vec![false; panels.len()];
        used[0] = true;
        let avoid = [Point::new(40, 10)];
        let placed = place_vault(
            &mut map,
            &mut Rng::new(seed),
            &panels,
            &mut used,
            &v,
            &avoid,
            &mut Unmetered,
        )
        .unwrap()
        .expect("room for a small vault");
        let r = placed.rect;
        assert_eq!(placed.panels.len(), 1);
        assert_ne!(placed.panels[0], Point::new(0, 0), "used panel reused");
        assert!(used[panels.index(placed.panels[0])]);
        assert!(!r.contains(avoid[0]));
        let block = panels.rect(placed.panels[0]);
        assert!(
            r.x >= block.x + 2 && r.x2() <= block.x2() - 2,
            "{r:?} in {block:?}"
        );
        for p in r.cells() {
            assert_eq!(map.priority_at(p).unwrap(), priority::VAULT);
            assert_eq!(map.region_name(map.region_at(p).unwrap()), "shrine");
        }
        assert_eq!(&*map.notes.rooms[0].kind, "vault");
        assert_eq!(map.notes.rooms[0].rect, r);
        let floors = r
            .cells()
            .filter(|&p| map.terrain_at(p).unwrap() == FLOOR)
            .count();
        assert_eq!(floors, 6, "{}", render(&map));
    }
}

#[test]
fn a_vault_door_is_a_closed_door_of_its_kind() {
    let panels = Panels::new(64, 64, 32, 32).unwrap();
    let v = VaultGrid::parse("gatehouse", "#####\n#...+\n#####", legend).unwrap();
    let mut map = blank(64, 64);
    let mut used = vec![false; panels.len()];
    let placed = place_vault(
        &mut map,
        &mut Rng::new(4),
        &panels,
        &mut used,
        &v,
        &[],
        &mut Unmetered,
    )
    .unwrap()
    .expect("room for it");
    let [door] = &map.notes.doors[..] else {
        panic!("one door: {:?}", map.notes.doors);
    };
    assert!(placed.rect.contains(door.at()));
    assert_eq!(door.state, DoorState::Closed);
    assert_eq!(door.kind.as_deref(), Some("gate"));
    assert!(map.is_door(door.at()).unwrap() && map.is_passable(door.at()).unwrap());
    assert_eq!(map.priority_at(door.at()).unwrap(), priority::VAULT);
}

#[test]
fn a_vault_too_big_or_without_free_panels_is_not_placed() {
    let panels = Panels::new(64, 64, 32, 32).unwrap();
    let mut map = blank(64, 64);
    // How many panels `vault` takes on `map` (seed `seed`), or `None` where it does not fit.
    let mut place = |seed, used: &mut [bool], vault: &VaultGrid| {
        let placed = place_vault(
            &mut map,
            &mut Rng::new(seed),
            &panels,
            used,
            vault,
            &[],
            &mut Unmetered,
        );
        placed.map(|p| p.map(|p| p.panels.len()))
    };
    let big = VaultGrid {
        name: "big".into(),
        width: 61,
        height: 10,
        cells: vec![ROCK; 610],
        doors: Vec::new(),
    };
    let mut used = vec![false; 4];
    assert_eq!(place(1, &mut used, &big).unwrap(), None);
    let wide = VaultGrid {
        width: 40,
        cells: vec![ROCK; 400],
        ..big
    };
    assert_eq!(place(1, &mut used, &wide).unwrap(), Some(2));
    assert_eq!(place(2, &mut used, &wide).unwrap(), Some(2));
    assert!(used.iter().all(|&u| u));
    assert_eq!(place(3, &mut used, &wide).unwrap(), None);
    assert!(place(3, &mut [false], &wide).is_err());
}
