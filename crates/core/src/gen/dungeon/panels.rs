//! Incursion's panel grid (seed 003, "Panel System"): the level is cut into equal panels, each
//! holding at most one room or part of one vault, and the level is prepared as rock inside an
//! indestructible edge (seed 003, "Step 1").

use super::DungeonError;
use crate::gen::meter::Meter;
use crate::map::{priority, Brush, Map, Point, Rect, TerrainId};

/// The most panels across or down (Incursion keeps one bit per panel in a 32-bit word).
pub const MAX_PANELS: i32 = 32;
/// The smallest panel side: a lifecave keeps a 3-cell margin and needs room inside it.
pub const MIN_PANEL: i32 = 8;
/// The largest panel side.
pub const MAX_PANEL: i32 = 256;

/// How a level is divided into panels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panels {
    /// Panel width in cells.
    pub panel_width: i32,
    /// Panel height in cells.
    pub panel_height: i32,
    /// Panels across the level.
    pub across: i32,
    /// Panels down the level.
    pub down: i32,
}

impl Panels {
    /// The panel grid of a `width × height` level with panels of `panel_width × panel_height`:
    /// the level must divide evenly and give at most [`MAX_PANELS`] panels each way.
    pub fn new(
        width: i32,
        height: i32,
        panel_width: i32,
        panel_height: i32,
    ) -> Result<Panels, DungeonError> {
        for (name, v) in [("panel_width", panel_width), ("panel_height", panel_height)] {
            if !(MIN_PANEL..=MAX_PANEL).contains(&v) {
                return Err(DungeonError::bad(
                    name,
                    v,
                    format!("{MIN_PANEL}..={MAX_PANEL}"),
                ));
            }
        }
        for (name, side, panel, panel_name) in [
            ("level width", width, panel_width, "panel_width"),
            ("level height", height, panel_height, "panel_height"),
        ] {
            if side < panel || side % panel != 0 {
                return Err(DungeonError::bad(
                    name,
                    side,
                    format!(
                        "a multiple of {panel_name} = {panel} (e.g. {}, {})",
                        panel * (side / panel).max(1),
                        panel * (side / panel + 1)
                    ),
                ));
            }
            if side / panel > MAX_PANELS {
                return Err(DungeonError::bad(
                    name,
                    side,
                    format!(
                        "at most {MAX_PANELS} panels of {panel} cells ({}); use larger panels",
                        MAX_PANELS * panel
                    ),
                ));
            }
        }
        Ok(Panels {
            panel_width,
            panel_height,
            across: width / panel_width,
            down: height / panel_height,
        })
    }

    /// The cells of panel `p` (in panel coordinates).
    pub fn rect(&self, p: Point) -> Rect {
        Rect::new(
            p.x * self.panel_width,
            p.y * self.panel_height,
            self.panel_width,
            self.panel_height,
        )
    }

    /// Every panel, column by column (Incursion's `for x … for y …` order).
    pub fn all(&self) -> Vec<Point> {
        (0..self.across)
            .flat_map(|x| (0..self.down).map(move |y| Point::new(x, y)))
            .collect()
    }

    /// The index of panel `p` in [`Panels::all`].
    pub fn index(&self, p: Point) -> usize {
        (p.x * self.down + p.y) as usize
    }

    /// Number of panels.
    pub fn len(&self) -> usize {
        (self.across * self.down) as usize
    }

    /// Whether there are no panels (never true for a grid made by [`Panels::new`]).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A level's panel grid and which panels are taken (by a vault, or by the recipe), as the
/// phases after [`init_level`] share it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelPanels {
    /// The panel grid.
    pub panels: Panels,
    /// Whether each panel is taken, by [`Panels::index`].
    pub used: Vec<bool>,
}

impl LevelPanels {
    /// A level with every panel free.
    pub fn new(panels: Panels) -> LevelPanels {
        LevelPanels {
            used: vec![false; panels.len()],
            panels,
        }
    }

    /// The panels not taken, in [`Panels::all`] order.
    pub fn free_panels(&self) -> Vec<Point> {
        let all = self.panels.all();
        all.into_iter()
            .filter(|&p| !self.used[self.panels.index(p)])
            .collect()
    }

    /// Whether panel `p` (in panel coordinates) is taken; an error when it is off the grid.
    pub fn is_used(&self, p: Point) -> Result<bool, DungeonError> {
        Ok(self.used[self.checked(p)?])
    }

    /// Marks panel `p` taken; an error when it is off the grid.
    pub fn use_panel(&mut self, p: Point) -> Result<(), DungeonError> {
        let i = self.checked(p)?;
        self.used[i] = true;
        Ok(())
    }

    fn checked(&self, p: Point) -> Result<usize, DungeonError> {
        let (across, down) = (self.panels.across, self.panels.down);
        if (0..across).contains(&p.x) && (0..down).contains(&p.y) {
            Ok(self.panels.index(p))
        } else {
            Err(DungeonError::bad(
                "panel",
                format!("({}, {})", p.x, p.y),
                format!(
                    "x 0..={}, y 0..={} (the {across}×{down} panel grid)",
                    across - 1,
                    down - 1
                ),
            ))
        }
    }
}

/// Step 1: makes `map` a fresh `width × height` level of `rock` inside a ring of `edge`
/// (priority MAX, forced), and returns its panel grid. Nothing is changed when the sizes are
/// invalid. The level's cells are reported to `meter`.
// Incursion writes the rock at PRIO_EMPTY; a fresh map's priority 0 lies below it and loses to
// every prioritised write just the same, without a pass over the whole level.
pub fn init_level(
    map: &mut Map,
    width: i32,
    height: i32,
    panel_size: (i32, i32),
    rock: TerrainId,
    edge: TerrainId,
    meter: &mut dyn Meter,
) -> Result<Panels, DungeonError> {
    let panels = Panels::new(width, height, panel_size.0, panel_size.1)?;
    meter.work(width as u64 * height as u64)?;
    map.reset(width as i64, height as i64, rock)?;
    let ring = Brush::new(edge).priority(priority::MAX).forced();
    map.outline_rect(&Rect::new(0, 0, width, height), &ring)?;
    Ok(panels)
}
