//! Typed region entries, resolved once at load ([`super::resolve`]): terrains as ids, defaults
//! applied, every range checked. The generation phases take them as they are.

use super::schema::DungeonDef;
use crate::gen::dungeon::{RoomChoice, RoomLimits, StreamerStyle, VaultGrid};
use crate::gen::town::{DebugTerrains, TownTerrains};
use crate::gen::tunnel::{CorridorStyle, DoorTable, TunnelConfig, TunnelConstants};
use crate::gen::wfc::Sample;
use crate::map::{DoorKind, TerrainId};
use std::collections::BTreeMap;
use thiserror::Error;

/// Every region entry of a registry, resolved.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Resolved {
    /// `[dungeon]` (its defaults when no file has it).
    pub dungeon: Dungeon,
    /// Every `[[corridor]]`, in load order.
    pub corridors: Vec<Corridor>,
    /// Every `[[room]]`.
    pub rooms: Vec<RoomRegion>,
    /// Every `[[streamer]]`.
    pub streamers: Vec<StreamerRegion>,
    /// Every `[[vault]]`.
    pub vaults: Vec<VaultRegion>,
    /// Every `[[prefab]]`.
    pub prefabs: Vec<crate::gen::prefab::Prefab>,
    /// `[town]`, if a file has it.
    pub town: Option<TownStyle>,
    /// Every `[[sample]]`, its grid parsed.
    pub samples: Vec<Sample>,
}

/// `[dungeon]`, resolved: its values, checked, and the typed values the phases take.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Dungeon {
    /// Every value (defaults where the file left a key out).
    pub def: DungeonDef,
    /// The level's corridor constants.
    pub constants: TunnelConstants,
    /// Up stairs terrain: `up_stairs`, else the terrain named "up stairs" if there is one.
    pub up_stairs: Option<TerrainId>,
    /// Down stairs terrain: `down_stairs`, else the terrain named "down stairs" if there is one.
    pub down_stairs: Option<TerrainId>,
    /// What the fix-up lays across hazards that cut a level (`bridge`), if anything.
    pub bridge: Option<TerrainId>,
    /// The wooden door that stands in for the others on shallow levels (`wooden_door`, else
    /// the first wooden `[[door]]` kind), if there is one.
    pub wooden_door: Option<DoorKind>,
}

impl Default for Dungeon {
    fn default() -> Self {
        let def = DungeonDef::default();
        Dungeon {
            constants: TunnelConstants {
                turn_chance: def.turn_chance as u32,
                stubborn_corridor: def.stubborn_corridor as u32,
                segment_minlen: def.segment_minlen as u32,
                segment_maxlen: def.segment_maxlen as u32,
            },
            def,
            up_stairs: None,
            down_stairs: None,
            bridge: None,
            wooden_door: None,
        }
    }
}

impl Dungeon {
    /// `(level_width, level_height)`.
    pub fn level_size(&self) -> (i32, i32) {
        (self.def.level_width as i32, self.def.level_height as i32)
    }

    /// `(panel_width, panel_height)`.
    pub fn panel_size(&self) -> (i32, i32) {
        (self.def.panel_width as i32, self.def.panel_height as i32)
    }

    /// The room sizes and the lifecave fill, for a level `depth` deep (mazes deeper than 3
    /// get secret doors).
    pub fn room_limits(&self, depth: u32) -> RoomLimits {
        RoomLimits {
            depth,
            min_width: self.def.room_min_width as i32,
            max_width: self.def.room_max_width as i32,
            min_height: self.def.room_min_height as i32,
            max_height: self.def.room_max_height as i32,
            life_percent: self.def.life_percent as u32,
        }
    }

    /// Fix-up trials before giving up.
    pub fn fixup_trials(&self) -> u32 {
        self.def.fixup_trials as u32
    }

    /// The kind of door a region whose door is `door` makes on a level `depth` deep (Incursion's
    /// `MakeDoor`): on levels at most `wooden_door_depth` deep a door that is not wooden becomes
    /// the wooden door, unless the region keeps its doors (`keep`) or there is no wooden door.
    pub fn door_at<'a>(&'a self, door: &'a DoorKind, keep: bool, depth: u32) -> &'a DoorKind {
        match &self.wooden_door {
            Some(wood)
                if !keep && !door.wooden && i64::from(depth) <= self.def.wooden_door_depth =>
            {
                wood
            }
            _ => door,
        }
    }
}

/// A `[[corridor]]`: a tunnel style and the door tunnels make into it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Corridor {
    /// The style tunnels are drawn with.
    pub style: CorridorStyle,
    /// The kind of door tunnels make where they meet this region's cells.
    pub door: DoorKind,
    /// Whether its doors keep their kind on shallow levels (see [`Dungeon::door_at`]).
    pub keep_doors: bool,
}

