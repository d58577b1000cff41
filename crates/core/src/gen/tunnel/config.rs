//! Per-level tunnel settings: corridor styles (Incursion's corridor regions), the level's
//! corridor constants, the panel size and the door of each region. All plain data, so a registry
//! layer can build them from region files.

use super::error::TunnelError;
use crate::map::{DoorKind, Map, TerrainId};
use std::collections::BTreeMap;

/// Incursion's four corridor constants (`TURN_CHANCE`, `STUBBORN_CORRIDOR`, `SEGMENT_MINLEN`,
/// `SEGMENT_MAXLEN`). Their ranges are the region schema's (`region::schema::TURN_CHANCE`, …),
/// checked where region data is resolved; here any value is safe (a chance above 100 acts as
/// 100, a `segment_minlen` above `segment_maxlen` never turns by chance).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TunnelConstants {
    /// Percent chance per step of turning once a segment is longer than `segment_minlen`.
    pub turn_chance: u32,
    /// Percent chance that a turn ignores the destination and picks a random new direction.
    /// Ignored by [`TunnelFlags::direct`](super::TunnelFlags::direct).
    pub stubborn_corridor: u32,
    /// Segments at most this long never turn by chance.
    pub segment_minlen: u32,
    /// Segments longer than this always turn.
    pub segment_maxlen: u32,
}

/// A corridor style's optional replacements for the level's [`TunnelConstants`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ConstantOverrides {
    /// Replaces [`TunnelConstants::turn_chance`].
    pub turn_chance: Option<u32>,
    /// Replaces [`TunnelConstants::stubborn_corridor`].
    pub stubborn_corridor: Option<u32>,
    /// Replaces [`TunnelConstants::segment_minlen`].
    pub segment_minlen: Option<u32>,
    /// Replaces [`TunnelConstants::segment_maxlen`].
    pub segment_maxlen: Option<u32>,
}

impl TunnelConstants {
    /// These constants with `overrides` applied. The receiver is not changed, which is how the
    /// original's "restore the level's constants after the tunnel" is kept.
    // Incursion treats an override of 0 as "none" (`if (n = GetConst(..))`); here Some(0) is a
    // real override, which is what a designer writing `turn_chance = 0` expects.
    pub fn with(self, overrides: &ConstantOverrides) -> TunnelConstants {
        TunnelConstants {
            turn_chance: overrides.turn_chance.unwrap_or(self.turn_chance),
            stubborn_corridor: overrides
                .stubborn_corridor
                .unwrap_or(self.stubborn_corridor),
            segment_minlen: overrides.segment_minlen.unwrap_or(self.segment_minlen),
            segment_maxlen: overrides.segment_maxlen.unwrap_or(self.segment_maxlen),
        }
    }
}

/// A corridor style (one of Incursion's corridor regions).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CorridorStyle {
    /// Region name; stamped on the corridor's cells and recorded on the corridor annotation.
    pub name: String,
    /// Relative chance of being chosen (finite, ≥ 0; 0 = only ever used as the default).
    pub weight: f64,
    /// Whether the style may be chosen again on the same level (Incursion's `RF_STAPLE`).
    pub staple: bool,
    /// Terrain of the corridor floor.
    pub floor: TerrainId,
    /// Terrain of the walls around it.
    pub walls: TerrainId,
    /// Constants this style replaces for the tunnels drawn with it.
    pub constants: ConstantOverrides,
}

/// The kind of door of each region (Incursion's `TREG(region)->Door`), by region name.
#[derive(Clone, Debug, PartialEq)]
pub struct DoorTable {
    /// Door used where a region names none (Incursion's "oak door").
    pub default: DoorKind,
    /// Door kind by region name.
    pub by_region: BTreeMap<String, DoorKind>,
}

impl DoorTable {
    /// A table that uses a door drawn as `door` in every state everywhere.
    pub fn uniform(door: TerrainId) -> DoorTable {
        DoorTable {
            default: DoorKind::uniform("door", door),
            by_region: BTreeMap::new(),
        }
    }

    /// The door for the region with this name.
    pub fn door_for(&self, region_name: &str) -> &DoorKind {
        self.by_region.get(region_name).unwrap_or(&self.default)
    }
}

/// Everything about a level that tunnels share.
#[derive(Clone, Debug, PartialEq)]
pub struct TunnelConfig {
    /// The corridor styles to choose from (Incursion's `CorridorWeights`). At least one.
    pub styles: Vec<CorridorStyle>,
    /// Index into `styles` of the level's own corridor style (`Con[CORRIDOR_REGION]`), used for
    /// short tunnels and when no style has a positive weight.
    pub default_style: usize,
    /// The level's corridor constants.
    pub constants: TunnelConstants,
    /// Panel width in cells (≥ 1).
    pub panel_width: i32,
    /// Panel height in cells (≥ 1).
    pub panel_height: i32,
    /// Door kind of each region.
    pub doors: DoorTable,
}

impl TunnelConfig {
    /// Checks what the tunnel needs of the settings against `map`: at least one style, a valid
    /// default, panels of at least one cell, finite weights, terrain ids in `map`'s terrain
    /// table. Check once per configuration and map, then dig with [`tunnel_prechecked`](super::tunnel_prechecked).
    pub fn validate(&self, map: &Map) -> Result<(), TunnelError> {
        if self.styles.is_empty() {
            return Err(TunnelError::bad(
                "styles",
                "an empty list",
                "at least one corridor style",
            ));
        }
        if self.default_style >= self.styles.len() {
            return Err(TunnelError::bad(
                "default_style",
                self.default_style,
                format!("0..={}", self.styles.len() - 1),
            ));
        }
        for (name, v) in [
            ("panel_width", self.panel_width),
            ("panel_height", self.panel_height),
        ] {
            if v < 1 {
                return Err(TunnelError::bad(name, v, "1 or more"));
            }
        }
        let terrains = map.terrains().len();
        // Names are formatted only for an error.
        let check_terrain = |what: &dyn Fn() -> String, id: TerrainId| {
            if (id as usize) < terrains {
                Ok(())
            } else {
                Err(TunnelError::bad(
                    what(),
                    id,
                    format!("a terrain id 0..={}", terrains.saturating_sub(1)),
                ))
            }
        };
        for (i, s) in self.styles.iter().enumerate() {
            let what = || format!("styles[{i}] ({:?})", s.name);
            if !crate::rng::valid_weight(s.weight) {
                return Err(TunnelError::bad(
                    format!("{}.weight", what()),
                    s.weight,
                    "a finite number ≥ 0",
                ));
            }
            check_terrain(&|| format!("{}.floor", what()), s.floor)?;
            check_terrain(&|| format!("{}.walls", what()), s.walls)?;
        }
        let doors = std::iter::once(("default", &self.doors.default))
            .chain(self.doors.by_region.iter().map(|(n, k)| (n.as_str(), k)));
        for (name, kind) in doors {
            let looks = [kind.closed, kind.open, kind.locked, kind.broken];
            for id in looks.into_iter().chain(kind.secret) {
                check_terrain(&|| format!("doors[{name:?}]"), id)?;
            }
        }
        Ok(())
    }
}
