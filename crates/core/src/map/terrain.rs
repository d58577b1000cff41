//! The terrain table: what each terrain id looks like and whether it blocks movement.
//!
//! Terrain is data (from the `[[terrain]]` entries of the region files), so a modder can add a
//! terrain without touching Rust. A map stores small integer ids; this table names them.

use std::collections::HashMap;

/// A 24-bit colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
#[derive(Clone, Debug, PartialEq)]
pub struct Terrain {
    /// Unique name, used by recipes and region files (`"rock wall"`).
    pub name: String,
    /// The character drawn for it in text output.
    pub glyph: char,
    /// Foreground colour for ANSI and PNG output.
    pub color: Rgb,
    /// Whether it blocks movement (walls, rock) or is open (floor, doors).
    pub solid: bool,
}

/// All terrains known to a registry, addressed by id or name.
#[derive(Clone, Debug, Default)]
pub struct TerrainTable {
    terrains: Vec<Terrain>,
    by_name: HashMap<String, TerrainId>,
}

impl TerrainTable {
    /// Builds a table; ids follow the order given. Names must be unique (the registry checks).
    pub fn new(terrains: Vec<Terrain>) -> Self {
        let by_name = terrains
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), i as TerrainId))
            .collect();
        TerrainTable { terrains, by_name }
    }

    /// A table of uncoloured terrains from `(name, glyph, solid)`, ids in the order given: for
    /// tests, benches and games that need only names and passability.
    pub fn plain(terrains: &[(&str, char, bool)]) -> Self {
        TerrainTable::new(
            terrains
                .iter()
                .map(|&(name, glyph, solid)| Terrain {
                    name: name.to_string(),
                    glyph,
                    color: Rgb(0, 0, 0),
                    solid,
                })
                .collect(),
        )
    }

    /// The id of a terrain by name.
    pub fn id(&self, name: &str) -> Option<TerrainId> {
        self.by_name.get(name).copied()
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