/// A `[[room]]`: the kind and look of the room drawn in a panel.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RoomRegion {
    /// Its kind, look and weight, as the rooms phase takes them.
    pub choice: RoomChoice,
    /// Shallowest depth it appears at.
    pub min_depth: u32,
    /// Deepest depth it appears at.
    pub max_depth: u32,
    /// Whether its doors keep their kind on shallow levels (see [`Dungeon::door_at`]).
    pub keep_doors: bool,
}

impl RoomRegion {
    /// The room as drawn on a level `depth` deep: its door as [`Dungeon::door_at`] says.
    pub fn choice_at(&self, dungeon: &Dungeon, depth: u32) -> RoomChoice {
        let mut choice = self.choice.clone();
        choice.style.door = dungeon
            .door_at(&self.choice.style.door, self.keep_doors, depth)
            .clone();
        choice
    }
}

/// A `[[streamer]]`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StreamerRegion {
    /// What is drawn (priority resolved: the region's, else the kind's default).
    pub style: StreamerStyle,
    /// Relative chance of being chosen.
    pub weight: f64,
    /// Shallowest depth it appears at.
    pub min_depth: u32,
}

/// A `[[vault]]`, its grid parsed.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct VaultRegion {
    /// Region name.
    pub name: String,
    /// Relative chance of being chosen.
    pub weight: f64,
    /// Shallowest depth it appears at.
    pub min_depth: u32,
    /// Deepest depth it appears at.
    pub max_depth: u32,
    /// The grid, glyphs resolved to terrain ids.
    pub grid: VaultGrid,
    /// Whether its doors keep their kind on shallow levels (see [`Dungeon::door_at`]).
    pub keep_doors: bool,
}

impl VaultRegion {
    /// The vault's grid as drawn on a level `depth` deep: each door's kind as
    /// [`Dungeon::door_at`] says.
    pub fn grid_at(&self, dungeon: &Dungeon, depth: u32) -> VaultGrid {
        let mut grid = self.grid.clone();
        for (_, kind) in &mut grid.doors {
            *kind = dungeon.door_at(kind, self.keep_doors, depth).clone();
        }
        grid
    }
}

/// `[town]`: the terrains a town is drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TownStyle {
    /// The map view's terrains.
    pub terrains: TownTerrains,
    /// The debug view's, if `[town.debug]` is given.
    pub debug: Option<DebugTerrains>,
}

/// Why a tunnel configuration could not be made from region entries.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ConfigError {
    /// No corridor region to draw tunnels with.
    #[error("no corridor regions; add a [[corridor]] to the region files")]
    NoCorridors,
    /// The level's corridor region names none of them.
    #[error("corridor = '{name}' names no corridor region (known: {known})")]
    UnknownCorridor {
        /// The name asked for.
        name: String,
        /// The corridor regions, quoted and comma-separated.
        known: String,
    },
}

/// One level's tunnel settings from resolved regions: the corridor regions as styles (the
/// level's own is `corridor`, else `[dungeon] corridor`, else the first), `[dungeon]`'s
/// constants, the panel size, and the door of every corridor and room region on a level
/// `depth` deep ([`Dungeon::door_at`]).
pub fn tunnel_config(
    dungeon: &Dungeon,
    corridors: &[Corridor],
    rooms: &[RoomRegion],
    panel: (i32, i32),
    corridor: Option<&str>,
    depth: u32,
) -> Result<TunnelConfig, ConfigError> {
    if corridors.is_empty() {
        return Err(ConfigError::NoCorridors);
    }
    let wanted = corridor.or(dungeon.def.corridor.as_deref());
    let default_style = match wanted {
        None => 0,
        Some(name) => corridors
            .iter()
            .position(|c| c.style.name == name)
            .ok_or_else(|| ConfigError::UnknownCorridor {
                name: name.to_string(),
                known: corridors
                    .iter()
                    .map(|c| format!("'{}'", c.style.name))
                    .collect::<Vec<_>>()
                    .join(", "),
            })?,
    };
    let door = |kind: &DoorKind, keep: bool| dungeon.door_at(kind, keep, depth).clone();
    let mut by_region = BTreeMap::new();
    for c in corridors {
        by_region.insert(c.style.name.clone(), door(&c.door, c.keep_doors));
    }
    for r in rooms {
        let style = &r.choice.style;
        by_region.insert(style.name.clone(), door(&style.door, r.keep_doors));
    }
    Ok(TunnelConfig {
        styles: corridors.iter().map(|c| c.style.clone()).collect(),
        default_style,
        constants: dungeon.constants,
        panel_width: panel.0,
        panel_height: panel.1,
        doors: DoorTable {
            default: door(
                &corridors[default_style].door,
                corridors[default_style].keep_doors,
            ),
            by_region,
        },
    })
}

impl Resolved {
    /// [`tunnel_config`] of these regions, for a level `depth` deep.
    pub fn tunnel_config(
        &self,
        panel: (i32, i32),
        corridor: Option<&str>,
        depth: u32,
    ) -> Result<TunnelConfig, ConfigError> {
        tunnel_config(
            &self.dungeon,
            &self.corridors,
            &self.rooms,
            panel,
            corridor,
            depth,
        )
    }
}
