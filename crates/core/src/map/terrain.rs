//! The terrain table: what each terrain id looks like and whether it blocks movement.
//!
//! Terrain is data (from the `[[terrain]]` entries of the region files), so a modder can add a
//! terrain without touching Rust. A map stores small integer ids; this table names them.

use super::door::DoorKind;
use std::collections::HashMap;

/// A 24-bit colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// Parses `#rrggbb`.
    pub fn parse(s: &str) -> Option<Rgb> {
        let hex = s.strip_prefix('#')?;
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let v = u32::from_str_radix(hex, 16).ok()?;
        Some(Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8))
    }

    /// `#rrggbb` form.
    pub fn to_hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// Identifies a terrain within one [`TerrainTable`].
pub type TerrainId = u16;

/// One kind of terrain.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Terrain {
    /// Unique name, used by recipes and region files (`"rock wall"`).
    pub name: String,
    /// The character drawn for it in text output.
    pub glyph: char,
    /// Foreground colour for ANSI and PNG output.
    pub color: Rgb,
    /// Whether it blocks movement (walls, rock, closed doors) or is open (floor, open doors).
    pub solid: bool,
    /// Whether it is open but a walker must not cross it (a chasm to fall down, magma that
    /// burns). Connectivity treats hazards as walls, and the fix-ups bridge them.
    pub hazard: bool,
    /// What entering it costs a walker in the toolbox's distance maps and paths
    /// (`gen::field::distance`), `1..=1000`, from region data; `None`: 1 where a walker may
    /// stand, blocked elsewhere.
    pub move_cost: Option<u32>,
}

/// All terrains known to a registry, addressed by id or name, and the kinds of door drawn with
/// them. Kept (in the registry cache) as its terrains and doors: read back, it is built anew,
/// with a serial of its own.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(from = "TableParts", into = "TableParts")]
pub struct TerrainTable {
    terrains: Vec<Terrain>,
    by_name: HashMap<String, TerrainId>,
    doors: Vec<DoorKind>,
    /// See [`TerrainTable::serial`].
    serial: u64,
}

/// What a [`TerrainTable`] is kept as.
#[derive(serde::Serialize, serde::Deserialize)]
struct TableParts {
    /// Its terrains, in id order.
    terrains: Vec<Terrain>,
    /// Its kinds of door.
    doors: Vec<DoorKind>,
}

impl From<TableParts> for TerrainTable {
    fn from(parts: TableParts) -> TerrainTable {
        TerrainTable::new(parts.terrains).with_doors(parts.doors)
    }
}

impl From<TerrainTable> for TableParts {
    fn from(table: TerrainTable) -> TableParts {
        TableParts {
            terrains: table.terrains,
            doors: table.doors,
        }
    }
}

impl TerrainTable {
    /// Builds a table; ids follow the order given. Names must be unique (the registry checks).
    pub fn new(terrains: Vec<Terrain>) -> Self {
        let by_name = terrains
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), i as TerrainId))
            .collect();
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        TerrainTable {
            terrains,
            by_name,
            doors: Vec::new(),
            serial: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// A number no other table built by [`TerrainTable::new`] in this process has had (a
    /// clone keeps it: it names the same ids; an empty default table has 0). Two tables with
    /// the same serial give every name the same id, so a cache of lookups can key on it.
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// This table with the kinds of door drawn with its terrains (names must be unique; the
    /// registry checks).
    pub fn with_doors(mut self, doors: Vec<DoorKind>) -> Self {
        self.doors = doors;
        self
    }

    /// A table of uncoloured terrains from `(name, glyph, solid)`, ids in the order given: for
    /// tests, benches and games that need only names and passability.
    pub fn plain(terrains: &[(&str, char, bool)]) -> Self {
        let flagged: Vec<_> = terrains
            .iter()
            .map(|&(name, glyph, solid)| (name, glyph, solid, false))
            .collect();
        TerrainTable::flagged(&flagged)
    }

    /// [`TerrainTable::plain`] from `(name, glyph, solid, hazard)`: a hazard is open but
    /// dangerous (a chasm, lava), and connectivity treats it as a wall.
    pub fn flagged(terrains: &[(&str, char, bool, bool)]) -> Self {
        TerrainTable::new(
            terrains
                .iter()
                .map(|&(name, glyph, solid, hazard)| Terrain {
                    name: name.to_string(),
                    glyph,
                    color: Rgb(0, 0, 0),
                    solid,
                    hazard,
                    move_cost: None,
                })
                .collect(),
        )
    }

    /// The id of a terrain by name.
    pub fn id(&self, name: &str) -> Option<TerrainId> {
        self.by_name.get(name).copied()
    }

    /// The kind of door called `name`: a declared door kind, or else a terrain of that name
    /// drawn alike in every state ([`DoorKind::uniform`]).
    pub fn door(&self, name: &str) -> Option<DoorKind> {
        match self.doors.iter().find(|d| &*d.name == name) {
            Some(kind) => Some(kind.clone()),
            None => self.id(name).map(|t| DoorKind::uniform(name, t)),
        }
    }

    /// Every declared kind of door.
    pub fn door_kinds(&self) -> &[DoorKind] {
        &self.doors
    }

    /// The terrain with this id.
    ///
    /// # Panics
    /// If the id did not come from this table.
    pub fn get(&self, id: TerrainId) -> &Terrain {
        &self.terrains[id as usize]
    }

    /// Every terrain in id order.
    pub fn iter(&self) -> impl Iterator<Item = &Terrain> {
        self.terrains.iter()
    }

    /// Number of terrains.
    pub fn len(&self) -> usize {
        self.terrains.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.terrains.is_empty()
    }

    /// Names of all terrains, in id order (for error messages).
    pub fn names(&self) -> Vec<&str> {
        self.terrains.iter().map(|t| t.name.as_str()).collect()
    }
}
