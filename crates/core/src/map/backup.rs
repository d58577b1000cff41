//! Putting cells back as they were: a primitive that tries something and may have to take it
//! back (a vault placement that would cut the level in two) saves the cells it is about to
//! write, and restores them, with the doors and corridors recorded since, when it gives up.

use super::{Map, Point, TerrainId};

/// Cells saved before writes, and how many doors and corridors the map had recorded.
#[derive(Clone, Debug, Default)]
pub struct Backup {
    /// Index, terrain, priority, region and flags of each saved cell, in the order saved.
    cells: Vec<(usize, TerrainId, u8, u16, u8)>,
    doors: usize,
    corridors: usize,
}

impl Backup {
    /// How many cells are saved.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether no cell is saved.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

impl Map {
    /// A backup holding no cells yet, remembering how many doors and corridors are recorded.
    pub fn backup(&self) -> Backup {
        Backup {
            cells: Vec::new(),
            doors: self.notes.doors.len(),
            corridors: self.notes.corridors.len(),
        }
    }

    /// Saves cell `p` (on the map) into `backup`.
    pub fn save_cell(&self, backup: &mut Backup, p: Point) {
        let i = (p.x + p.y * self.width) as usize;
        backup.cells.push((
            i,
            self.terrain[i],
            self.priority[i],
            self.region[i],
            self.flags[i],
        ));
    }

    /// Puts every saved cell back as it was (in reverse order, so a cell saved twice ends as it
    /// was first), and forgets the doors and corridors recorded since the backup was made.
    pub fn restore(&mut self, backup: Backup) {
        self.known.uniform = None;
        for &(i, terrain, priority, region, flags) in backup.cells.iter().rev() {
            self.terrain[i] = terrain;
            self.priority[i] = priority;
            self.region[i] = region;
            self.flags[i] = flags;
        }
        self.notes.doors.truncate(backup.doors);
        self.notes.corridors.truncate(backup.corridors);
    }
}
