//! Wave function collapse, the overlapping model (Maxim Gumin's): the output is made only of the
//! `N × N` windows a small sample map contains (with their rotations and reflections when
//! asked), every window of the output one of them, appearing about as often as in the sample.
//!
//! The sample comes from region data (`[[sample]]`, resolved into a [`Sample`]). The patterns
//! are found once ([`Patterns`]); then an attempt fills the area's bounding rectangle, and on a
//! contradiction (a position no pattern fits) the attempt is retried, a bounded number of
//! times, drawing on from the same `rng` stream, so the outcome is still one per seed.
//!
//! Hand-written rather than taken from a crate: the attempt must draw from warren's `rng`
//! stream, charge its work to a [`Meter`] as it goes, and work inside an area of a map; the
//! crates on offer (`wfc`) draw from `rand`'s generators and run to the end unmetered.

// reached by the crate's tests (tests/core/), not API
#[doc(hidden)]
pub mod patterns;
mod solve;

pub use patterns::Patterns;

use super::area::Area;
use super::meter::{Batched, Meter};
use super::tool_error::ToolError;
use crate::map::{Brush, Map, Point, TerrainId};
use crate::rng::Rng;
use solve::{Outcome, Wave};

/// The largest side a sample may have.
pub const MAX_SAMPLE_SIDE: usize = 64;
/// The most distinct terrains a sample may use.
pub const MAX_SAMPLE_TERRAINS: usize = 255;
/// The most attempts after the first.
pub const MAX_RETRIES: u32 = 1000;

/// A sample map: the terrains it uses (its palette) and its cells as indices into them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sample {
    /// The sample's name, for messages.
    pub name: String,
    /// Columns, `1..=`[`MAX_SAMPLE_SIDE`].
    pub width: usize,
    /// Rows, `1..=`[`MAX_SAMPLE_SIDE`].
    pub height: usize,
    /// The palette: each distinct terrain once, in order of first appearance.
    pub terrains: Vec<TerrainId>,
    /// Row by row, the palette index of each cell.
    pub cells: Vec<u8>,
    /// Whether the sample tiles: its windows wrap round its edges.
    pub periodic: bool,
}

impl Sample {
    /// A sample from rows of terrain ids (equally long, at most [`MAX_SAMPLE_SIDE`] each way,
    /// at most [`MAX_SAMPLE_TERRAINS`] terrains); the message says what is wrong.
    pub fn from_rows(
        name: &str,
        rows: &[Vec<TerrainId>],
        periodic: bool,
    ) -> Result<Sample, String> {
        let width = rows.first().map_or(0, Vec::len);
        if width == 0 {
            return Err(format!("sample '{name}' is empty"));
        }
        if width > MAX_SAMPLE_SIDE || rows.len() > MAX_SAMPLE_SIDE {
            return Err(format!(
                "sample '{name}' is {width}×{}; samples are at most {MAX_SAMPLE_SIDE}×{MAX_SAMPLE_SIDE}",
                rows.len()
            ));
        }
        let mut terrains: Vec<TerrainId> = Vec::new();
        let mut cells = Vec::with_capacity(width * rows.len());
        for (y, row) in rows.iter().enumerate() {
            if row.len() != width {
                return Err(format!(
                    "sample '{name}' row {} is {} cells long; every row must be {width} long, like row 1",
                    y + 1,
                    row.len()
                ));
            }
            for &t in row {
                let i = match terrains.iter().position(|&u| u == t) {
                    Some(i) => i,
                    None if terrains.len() == MAX_SAMPLE_TERRAINS => {
                        return Err(format!(
                            "sample '{name}' uses more than {MAX_SAMPLE_TERRAINS} terrains"
                        ))
                    }
                    None => {
                        terrains.push(t);
                        terrains.len() - 1
                    }
                };
                cells.push(i as u8);
            }
        }
        Ok(Sample {
            name: name.to_string(),
            width,
            height: rows.len(),
            terrains,
            cells,
            periodic,
        })
    }
}

