//! What primitives pay: instruction-equivalents for the work they do in Rust (so a loop of
//! cheap-looking calls that each fill a large map still runs out of budget), and bytes for the
//! annotations they keep (counted against the memory limit until the run ends, since they live
//! outside the Lua state).

use std::mem::size_of;
use warren_core::map::{Annotations, Corridor, Door, Point, Room, Spawn};

/// Most items a primitive reads from one Lua list; longer lists are refused before they are
/// copied.
pub const MAX_LIST: usize = 1 << 22;
/// Most distinct region names one map may hold (region ids are 16-bit; 0 means none).
pub const MAX_REGIONS: usize = u16::MAX as usize;

/// Map cells Rust can write or flood in the time of one VM instruction.
pub const CELLS_PER_INSTRUCTION: u64 = 4;

/// Instruction-equivalents for touching `n` map cells in Rust.
pub fn cell_work(n: u64) -> u64 {
    1 + n / CELLS_PER_INSTRUCTION
}

/// Bytes a string takes in an annotation.
pub fn text(s: &str) -> usize {
    size_of::<String>() + s.len()
}

/// Bytes a list of cells takes.
pub fn cells(n: usize) -> usize {
    n * size_of::<Point>()
}

/// Bytes one room takes.
pub fn room(r: &Room) -> usize {
    size_of::<Room>() + r.kind.len() + cells(r.doors.len())
}

/// Bytes `n` rooms of one kind take (the kind's name is shared).
pub fn rooms(n: usize, kind: &str) -> usize {
    n * size_of::<Room>() + kind.len()
}

/// Bytes one corridor takes.
pub fn corridor(c: &Corridor) -> usize {
    size_of::<Corridor>() + cells(c.cells.len()) + c.region.as_deref().map_or(0, text)
}

/// Bytes one spawn takes.
pub fn spawn(s: &Spawn) -> usize {
    size_of::<Spawn>() + s.what.len()
}

/// Bytes all annotations take (for charging what a whole phase added).
pub fn notes(n: &Annotations) -> usize {
    n.rooms.iter().map(room).sum::<usize>()
        + n.corridors.iter().map(corridor).sum::<usize>()
        + n.doors.len() * size_of::<Door>()
        + cells(n.stairs.up.len() + n.stairs.down.len())
        + n.spawns.iter().map(spawn).sum::<usize>()
        + n.tags.keys().map(|k| text(k) + 16).sum::<usize>()
        + n.stats.keys().map(|k| text(k) + 8).sum::<usize>()
}

/// What `warren.gen.start_and_stairs` keeps: the stairs and the two start tags.
pub fn start_and_stairs() -> usize {
    cells(1) + 2 * (text("start_x") + 16)
}
