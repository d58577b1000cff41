//! Street numbers: every street origin gets a new number, and when two streets meet they merge
//! and keep the lower number (TownMaze relabels the higher-numbered street by walking the street
//! list). A union–find with union by size gives the same labels without the walk.

use thiserror::Error;

/// A street number that was never opened.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("street {street} does not exist: {opened} streets were opened (numbers 0..{opened})")]
pub struct UnknownStreet {
    /// The number asked for.
    pub street: u32,
    /// How many streets exist.
    pub opened: u32,
}

/// The street numbers of one town and which of them have merged.
#[derive(Clone, Debug, Default)]
pub struct StreetNumbers {
    parent: Vec<u32>,
    size: Vec<u32>,
    /// The lowest number in the set, kept at the set's root.
    lowest: Vec<u32>,
    distinct: usize,
}

impl StreetNumbers {
    /// No streets yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Opens a new street and returns its number (0, 1, 2, … in opening order).
    pub fn open(&mut self) -> u32 {
        let id = self.parent.len() as u32;
        self.parent.push(id);
        self.size.push(1);
        self.lowest.push(id);
        self.distinct += 1;
        id
    }

    /// How many streets were ever opened.
    pub fn opened(&self) -> usize {
        self.parent.len()
    }

    /// How many distinct streets remain after merging (TownMaze's `streetnumct`).
    pub fn distinct(&self) -> usize {
        self.distinct
    }

    /// The current number of the street first opened as `street`: the lowest number among the
    /// streets it has merged with.
    pub fn number(&self, street: u32) -> Result<u32, UnknownStreet> {
        self.check(street)?;
        Ok(self.label(street))
    }

    /// Merges the streets of `a` and `b`; returns whether they were distinct before.
    pub fn merge(&mut self, a: u32, b: u32) -> Result<bool, UnknownStreet> {
        self.check(a)?;
        self.check(b)?;
        Ok(self.join(a, b))
    }

    fn check(&self, street: u32) -> Result<(), UnknownStreet> {
        if (street as usize) < self.parent.len() {
            Ok(())
        } else {
            Err(UnknownStreet {
                street,
                opened: self.parent.len() as u32,
            })
        }
    }

    /// The root of a street known to exist. Union by size keeps trees O(log n) deep.
    #[inline]
    fn root(&self, mut street: u32) -> u32 {
        while self.parent[street as usize] != street {
            street = self.parent[street as usize];
        }
        street
    }

    /// The number of a street known to exist.
    #[inline]
    pub(crate) fn label(&self, street: u32) -> u32 {
        self.lowest[self.root(street) as usize]
    }

    /// Merges two streets known to exist.
    pub(crate) fn join(&mut self, a: u32, b: u32) -> bool {
        let (ra, rb) = (self.root(a) as usize, self.root(b) as usize);
        if ra == rb {
            return false;
        }
        let (big, small) = if self.size[ra] >= self.size[rb] {
            (ra, rb)
        } else {
            (rb, ra)
        };
        self.parent[small] = big as u32;
        self.size[big] += self.size[small];
        self.lowest[big] = self.lowest[big].min(self.lowest[small]);
        self.distinct -= 1;
        true
    }
}
