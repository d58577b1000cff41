//! The measurements warren takes of every finished map.

use super::areas::{AreaCounter, Survey};
use super::open_bits::OpenBits;
use super::pack::{self, Packer};
use super::sweep::sweep;
use crate::gen::connectivity::{map_adjacency, Components, Connectivity};
use crate::map::{Adjacency, Map};

/// Names of the built-in measurements, in the order [`Measurer::measure`] returns them:
///
/// - `floor_fraction`: passable cells (neither solid nor a hazard, or a door) ÷ all cells;
/// - `components`: separate passable areas of the finished map, in the adjacency its fix-up
///   guaranteed (the map's `connectivity` tag, `"4"` or `"8"`; 8-neighbour when untagged);
/// - `dead_ends`: passable cells whose only way on is back (see [`super::dead_ends`]);
/// - `rooms`, `corridors`, `doors`, `spawns`: annotations the recipe recorded;
/// - `corridor_cells`: the recorded corridors' cells, added up (their total length);
/// - `stairs`: stairs up and down.
pub const BUILTIN: [&str; 9] = [
    "floor_fraction",
    "components",
    "dead_ends",
    "rooms",
    "corridors",
    "corridor_cells",
    "doors",
    "stairs",
    "spawns",
];

/// Reusable scratch for measuring many maps.
#[derive(Default)]
pub struct Measurer {
    open: OpenBits,
    /// The open bits surveyed for the area counter.
    survey: Survey,
    areas: AreaCounter,
    /// Labelling for maps counted 4-neighbour (the fast counter is 8-neighbour only).
    labels: Connectivity,
    components: Components,
}

impl Measurer {
    /// Fresh scratch; buffers grow on first use and are kept.
    pub fn new() -> Self {
        Self::default()
    }

    /// The [`BUILTIN`] measurements of `map`, in that order.
    ///
    /// The work is the same on every CPU, compiled once per instruction-set level and chosen
    /// here by what this CPU has (the results do not depend on it).
    pub fn measure(&mut self, map: &Map) -> [f64; BUILTIN.len()] {
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(avx2) = pack::Avx2::detect() {
                // SAFETY: the token proves the CPU has every feature `measure_avx2` enables.
                return unsafe { self.measure_avx2(map, avx2) };
            }
            self.measure_with(map, pack::Sse2)
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.measure_with(map, pack::Portable)
    }

    /// [`Self::measure`] compiled for CPUs with AVX2 (the features [`pack::Avx2::detect`]
    /// checks).
    ///
    /// # Safety
    /// The CPU must have those features (the token proves it; the function is `unsafe` only
    /// because Rust 1.85 requires it of `target_feature`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
    unsafe fn measure_avx2(&mut self, map: &Map, packer: pack::Avx2) -> [f64; BUILTIN.len()] {
        self.measure_with(map, packer)
    }

    /// Passable areas of `map` in its adjacency (`self.open` holds its passable cells).
    #[inline(always)]
    fn count_areas(&mut self, map: &Map) -> usize {
        match map_adjacency(map) {
            Adjacency::Eight => self.areas.count(&self.open, &self.survey),
            Adjacency::Four => {
                let adjacency = Adjacency::Four;
                self.labels.components(map, &mut self.components, adjacency);
                self.components.len()
            }
        }
    }

    /// The measurements, inlined into each caller so that it is compiled for the caller's CPU
    /// features; `packer` reads the cells with that level's vector instructions.
    #[inline(always)]
    pub fn measure_with(&mut self, map: &Map, packer: impl Packer) -> [f64; BUILTIN.len()] {
        self.open.load(map, packer);
        let dead_ends = sweep(&self.open, &mut self.survey);
        let notes = &map.notes;
        let corridor_cells: usize = notes.corridors.iter().map(|c| c.cells.len()).sum();
        [
            self.open.count() as f64 / map.len() as f64,
            self.count_areas(map) as f64,
            dead_ends as f64,
            notes.rooms.len() as f64,
            notes.corridors.len() as f64,
            corridor_cells as f64,
            notes.doors.len() as f64,
            (notes.stairs.up.len() + notes.stairs.down.len()) as f64,
            notes.spawns.len() as f64,
        ]
    }
}