/// Which symmetric copies of each window count as patterns too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// The window turned by a quarter, a half and three quarters.
    pub rotate: bool,
    /// The window (and its turns) mirrored.
    pub reflect: bool,
}

impl Symmetry {
    /// The windows as they are.
    pub const NONE: Symmetry = Symmetry {
        rotate: false,
        reflect: false,
    };
    /// All eight turns and mirrors.
    pub const ALL: Symmetry = Symmetry {
        rotate: true,
        reflect: true,
    };
}

/// The patterns of `sample` with side `n` (2 or 3), under `symmetry`.
pub fn patterns(sample: &Sample, n: usize, symmetry: Symmetry) -> Result<Patterns, ToolError> {
    ToolError::check_range("wfc", "n", n as i64, (2, 3))?;
    if sample.width < n || sample.height < n {
        return Err(ToolError::TooSmall {
            what: format!("sample '{}'", sample.name),
            width: sample.width as i32,
            height: sample.height as i32,
            n,
        });
    }
    Ok(Patterns::extract(sample, n, symmetry))
}

/// The bytes `patterns` and a [`collapse`] filling a `width × height` rectangle with them hold.
pub fn bytes_for(patterns: &Patterns, width: i32, height: i32) -> usize {
    let positions = (width.max(0) as usize) * (height.max(0) as usize);
    solve::bytes_for(positions, patterns.len()) + patterns.bytes()
}

/// What a collapse did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Collapsed {
    /// Attempts made (1: the first succeeded).
    pub attempts: u32,
    /// Distinct patterns the sample gave.
    pub patterns: usize,
    /// Cells written.
    pub written: usize,
}

/// Fills the bounding rectangle of `area` with `patterns` (at least `N × N`), writing each
/// cell inside the area with the brush of its sample terrain (`brushes[i]` for palette index
/// `i` of the sample the patterns came from). On a contradiction the attempt starts again, at
/// most `retries` more times; then the error names the sample. Nothing is written unless an
/// attempt succeeds.
pub fn collapse(
    map: &mut Map,
    area: Area<'_>,
    patterns: &Patterns,
    retries: u32,
    rng: &mut Rng,
    brushes: &[Brush],
    meter: &mut dyn Meter,
) -> Result<Collapsed, ToolError> {
    ToolError::check_range("wfc", "retries", retries as i64, (0, MAX_RETRIES as i64))?;
    let scope = area.on(map)?;
    let b = scope.bounds;
    let n = patterns.n;
    if (b.w as usize) < n || (b.h as usize) < n {
        return Err(ToolError::TooSmall {
            what: "the area".into(),
            width: b.w,
            height: b.h,
            n,
        });
    }
    let (width, height) = (b.w as usize + 1 - n, b.h as usize + 1 - n);
    let mut meter = Batched::new(meter);
    for attempt in 1..=retries + 1 {
        let wave = Wave::new(patterns, width, height);
        let Outcome::Done(chosen) = wave.run(rng, &mut meter)? else {
            continue;
        };
        let mut written = 0;
        for y in 0..b.h as usize {
            for x in 0..b.w as usize {
                let p = Point::new(b.x + x as i32, b.y + y as i32);
                if !scope.contains(p.x, p.y) {
                    continue;
                }
                let (px, py) = (x.min(width - 1), y.min(height - 1));
                let pattern = &patterns.cells[chosen[px + py * width] as usize];
                let terrain = pattern[(x - px) + (y - py) * n];
                written += map.write(p, &brushes[terrain as usize])? as usize;
            }
        }
        meter.work((b.w * b.h) as u64)?;
        meter.finish()?;
        return Ok(Collapsed {
            attempts: attempt,
            patterns: patterns.len(),
            written,
        });
    }
    Err(ToolError::Contradiction {
        sample: patterns.sample.clone(),
        attempts: retries + 1,
    })
}
