//! The region registry: every `*.toml` under the regions directory, parsed into typed structs,
//! validated, merged into one [`Registry`], and resolved once into the typed entries the
//! phases take ([`Resolved`]: terrain ids, defaults applied).
//!
//! Loading reports every problem it finds, each with file, line and column.

pub mod cache;
pub mod entries;
pub mod error;
pub mod explain;
pub mod locate;
pub mod reference;
pub mod resolve;
pub mod schema;
pub mod shape;
mod validate;

pub use entries::{
    tunnel_config, ConfigError, Corridor, Dungeon, Resolved, RoomRegion, StreamerRegion, TownStyle,
    VaultRegion,
};
pub use error::{RegionError, RegionErrors};
pub use schema::*;

use crate::input::ReadError;
use crate::map::{TerrainId, TerrainTable};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The largest region file warren reads, in bytes.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// All region data of one regions directory, validated.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Registry {
    terrains: Arc<TerrainTable>,
    /// Terrain a fresh map starts as (`[map] fill`).
    pub map_fill: TerrainId,
    /// Terrain of the map's outer ring (`[map] edge`).
    pub map_edge: TerrainId,
    /// Everything as declared (names, not ids), for recipes.
    pub data: RegistryData,
    /// `[limits]`: the budgets these regions ask for (defaults where absent). They may only
    /// lower the budgets a user allows, never raise them.
    pub limits: LimitsDef,
    /// Where each `[limits]` key is written, by key name (`max_seconds`, …).
    pub limits_at: BTreeMap<String, Place>,
    /// Every region entry resolved once (terrain ids, defaults applied), as the phases take
    /// them.
    pub resolved: Resolved,
    /// The files this registry was loaded from, in load order.
    pub files: Vec<PathBuf>,
}

shape::section! {
/// The merged contents of all region files, as recipes see them in `ctx.regions`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RegistryData {
    /// Every terrain.
    pub terrain: Vec<TerrainDef> => required(KeyKind::List(&TerrainDef::SHAPE)),
    /// Every kind of door.
    pub door: Vec<DoorDef> => required(KeyKind::List(&DoorDef::SHAPE)),
    /// Dungeon constants (defaults when no file has `[dungeon]`).
    pub dungeon: DungeonDef => required(KeyKind::Table(&DungeonDef::SHAPE)),
    /// Corridor regions.
    pub corridor: Vec<CorridorDef> => required(KeyKind::List(&CorridorDef::SHAPE)),
    /// Room regions.
    pub room: Vec<RoomDef> => required(KeyKind::List(&RoomDef::SHAPE)),
    /// Streamer regions.
    pub streamer: Vec<StreamerDef> => required(KeyKind::List(&StreamerDef::SHAPE)),
    /// Vaults.
    pub vault: Vec<VaultDef> => required(KeyKind::List(&VaultDef::SHAPE)),
    /// Vault templates.
    pub prefab: Vec<PrefabDef> => required(KeyKind::List(&PrefabDef::SHAPE)),
    /// `[rooms]`, if any file has it.
    pub rooms: Option<RoomsDef> => optional(KeyKind::Table(&RoomsDef::SHAPE)),
    /// `[cave]`, if any file has it.
    pub cave: Option<CaveDef> => optional(KeyKind::Table(&CaveDef::SHAPE)),
    /// `[town]`, if any file has it.
    pub town: Option<TownDef> => optional(KeyKind::Table(&TownDef::SHAPE)),
    /// Spawn table.
    pub spawn: Vec<SpawnDef> => required(KeyKind::List(&SpawnDef::SHAPE)),
    /// Wave function collapse samples.
    pub sample: Vec<SampleDef> => required(KeyKind::List(&SampleDef::SHAPE)),
}
}

/// A place in a region file, for messages about what is written there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// The file.
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.col)
    }
}

/// One source file: its path and text.
#[derive(Clone, Debug)]
pub struct Source {
    /// Path, used in messages.
    pub path: PathBuf,
    /// Contents.
    pub text: String,
}

