use warren_core::gen::prefab::{Glyphs, GridProblem, Orientation};

fn rows(g: &Glyphs) -> Vec<String> {
    g.cells
        .chunks(g.width as usize)
        .map(|r| r.iter().collect())
        .collect()
}

#[test]
fn maps_parse_with_cell_positions_and_ragged_rows_are_located() {
    let (g, at) = Glyphs::parse("\nab\ncd\n").unwrap();
    assert_eq!((g.width, g.height), (2, 2));
    assert_eq!(at, [1, 2, 4, 5]);
    assert_eq!(
        Glyphs::parse("ab\nc\n"),
        Err(GridProblem::Ragged {
            row: 2,
            len: 1,
            width: 2,
            at: 4
        })
    );
    assert_eq!(
        Glyphs::parse("ab\nabc"),
        Err(GridProblem::Ragged {
            row: 2,
            len: 3,
            width: 2,
            at: 5
        })
    );
    assert_eq!(Glyphs::parse("\n"), Err(GridProblem::Empty));
    assert_eq!(Glyphs::parse(""), Err(GridProblem::Empty));
    let (g, _) = Glyphs::parse("ab\r\ncd\r\n").unwrap();
    assert_eq!(rows(&g), ["ab", "cd"]);
}

#[test]
fn turning_and_mirroring_give_the_symmetries_of_the_map() {
    let (g, _) = Glyphs::parse("abc\ndef").unwrap();
    let o = |turns, mirror| g.oriented(Orientation { turns, mirror });
    assert_eq!(rows(&o(1, false)), ["da", "eb", "fc"]);
    assert_eq!(rows(&o(2, false)), ["fed", "cba"]);
    assert_eq!(rows(&o(3, false)), ["cf", "be", "ad"]);
    assert_eq!(rows(&o(0, true)), ["cba", "fed"]);
    assert_eq!(rows(&o(1, true)), ["fc", "eb", "da"]);
    assert_eq!(o(4, false), g);
    assert_eq!(Orientation::allowed(true, true).len(), 8);
    assert_eq!(Orientation::allowed(false, true).len(), 2);
    assert_eq!(Orientation::allowed(true, false).len(), 4);
    assert_eq!(Orientation::allowed(false, false), [Orientation::default()]);
}
