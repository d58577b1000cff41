//! Unit tests of a town's cell geometry (`CellGrid`).

use warren_core::gen::town::grid::{CellEdges, CellGrid};
use warren_core::gen::town::{Heading, HDOOR, VDOOR};
use warren_core::map::Point;
#[test]
fn neighbours_stop_at_the_border() {
    let g = CellGrid::for_chars(11, 13);
    assert_eq!((g.rows, g.cols, g.len()), (5, 6, 30));
    assert_eq!(g.neighbour(0, Heading::North), None);
    assert_eq!(g.neighbour(0, Heading::West), None);
    assert_eq!(g.neighbour(0, Heading::East), Some(1));
    assert_eq!(g.neighbour(0, Heading::South), Some(6));
    assert_eq!(g.neighbour(29, Heading::South), None);
    assert_eq!(g.neighbours(7).count(), 4);
    assert!(g.is_interior(7) && !g.is_interior(6) && !g.is_interior(5));
    assert_eq!(g.corners(), [0, 5, 24, 29]);
}

#[test]
fn cells_and_walls_map_to_display_positions() {
    let g = CellGrid::for_chars(11, 13);
    assert_eq!(g.centre(7), Point::new(3, 3));
    assert_eq!(g.point(g.centre_index(7)), Point::new(3, 3));
    assert_eq!(g.point(g.wall_index(7, Heading::North)), Point::new(3, 2));
    assert_eq!(g.point(g.wall_index(7, Heading::East)), Point::new(4, 3));
    assert_eq!(g.point(g.wall_index(7, Heading::South)), Point::new(3, 4));
    assert_eq!(g.point(g.wall_index(7, Heading::West)), Point::new(2, 3));
    assert_eq!(g.cell(4, 5), Some(29));
    assert_eq!(g.cell(5, 0), None);
}

#[test]
fn headings_know_their_doors_and_arrows() {
    assert_eq!(Heading::North.door(), HDOOR);
    assert_eq!(Heading::West.door(), VDOOR);
    assert_eq!(Heading::East.opposite(), Heading::West);
    let arrows: String = Heading::ALL.iter().map(|h| h.arrow()).collect();
    assert_eq!(arrows, "^>v<");
}

/// The looked-up edges answer as the grid's arithmetic does, for every cell and heading of
/// grids one cell wide or high and larger, and a cell's walls are its wall indices.
#[test]
fn edges_agree_with_the_grid() {
    for (height, width) in [(3, 3), (3, 11), (11, 3), (5, 7), (11, 13), (21, 9)] {
        let g = CellGrid::for_chars(height, width);
        let edges = CellEdges::new(g);
        for cell in 0..g.len() {
            for h in Heading::ALL {
                assert_eq!(
                    edges.neighbour(cell, h),
                    g.neighbour(cell, h),
                    "{cell} {h:?}"
                );
            }
            assert!(edges.neighbours(cell).eq(g.neighbours(cell)), "{cell}");
            assert_eq!(edges.is_interior(cell), g.is_interior(cell), "{cell}");
            assert_eq!(
                g.walls(cell),
                Heading::ALL.map(|h| g.wall_index(cell, h)),
                "{cell}"
            );
        }
    }
}
