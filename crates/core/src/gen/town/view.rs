//! What a town looks like: the display grid (`showmaze`), the debug view (`showdebugmaze`) and
//! a structured description of rooms, gates and streets.

use super::grid::{Heading, HDOOR, VDOOR};
use super::{CellStatus, Town};
use crate::map::{Point, Rect};
use serde::Serialize;

/// A room: one non-street, non-unused cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TownRoom {
    /// The cell with its walls, in display coordinates (3 × 3, the centre is the floor), so
    /// the door lies on its outline.
    pub rect: Rect,
    /// Its doors in display coordinates; exactly one once doors are closed.
    pub doors: Vec<Point>,
}

/// The structure of a town, in display coordinates, each list in row-major order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TownLayout {
    /// Rooms (cells that are neither streets nor unused).
    pub rooms: Vec<TownRoom>,
    /// Open gates: doors in the town wall.
    pub gates: Vec<Point>,
    /// Centres of street cells.
    pub streets: Vec<Point>,
}

impl Town {
    /// The display grid, `height` rows of `width` characters, row-major.
    pub fn chars(&self) -> &[u8] {
        &self.chars
    }

    /// The display grid as text, one line per row, each ending in a newline (`showmaze`).
    pub fn render(&self) -> String {
        self.render_with(|_, c| c)
    }

    /// The debug view (`showdebugmaze`): like [`Town::render`], but every cell centre shows the
    /// cell's status letter (`I L D U`), or for a street the way it runs (`^ > v <`, `X` if none).
    pub fn render_debug(&self) -> String {
        let grid = self.grid;
        self.render_with(|i, c| {
            let (x, y) = (i % grid.width(), i / grid.width());
            if x % 2 == 0 || y % 2 == 0 {
                return c;
            }
            let cell = (y / 2) * grid.cols + x / 2;
            match self.status_of(cell) {
                CellStatus::Street => self.heading[cell].map_or('X', Heading::arrow),
                status => status.letter(),
            }
        })
    }

    fn render_with(&self, glyph: impl Fn(usize, char) -> char) -> String {
        let width = self.grid.width();
        let mut out = String::with_capacity(self.chars.len() + self.grid.height());
        for (i, &c) in self.chars.iter().enumerate() {
            out.push(glyph(i, c as char));
            if (i + 1) % width == 0 {
                out.push('\n');
            }
        }
        out
    }

    /// Rooms with their doors, open gates and street cells.
    pub fn layout(&self) -> TownLayout {
        let streets = self.lists.size(super::STREET);
        let mut layout = TownLayout {
            gates: self.gates(),
            ..TownLayout::default()
        };
        layout.rooms.reserve_exact(self.room_count());
        layout.rooms.extend(self.rooms());
        layout.streets.reserve_exact(streets);
        let grid = self.grid;
        layout.streets.extend(
            (0..grid.len())
                .filter(|&cell| self.status_of(cell) == CellStatus::Street)
                .map(|cell| grid.centre(cell)),
        );
        layout
    }

    /// The open gates in display coordinates, row-major ([`TownLayout::gates`]).
    pub fn gates(&self) -> Vec<Point> {
        let grid = self.grid;
        let mut gates: Vec<Point> = self
            .gate_indices()
            .into_iter()
            .map(|i| grid.point(i))
            .collect();
        gates.sort_by_key(|p| (p.y, p.x));
        gates
    }

    /// How many rooms [`Town::rooms`] gives: the cells that are neither streets nor unused.
    pub fn room_count(&self) -> usize {
        let (streets, unused) = (
            self.lists.size(super::STREET),
            self.lists.size(super::UNUSED),
        );
        self.grid.len() - streets - unused
    }

    /// The rooms with their doors, row-major ([`TownLayout::rooms`]), each made as it is
    /// reached.
    pub fn rooms(&self) -> impl Iterator<Item = TownRoom> + '_ {
        let grid = self.grid;
        (0..grid.len())
            .filter(|&cell| {
                !matches!(
                    self.status_of(cell),
                    CellStatus::Street | CellStatus::Unused
                )
            })
            .map(move |cell| {
                let centre = grid.centre(cell);
                TownRoom {
                    rect: Rect::new(centre.x - 1, centre.y - 1, 3, 3),
                    doors: Heading::ALL
                        .iter()
                        .map(|&h| grid.wall_index(cell, h))
                        .filter(|&i| matches!(self.chars[i], HDOOR | VDOOR))
                        .map(|i| grid.point(i))
                        .collect(),
                }
            })
    }
}