impl Registry {
    /// Loads every `*.toml` under `dir` (recursively, in path order), through the registry cache
    /// ([`cache`]) when there is one.
    pub fn load_dir(dir: &Path) -> Result<Registry, RegionErrors> {
        let whole = |message: String| {
            RegionErrors(vec![RegionError {
                file: dir.to_path_buf(),
                line: 0,
                col: 0,
                message,
            }])
        };
        if dir.exists() && !dir.is_dir() {
            return Err(whole(
                "is a file, not a directory of region files (*.toml)".into(),
            ));
        }
        let mut paths = Vec::new();
        collect_toml(dir, &mut paths).map_err(|e| whole(format!("cannot read directory: {e}")))?;
        if paths.is_empty() {
            return Err(whole("no *.toml region files in this directory".into()));
        }
        paths.sort();
        let mut sources = Vec::new();
        let mut errors = Vec::new();
        for path in paths {
            match read_source(&path) {
                Ok(s) => sources.push(s),
                Err(e) => errors.push(e),
            }
        }
        if !errors.is_empty() {
            return Err(RegionErrors(errors));
        }
        Registry::from_sources_cached(sources, cache::RegistryCache::from_env().as_ref())
    }

    /// [`Registry::from_sources`], reading the registry from `cache` when it holds it and
    /// keeping it there when it did not (see [`cache`]): the same registry either way.
    pub fn from_sources_cached(
        sources: Vec<Source>,
        cache: Option<&cache::RegistryCache>,
    ) -> Result<Registry, RegionErrors> {
        let Some(cache) = cache else {
            return Registry::from_sources(sources);
        };
        if let Some(registry) = cache.read(&sources) {
            return Ok(registry);
        }
        let registry = validate::build(&sources)?;
        cache.write(&sources, &registry);
        Ok(registry)
    }

    /// Builds a registry from in-memory sources (in the order given).
    pub fn from_sources(sources: Vec<Source>) -> Result<Registry, RegionErrors> {
        validate::build(&sources)
    }

    /// The terrain table.
    pub fn terrains(&self) -> &Arc<TerrainTable> {
        &self.terrains
    }

    /// The id of a terrain, or an error listing the known names.
    pub fn terrain(&self, name: &str) -> Result<TerrainId, String> {
        self.terrains
            .id(name)
            .ok_or_else(|| unknown_terrain(name, &self.terrains))
    }
}

/// "unknown terrain" message: "did you mean" the closest name, or the list of valid names.
pub fn unknown_terrain(name: &str, table: &TerrainTable) -> String {
    explain::unknown("terrain", name, &table.names())
}

/// Adds every `*.toml` file below `dir` (subdirectories included, in the order the file system
/// lists them) to `out`: the region files a directory holds.
pub fn collect_toml(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_toml(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
    Ok(())
}

/// Reads one region file, refusing anything but a regular file (a FIFO would block, a device
/// never end) and files over [`MAX_FILE_BYTES`], before reading them.
pub fn read_source(path: &Path) -> Result<Source, RegionError> {
    let fail = |message: String| RegionError {
        file: path.to_path_buf(),
        line: 0,
        col: 0,
        message,
    };
    let bytes = crate::input::read_regular(path, MAX_FILE_BYTES).map_err(|e| {
        fail(match e {
            ReadError::TooLarge(bytes) => {
                format!("file is {bytes} bytes; region files may be at most {MAX_FILE_BYTES} bytes")
            }
            ReadError::NotRegular(_) => format!("{e}; region files must be regular files"),
            ReadError::Unreadable(_) => e.to_string(),
        })
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, col) = error::line_col(
            &String::from_utf8_lossy(e.as_bytes()),
            e.utf8_error().valid_up_to(),
        );
        RegionError {
            file: path.to_path_buf(),
            line,
            col,
            message: "file is not valid UTF-8".into(),
        }
    })?;
    Ok(Source {
        path: path.to_path_buf(),
        text,
    })
}
