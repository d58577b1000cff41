//! Doors as Incursion has them (`Door` in Feature.cpp, `MakeDoor` in MakeLev.cpp): a door is a
//! feature standing on a cell, not a terrain of its own. The cell keeps its priority (a door in a
//! room wall is still a room wall to the tunnel rules), a closed door blocks movement, and when
//! the level is finished every door takes one of five [`DoorState`]s and is drawn with the
//! terrain its [`DoorKind`] gives that state.
//!
//! Door kinds are data (`[[door]]` in the region files); a region may also name a plain terrain
//! as its door, which then draws every state alike ([`DoorKind::uniform`]).

use super::terrain::TerrainId;
use serde::Serialize;
use std::sync::Arc;

/// What a door is like at the end of generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DoorState {
    /// Shut: blocks movement and sight until opened.
    Closed,
    /// Standing open: passable.
    Open,
    /// Shut and locked: blocks movement until unlocked or broken down.
    Locked,
    /// Shut and hidden: drawn as the wall beside it until found.
    Secret,
    /// An empty doorway (Incursion's `DF_BROKEN`): passable. Every door that does not stand
    /// between two walls ends up broken.
    Broken,
}

impl DoorState {
    /// Every state, in declaration order.
    pub const ALL: [DoorState; 5] = [
        DoorState::Closed,
        DoorState::Open,
        DoorState::Locked,
        DoorState::Secret,
        DoorState::Broken,
    ];

    /// Every state's name, as JSON and recipes spell it.
    pub const NAMES: [&'static str; 5] = ["closed", "open", "locked", "secret", "broken"];

    /// The state's name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Parses a state name.
    pub fn from_name(name: &str) -> Option<DoorState> {
        Self::NAMES
            .iter()
            .position(|&n| n == name)
            .map(|i| Self::ALL[i])
    }

    /// Whether a door in this state lets a walker through without opening it.
    pub fn is_passable(self) -> bool {
        matches!(self, DoorState::Open | DoorState::Broken)
    }
}

/// How often a newly made door gets each state (relative weights, finite and ≥ 0). Broken is
/// never drawn: it follows from where the door stands.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DoorWeights {
    /// Weight of [`DoorState::Closed`].
    pub closed: f64,
    /// Weight of [`DoorState::Open`].
    pub open: f64,
    /// Weight of [`DoorState::Locked`].
    pub locked: f64,
    /// Weight of [`DoorState::Secret`].
    pub secret: f64,
}

impl DoorWeights {
    /// Incursion's `Door` constructor as weights over 70: one door in ten is open, half of the
    /// others locked, and then one in seven of all doors becomes secret instead. So secret
    /// 1/7 = 10/70, open 1/10 · 6/7 = 6/70, and closed and locked 9/20 · 6/7 = 27/70 each.
    pub const INCURSION: DoorWeights = DoorWeights {
        closed: 27.0,
        open: 6.0,
        locked: 27.0,
        secret: 10.0,
    };

    /// The weights in the order of [`DoorWeights::STATES`].
    pub fn as_array(&self) -> [f64; 4] {
        [self.closed, self.open, self.locked, self.secret]
    }

    /// The states the weights are for, in [`DoorWeights::as_array`] order.
    pub const STATES: [DoorState; 4] = [
        DoorState::Closed,
        DoorState::Open,
        DoorState::Locked,
        DoorState::Secret,
    ];
}

impl Default for DoorWeights {
    fn default() -> Self {
        DoorWeights::INCURSION
    }
}

/// A kind of door (`[[door]]`): the terrain each state is drawn with and the chances of the
/// states.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DoorKind {
    /// The name regions and vault legends use.
    pub name: Arc<str>,
    /// Terrain of a closed door (also what a door looks like while the level is being built).
    pub closed: TerrainId,
    /// Terrain of an open door.
    pub open: TerrainId,
    /// Terrain of a locked door.
    pub locked: TerrainId,
    /// Terrain of a broken door (an empty doorway).
    pub broken: TerrainId,
    /// Terrain of a secret door; `None` draws it as the wall beside it, as Incursion does.
    pub secret: Option<TerrainId>,
    /// How often a new door gets each state.
    pub weights: DoorWeights,
    /// Whether the door is wooden (Incursion's door material): on shallow levels tunnels and
    /// rooms make only wooden doors (see `[dungeon] wooden_door_depth`).
    pub wooden: bool,
}

impl DoorKind {
    /// A wooden door drawn with one terrain in every state (a region that names a terrain as
    /// its door), with Incursion's state chances.
    pub fn uniform(name: &str, terrain: TerrainId) -> DoorKind {
        DoorKind {
            name: name.into(),
            closed: terrain,
            open: terrain,
            locked: terrain,
            broken: terrain,
            secret: Some(terrain),
            weights: DoorWeights::INCURSION,
            wooden: true,
        }
    }

    /// The terrain of `state`; `None` for a secret door drawn as its wall.
    pub fn terrain(&self, state: DoorState) -> Option<TerrainId> {
        match state {
            DoorState::Closed => Some(self.closed),
            DoorState::Open => Some(self.open),
            DoorState::Locked => Some(self.locked),
            DoorState::Broken => Some(self.broken),
            DoorState::Secret => self.secret,
        }
    }
}
