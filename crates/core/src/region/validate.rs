//! Parses region sources, merges them and checks every rule of the schema, collecting all
//! problems with their locations.

use super::error::{line_col, RegionError, RegionErrors};
use super::locate::{display, Locator, Path};
use super::schema::*;
use super::{unknown_terrain, Registry, RegistryData, Source};
use crate::gen::dungeon::{
    RoomKind, StreamerKind, VaultGlyph, VaultGrid, MAX_PANEL, MAX_PANELS, MAX_STREAMER_WIDTH,
    MIN_PANEL, MIN_ROOM,
};
use crate::map::{DoorKind, DoorWeights, Rgb, Terrain, TerrainId, TerrainTable};
use crate::tpath;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A problem found after parsing: which file, where in it, what.
struct Finding {
    file: usize,
    path: Path,
    message: String,
}

/// Collects findings and turns them into located errors.
struct Checker<'a> {
    sources: &'a [Source],
    findings: Vec<Finding>,
}

impl Checker<'_> {
    fn report(&mut self, file: usize, path: Path, message: impl Into<String>) {
        self.findings.push(Finding {
            file,
            path,
            message: message.into(),
        });
    }

    fn percent(&mut self, file: usize, path: Path, v: i64) {
        if !(0..=100).contains(&v) {
            let name = display(&path);
            self.report(
                file,
                path,
                format!("{name} = {v} is not a percentage (0..=100)"),
            );
        }
    }

    fn length(&mut self, file: usize, path: Path, v: i64) {
        if !(1..=1000).contains(&v) {
            let name = display(&path);
            self.report(
                file,
                path,
                format!("{name} = {v} is out of range (1..=1000)"),
            );
        }
    }

    fn range(&mut self, file: usize, path: Path, v: i64, lo: i64, hi: i64) {
        if !(lo..=hi).contains(&v) {
            let name = display(&path);
            self.report(
                file,
                path,
                format!("{name} = {v} is out of range ({lo}..={hi})"),
            );
        }
    }

    /// Reports `min > max` at the `min` key.
    fn ordered(
        &mut self,
        file: usize,
        at: Path,
        (lo_name, lo): (&str, i64),
        (hi_name, hi): (&str, i64),
    ) {
        if lo > hi {
            self.report(
                file,
                at,
                format!("{lo_name} = {lo} must not exceed {hi_name} = {hi}"),
            );
        }
    }

    fn open_terrain(&mut self, file: usize, path: Path, name: &str, table: &TerrainTable) {
        if let Some(id) = table.id(name) {
            if table.get(id).solid {
                let key = display(&path);
                self.report(
                    file,
                    path,
                    format!("{key} = '{name}' is a solid terrain; it must be open (solid = false)"),
                );
            }
        }
    }

    fn weight(&mut self, file: usize, path: Path, v: f64) {
        if !v.is_finite() || v < 0.0 {
            let name = display(&path);
            self.report(
                file,
                path,
                format!(
                    "{name} = {} is not a valid weight (a finite number ≥ 0)",
                    number(v)
                ),
            );
        }
    }

    fn terrain_ref(&mut self, file: usize, path: Path, name: &str, table: &TerrainTable) {
        if table.id(name).is_none() {
            self.report(file, path, unknown_terrain(name, table));
        }
    }

    /// A `door = "…"` reference: a `[[door]]` kind or a terrain.
    fn door_ref(&mut self, file: usize, path: Path, name: &str, table: &TerrainTable) {
        if table.door(name).is_none() {
            let kinds: Vec<String> = table
                .door_kinds()
                .iter()
                .map(|k| format!("'{}'", k.name))
                .collect();
            self.report(
                file,
                path,
                format!(
                    "'{name}' is neither a [[door]] kind (known: {}) nor a terrain",
                    if kinds.is_empty() {
                        "none".to_string()
                    } else {
                        kinds.join(", ")
                    }
                ),
            );
        }
    }

    fn into_errors(self) -> Vec<RegionError> {
        self.findings
            .into_iter()
            .map(|f| {
                let src = &self.sources[f.file];
                let (line, col) = Locator::new(&src.text)
                    .span(&f.path)
                    .map_or((0, 0), |s| line_col(&src.text, s.start));
                RegionError {
                    file: src.path.clone(),
                    line,
                    col,
                    message: f.message,
                }
            })
            .collect()
    }
}

/// A number as a modder wrote it: `-2`, `0.5`, `1e300` (not three hundred digits), `NaN`.
fn number(v: f64) -> String {
    let big = v.is_finite() && v != 0.0 && !(1e-4..1e16).contains(&v.abs());
    if big {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}

/// Parses, merges and validates `sources` into a registry.
pub fn build(sources: Vec<Source>) -> Result<Registry, RegionErrors> {
    let mut errors = Vec::new();
    let mut files = Vec::new();
    for (i, src) in sources.iter().enumerate() {
        match toml::from_str::<RegionFile>(&src.text) {
            Ok(f) => files.push((i, f)),
            Err(e) => {
                let (line, col) = e.span().map_or((0, 0), |s| line_col(&src.text, s.start));
                errors.push(RegionError {
                    file: src.path.clone(),
                    line,
                    col,
                    message: e.message().trim().to_string(),
                });
            }
        }
    }
    if !errors.is_empty() {
        return Err(RegionErrors(errors));
    }

    let mut ck = Checker {
        sources: &sources,
        findings: Vec::new(),
    };
    let merged = merge(&mut ck, files);
    let terrains = check_terrains(&mut ck, &merged);
    let doors = check_doors(&mut ck, &merged, &terrains);
    let terrains = terrains.with_doors(doors);
    check_references(&mut ck, &merged, &terrains);
    check_numbers(&mut ck, &merged);

    if !ck.findings.is_empty() {
        return Err(RegionErrors(ck.into_errors()));
    }
    let table = Arc::new(terrains);
    let fill = merged
        .map
        .as_ref()
        .and_then(|(_, m)| m.fill.as_deref())
        .and_then(|n| table.id(n))
        .unwrap_or(0);
    let edge = merged
        .map
        .as_ref()
        .and_then(|(_, m)| m.edge.as_deref())
        .and_then(|n| table.id(n))
        .unwrap_or(fill);
    Ok(Registry {
        terrains: table,
        map_fill: fill,
        map_edge: edge,
        data: RegistryData {
            terrain: merged.terrain.into_iter().map(|e| e.def).collect(),
            door: merged.door.into_iter().map(|e| e.def).collect(),
            dungeon: merged.dungeon.map(|(_, d)| d).unwrap_or_default(),
            corridor: merged.corridor.into_iter().map(|e| e.def).collect(),
            room: merged.room.into_iter().map(|e| e.def).collect(),
            streamer: merged.streamer.into_iter().map(|e| e.def).collect(),
            vault: merged.vault.into_iter().map(|e| e.def).collect(),
            rooms: merged.rooms.map(|(_, r)| r),
            cave: merged.cave.map(|(_, c)| c),
            town: merged.town.map(|(_, t)| t),
            spawn: merged.spawn.into_iter().map(|e| e.def).collect(),
        },
        limits: merged.limits.map(|(_, l)| l).unwrap_or_default(),
        files: sources.into_iter().map(|s| s.path).collect(),
    })
}

/// A list entry and where it came from.
struct Entry<T> {
    file: usize,
    index: usize,
    def: T,
}

/// All files merged, remembering each entry's origin.
#[derive(Default)]
struct Merged {
    terrain: Vec<Entry<TerrainDef>>,
    door: Vec<Entry<DoorDef>>,
    corridor: Vec<Entry<CorridorDef>>,
    room: Vec<Entry<RoomDef>>,
    streamer: Vec<Entry<StreamerDef>>,
    vault: Vec<Entry<VaultDef>>,
    spawn: Vec<Entry<SpawnDef>>,
    map: Option<(usize, MapDef)>,
    dungeon: Option<(usize, DungeonDef)>,
    rooms: Option<(usize, RoomsDef)>,
    cave: Option<(usize, CaveDef)>,
    town: Option<(usize, TownDef)>,
    limits: Option<(usize, LimitsDef)>,
}

fn merge(ck: &mut Checker, files: Vec<(usize, RegionFile)>) -> Merged {
    fn single<T>(
        ck: &mut Checker,
        slot: &mut Option<(usize, T)>,
        file: usize,
        value: Option<T>,
        key: &str,
    ) {
        let Some(v) = value else { return };
        if let Some((first, _)) = slot {
            let first = ck.sources[*first].path.display().to_string();
            ck.report(
                file,
                tpath![key],
                format!("[{key}] is already defined in {first}; it may appear in only one file"),
            );
        } else {
            *slot = Some((file, v));
        }
    }
    fn list<T>(out: &mut Vec<Entry<T>>, file: usize, defs: Vec<T>) {
        out.extend(
            defs.into_iter()
                .enumerate()
                .map(|(index, def)| Entry { file, index, def }),
        );
    }
    let mut m = Merged::default();
    for (file, f) in files {
        list(&mut m.terrain, file, f.terrain);
        list(&mut m.door, file, f.door);
        list(&mut m.corridor, file, f.corridor);
        list(&mut m.room, file, f.room);
        list(&mut m.streamer, file, f.streamer);
        list(&mut m.vault, file, f.vault);
        list(&mut m.spawn, file, f.spawn);
        single(ck, &mut m.map, file, f.map, "map");
        single(ck, &mut m.dungeon, file, f.dungeon, "dungeon");
        single(ck, &mut m.rooms, file, f.rooms, "rooms");
        single(ck, &mut m.cave, file, f.cave, "cave");
        single(ck, &mut m.town, file, f.town, "town");
        single(ck, &mut m.limits, file, f.limits, "limits");
    }
    dupes(ck, &m.terrain, "terrain", |d| &d.name);
    dupes(ck, &m.door, "door", |d| &d.name);
    dupes(ck, &m.corridor, "corridor", |d| &d.name);
    dupes(ck, &m.room, "room", |d| &d.name);
    dupes(ck, &m.streamer, "streamer", |d| &d.name);
    dupes(ck, &m.vault, "vault", |d| &d.name);
    dupes(ck, &m.spawn, "spawn", |d| &d.name);
    shared_region_names(ck, &m);
    m
}

/// Where a region entry is: its kind, file and index.
type Origin<'a> = (&'a str, usize, usize);

/// The origin and name of every entry of a region list.
fn origins<'a, T>(
    kind: &'a str,
    list: &'a [Entry<T>],
    name: fn(&T) -> &String,
) -> Vec<(Origin<'a>, &'a String)> {
    list.iter()
        .map(|e| ((kind, e.file, e.index), name(&e.def)))
        .collect()
}

/// Reports a room, streamer or vault region named like a region of an earlier kind (corridor,
/// room, streamer, vault): they share the map's region names.
fn shared_region_names(ck: &mut Checker, m: &Merged) {
    let mut seen: BTreeMap<&str, Origin> = BTreeMap::new();
    let lists = [
        origins("corridor", &m.corridor, |d| &d.name),
        origins("room", &m.room, |d| &d.name),
        origins("streamer", &m.streamer, |d| &d.name),
        origins("vault", &m.vault, |d| &d.name),
    ];
    for entries in &lists {
        for &((kind, file, index), name) in entries {
            match seen.get(name.as_str()) {
                Some(&(other, ofile, oindex)) if other != kind => {
                    let where_ = ck.sources[ofile].path.display().to_string();
                    ck.report(
                        file,
                        tpath![kind, index, "name"],
                        format!(
                            "{kind} '{name}' has the name of {other} #{} ({where_}); corridor, \
                             room, streamer and vault regions share one namespace",
                            oindex + 1
                        ),
                    );
                }
                Some(_) => {}
                None => {
                    seen.insert(name, (kind, file, index));
                }
            }
        }
    }
}

/// Reports every entry whose name repeats an earlier one.
fn dupes<T>(ck: &mut Checker, entries: &[Entry<T>], key: &str, name: impl Fn(&T) -> &String) {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        let n = name(&e.def);
        if let Some(&first) = seen.get(n.as_str()) {
            let f = &entries[first];
            let where_ = ck.sources[f.file].path.display().to_string();
            ck.report(
                e.file,
                tpath![key, e.index, "name"],
                format!(
                    "{key} '{n}' is already defined ({where_}, {key} #{})",
                    f.index + 1
                ),
            );
        } else {
            seen.insert(n, i);
        }
    }
}

fn check_terrains(ck: &mut Checker, m: &Merged) -> TerrainTable {
    let mut out = Vec::new();
    let mut by_glyph: BTreeMap<char, (usize, bool, bool)> = BTreeMap::new();
    if m.terrain.is_empty() {
        ck.report(0, tpath![], "no [[terrain]] is defined in any region file");
    }
    for e in &m.terrain {
        let d = &e.def;
        let at = |k: &str| tpath!["terrain", e.index, k];
        if d.name.trim().is_empty() {
            ck.report(e.file, at("name"), "terrain name must not be empty");
        }
        let mut chars = d.glyph.chars();
        let glyph = match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_control() => c,
            _ => {
                ck.report(
                    e.file,
                    at("glyph"),
                    format!(
                        "glyph = {:?} must be exactly one printable character",
                        d.glyph
                    ),
                );
                '?'
            }
        };
        let color = Rgb::parse(&d.color).unwrap_or_else(|| {
            ck.report(
                e.file,
                at("color"),
                format!(
                    "color = {:?} is not a colour of the form \"#rrggbb\"",
                    d.color
                ),
            );
            Rgb(255, 0, 255)
        });
        if d.hazard && d.solid {
            ck.report(
                e.file,
                at("hazard"),
                format!(
                    "terrain '{}' is solid; only an open terrain can be a hazard (a walker can \
                     never step on a solid one)",
                    d.name
                ),
            );
        }
        match by_glyph.get(&glyph) {
            Some(&(other, solid, _)) if solid != d.solid && glyph != '?' => {
                let o = &m.terrain[other].def.name;
                ck.report(
                    e.file,
                    at("solid"),
                    format!(
                        "terrain '{}' shares glyph '{glyph}' with '{o}' but not its solidity; \
                         terrains drawn alike must agree on `solid`",
                        d.name
                    ),
                );
            }
            Some(&(other, _, hazard)) if hazard != d.hazard && glyph != '?' => {
                let o = &m.terrain[other].def.name;
                ck.report(
                    e.file,
                    at("hazard"),
                    format!(
                        "terrain '{}' shares glyph '{glyph}' with '{o}' but not `hazard`; \
                         terrains drawn alike must agree on it",
                        d.name
                    ),
                );
            }
            Some(_) => {}
            None => {
                by_glyph.insert(glyph, (out.len(), d.solid, d.hazard));
            }
        }
        out.push(Terrain {
            name: d.name.clone(),
            glyph,
            color,
            solid: d.solid,
            hazard: d.hazard,
        });
    }
    if out.len() > u16::MAX as usize {
        ck.report(0, tpath![], "too many terrains (at most 65535)");
    }
    TerrainTable::new(out)
}

/// The `[[door]]` kinds: names, state terrains (closed, locked and secret solid; open and
/// broken open and no hazard) and weights.
fn check_doors(ck: &mut Checker, m: &Merged, t: &TerrainTable) -> Vec<DoorKind> {
    let mut out = Vec::new();
    for e in &m.door {
        let d = &e.def;
        let at = |k: &str| tpath!["door", e.index, k];
        if d.name.trim().is_empty() {
            ck.report(e.file, at("name"), "door name must not be empty");
        }
        let mut state = |key: &str, name: &str, solid: bool| -> Option<TerrainId> {
            let Some(id) = t.id(name) else {
                ck.report(e.file, at(key), unknown_terrain(name, t));
                return None;
            };
            let terrain = t.get(id);
            let wrong = if solid {
                (!terrain.solid).then_some("must be solid: a shut door blocks movement")
            } else if terrain.solid {
                Some("must be open: a walker passes this door without opening it")
            } else {
                terrain
                    .hazard
                    .then_some("must not be a hazard: a walker passes this door")
            };
            if let Some(why) = wrong {
                ck.report(
                    e.file,
                    at(key),
                    format!("door '{}': {key} = '{name}' {why}", d.name),
                );
            }
            Some(id)
        };
        let closed = state("closed", &d.closed, true);
        let open = state("open", &d.open, false);
        let locked = match &d.locked {
            Some(name) => state("locked", name, true),
            None => closed,
        };
        let broken = match &d.broken {
            Some(name) => state("broken", name, false),
            None => open,
        };
        let secret = match &d.secret {
            Some(name) => state("secret", name, true).map(Some),
            None => Some(None),
        };
        let w = &d.weights;
        for (key, v) in [
            ("closed", w.closed),
            ("open", w.open),
            ("locked", w.locked),
            ("secret", w.secret),
        ] {
            ck.weight(e.file, tpath!["door", e.index, "weights", key], v);
        }
        if let (Some(closed), Some(open), Some(locked), Some(broken), Some(secret)) =
            (closed, open, locked, broken, secret)
        {
            out.push(DoorKind {
                name: d.name.as_str().into(),
                closed,
                open,
                locked,
                broken,
                secret,
                weights: DoorWeights {
                    closed: w.closed,
                    open: w.open,
                    locked: w.locked,
                    secret: w.secret,
                },
            });
        }
    }
    out
}

fn check_references(ck: &mut Checker, m: &Merged, t: &TerrainTable) {
    if let Some((f, map)) = &m.map {
        for (key, v) in [("fill", &map.fill), ("edge", &map.edge)] {
            if let Some(name) = v {
                ck.terrain_ref(*f, tpath!["map", key], name, t);
            }
        }
    }
    for e in &m.corridor {
        let d = &e.def;
        for (key, name) in [("floor", &d.floor), ("walls", &d.walls)] {
            ck.terrain_ref(e.file, tpath!["corridor", e.index, key], name, t);
        }
        ck.door_ref(e.file, tpath!["corridor", e.index, "door"], &d.door, t);
    }
    for e in &m.corridor {
        ck.open_terrain(
            e.file,
            tpath!["corridor", e.index, "floor"],
            &e.def.floor,
            t,
        );
    }
    for e in &m.room {
        let d = &e.def;
        let at = |k: &str| tpath!["room", e.index, k];
        for (key, name) in [("floor", &d.floor), ("wall", &d.wall)] {
            ck.terrain_ref(e.file, at(key), name, t);
        }
        ck.door_ref(e.file, at("door"), &d.door, t);
        ck.open_terrain(e.file, at("floor"), &d.floor, t);
        if let Some(name) = &d.furnishing {
            ck.terrain_ref(e.file, at("furnishing"), name, t);
        }
    }
    for e in &m.streamer {
        ck.terrain_ref(
            e.file,
            tpath!["streamer", e.index, "terrain"],
            &e.def.terrain,
            t,
        );
    }
    if let Some((f, d)) = &m.dungeon {
        let open_keys = [
            ("up_stairs", &d.up_stairs),
            ("down_stairs", &d.down_stairs),
            ("bridge", &d.bridge),
        ];
        for (key, name) in open_keys {
            let Some(name) = name else { continue };
            ck.terrain_ref(*f, tpath!["dungeon", key], name, t);
            ck.open_terrain(*f, tpath!["dungeon", key], name, t);
            if t.id(name).is_some_and(|id| t.get(id).hazard) {
                ck.report(
                    *f,
                    tpath!["dungeon", key],
                    format!("dungeon.{key} = '{name}' is a hazard; it must be safe to stand on"),
                );
            }
        }
        if let Some(name) = &d.corridor {
            if !m.corridor.iter().any(|e| &e.def.name == name) {
                let known: Vec<String> = m
                    .corridor
                    .iter()
                    .map(|e| format!("'{}'", e.def.name))
                    .collect();
                ck.report(
                    *f,
                    tpath!["dungeon", "corridor"],
                    format!(
                        "corridor = '{name}' names no [[corridor]] region (known: {})",
                        known.join(", ")
                    ),
                );
            }
        }
    }
    let dungeon = m
        .dungeon
        .as_ref()
        .map(|(_, d)| d.clone())
        .unwrap_or_default();
    for e in &m.vault {
        check_vault(ck, e, t, &dungeon);
    }
    if let Some((f, r)) = &m.rooms {
        for (key, name) in [
            ("floor", &r.floor),
            ("corridor", &r.corridor),
            ("wall", &r.wall),
        ] {
            ck.terrain_ref(*f, tpath!["rooms", key], name, t);
        }
    }
    if let Some((f, c)) = &m.cave {
        for (key, name) in [
            ("floor", &c.floor),
            ("wall", &c.wall),
            ("entrance", &c.entrance),
            ("exit", &c.exit),
            ("pillar", &c.pillar),
        ] {
            ck.terrain_ref(*f, tpath!["cave", key], name, t);
        }
    }
    if let Some((f, town)) = &m.town {
        check_town(ck, *f, town, t);
    }
}

fn check_town(ck: &mut Checker, f: usize, town: &TownDef, t: &TerrainTable) {
    for (key, name) in [
        ("wall", &town.wall),
        ("vertical_door", &town.vertical_door),
        ("horizontal_door", &town.horizontal_door),
        ("vertical_gate", &town.vertical_gate),
        ("horizontal_gate", &town.horizontal_gate),
        ("street", &town.street),
        ("floor", &town.floor),
        ("unused", &town.unused),
    ] {
        ck.terrain_ref(f, tpath!["town", key], name, t);
    }
    if let Some(d) = &town.debug {
        for (key, name) in [
            ("isolated", &d.isolated),
            ("live", &d.live),
            ("dead", &d.dead),
            ("unused", &d.unused),
            ("north", &d.north),
            ("east", &d.east),
            ("south", &d.south),
            ("west", &d.west),
            ("no_heading", &d.no_heading),
        ] {
            ck.terrain_ref(f, tpath!["town", "debug", key], name, t);
        }
    }
}

fn check_numbers(ck: &mut Checker, m: &Merged) {
    let dungeon = m
        .dungeon
        .as_ref()
        .map(|(_, d)| d.clone())
        .unwrap_or_default();
    if let Some((f, d)) = &m.dungeon {
        ck.percent(*f, tpath!["dungeon", "turn_chance"], d.turn_chance);
        ck.percent(
            *f,
            tpath!["dungeon", "stubborn_corridor"],
            d.stubborn_corridor,
        );
        ck.length(*f, tpath!["dungeon", "segment_minlen"], d.segment_minlen);
        ck.length(*f, tpath!["dungeon", "segment_maxlen"], d.segment_maxlen);
        if d.segment_minlen > d.segment_maxlen {
            ck.report(
                *f,
                tpath!["dungeon", "segment_minlen"],
                format!(
                    "segment_minlen = {} must not exceed segment_maxlen = {}",
                    d.segment_minlen, d.segment_maxlen
                ),
            );
        }
    }
    for e in &m.corridor {
        let d = &e.def;
        let at = |k: &str| tpath!["corridor", e.index, k];
        let c = |k: &str| tpath!["corridor", e.index, "constants", k];
        ck.weight(e.file, at("weight"), d.weight);
        let k = &d.constants;
        if let Some(v) = k.turn_chance {
            ck.percent(e.file, c("turn_chance"), v);
        }
        if let Some(v) = k.stubborn_corridor {
            ck.percent(e.file, c("stubborn_corridor"), v);
        }
        if let Some(v) = k.segment_minlen {
            ck.length(e.file, c("segment_minlen"), v);
        }
        if let Some(v) = k.segment_maxlen {
            ck.length(e.file, c("segment_maxlen"), v);
        }
        let min = k.segment_minlen.unwrap_or(dungeon.segment_minlen);
        let max = k.segment_maxlen.unwrap_or(dungeon.segment_maxlen);
        if min > max {
            ck.report(
                e.file,
                c(if k.segment_minlen.is_some() {
                    "segment_minlen"
                } else {
                    "segment_maxlen"
                }),
                format!(
                    "corridor '{}': segment_minlen {min} exceeds segment_maxlen {max} \
                     (after applying [dungeon] defaults)",
                    d.name
                ),
            );
        }
    }
    for e in &m.spawn {
        ck.weight(e.file, tpath!["spawn", e.index, "weight"], e.def.weight);
    }
    if let Some((f, d)) = &m.dungeon {
        check_dungeon_layout(ck, *f, d);
    }
    for e in &m.room {
        let d = &e.def;
        let at = |k: &str| tpath!["room", e.index, k];
        ck.weight(e.file, at("weight"), d.weight);
        if RoomKind::from_name(&d.kind).is_none() {
            ck.report(
                e.file,
                at("kind"),
                format!(
                    "kind = '{}' is not a room kind (valid: {})",
                    d.kind,
                    RoomKind::NAMES.join(", ")
                ),
            );
        }
        depths(ck, e.file, "room", e.index, d.min_depth, d.max_depth);
    }
    for e in &m.streamer {
        let d = &e.def;
        let at = |k: &str| tpath!["streamer", e.index, k];
        ck.weight(e.file, at("weight"), d.weight);
        if StreamerKind::from_name(&d.kind).is_none() {
            ck.report(
                e.file,
                at("kind"),
                format!(
                    "kind = '{}' is not a streamer kind (valid: {})",
                    d.kind,
                    StreamerKind::NAMES.join(", ")
                ),
            );
        }
        let most = MAX_STREAMER_WIDTH as i64;
        ck.range(e.file, at("min_width"), d.min_width, 1, most);
        ck.range(e.file, at("max_width"), d.max_width, 1, most);
        ck.ordered(
            e.file,
            at("min_width"),
            ("min_width", d.min_width),
            ("max_width", d.max_width),
        );
        ck.range(e.file, at("min_depth"), d.min_depth, 1, 1000);
        if let Some(p) = &d.priority {
            if crate::map::priority::by_name(p).is_none() {
                let names: Vec<String> = crate::map::priority::NAMED
                    .iter()
                    .map(|(n, _)| n.to_ascii_lowercase())
                    .collect();
                ck.report(
                    e.file,
                    at("priority"),
                    format!(
                        "priority = '{p}' is not a priority name (valid: {})",
                        names.join(", ")
                    ),
                );
            }
        }
    }
    if let Some((f, l)) = &m.limits {
        let at = |k: &str| tpath!["limits", k];
        if let Some(v) = l.max_instructions {
            ck.range(*f, at("max_instructions"), v, 1_000_000, 100_000_000_000);
        }
        if let Some(v) = l.max_memory_mib {
            ck.range(*f, at("max_memory_mib"), v, 16, 16_384);
        }
        if let Some(v) = l.max_seconds {
            if !(0.1..=600.0).contains(&v) {
                ck.report(
                    *f,
                    at("max_seconds"),
                    format!(
                        "limits.max_seconds = {} is out of range (0.1..=600)",
                        number(v)
                    ),
                );
            }
        }
    }
    for e in &m.vault {
        ck.weight(e.file, tpath!["vault", e.index, "weight"], e.def.weight);
        depths(
            ck,
            e.file,
            "vault",
            e.index,
            e.def.min_depth,
            e.def.max_depth,
        );
    }
}

/// `min_depth` and `max_depth` of a room or vault: 1..=1000, in order.
fn depths(ck: &mut Checker, file: usize, kind: &str, index: usize, lo: i64, hi: i64) {
    ck.range(file, tpath![kind, index, "min_depth"], lo, 1, 1000);
    ck.range(file, tpath![kind, index, "max_depth"], hi, 1, 1000);
    ck.ordered(
        file,
        tpath![kind, index, "min_depth"],
        ("min_depth", lo),
        ("max_depth", hi),
    );
}

/// The level, panel, count and size keys of `[dungeon]`.
fn check_dungeon_layout(ck: &mut Checker, f: usize, d: &DungeonDef) {
    let at = |k: &str| tpath!["dungeon", k];
    for (key, v, lo, hi) in [
        ("level_width", d.level_width, 16, 4096),
        ("level_height", d.level_height, 16, 4096),
        (
            "panel_width",
            d.panel_width,
            MIN_PANEL as i64,
            MAX_PANEL as i64,
        ),
        (
            "panel_height",
            d.panel_height,
            MIN_PANEL as i64,
            MAX_PANEL as i64,
        ),
        ("min_streamers", d.min_streamers, 0, 64),
        ("max_streamers", d.max_streamers, 0, 64),
        ("min_river_depth", d.min_river_depth, 1, 1000),
        ("min_chasm_depth", d.min_chasm_depth, 1, 1000),
        ("max_vaults", d.max_vaults, 0, 32),
        ("min_stairs", d.min_stairs, 0, 32),
        ("max_stairs", d.max_stairs, 0, 32),
        ("fixup_trials", d.fixup_trials, 1, 1000),
        (
            "secret_door_reveal_depth",
            d.secret_door_reveal_depth,
            0,
            1000,
        ),
        (
            "secret_door_reveal_radius",
            d.secret_door_reveal_radius,
            0,
            1000,
        ),
    ] {
        ck.range(f, at(key), v, lo, hi);
    }
    for (key, v) in [
        ("reduce_chasm_chance", d.reduce_chasm_chance),
        ("vault_chance", d.vault_chance),
        ("life_percent", d.life_percent),
    ] {
        ck.percent(f, at(key), v);
    }
    ck.ordered(
        f,
        at("min_streamers"),
        ("min_streamers", d.min_streamers),
        ("max_streamers", d.max_streamers),
    );
    ck.ordered(
        f,
        at("min_stairs"),
        ("min_stairs", d.min_stairs),
        ("max_stairs", d.max_stairs),
    );
    let sides = [
        ("level_width", d.level_width, "panel_width", d.panel_width),
        (
            "level_height",
            d.level_height,
            "panel_height",
            d.panel_height,
        ),
    ];
    for (key, side, panel_key, panel) in sides {
        if panel < MIN_PANEL as i64 || !(16..=4096).contains(&side) {
            continue;
        }
        if side % panel != 0 {
            ck.report(
                f,
                at(key),
                format!("{key} = {side} is not a multiple of {panel_key} = {panel}"),
            );
        } else if side / panel > MAX_PANELS as i64 {
            ck.report(
                f,
                at(key),
                format!(
                    "{key} = {side} makes {} panels of {panel}; at most {MAX_PANELS} are allowed",
                    side / panel
                ),
            );
        }
    }
    let rooms = [
        ("width", d.room_min_width, d.room_max_width, d.panel_width),
        (
            "height",
            d.room_min_height,
            d.room_max_height,
            d.panel_height,
        ),
    ];
    for (axis, lo, hi, panel) in rooms {
        let most = (panel - 2).max(MIN_ROOM as i64);
        let (lo_key, hi_key) = (format!("room_min_{axis}"), format!("room_max_{axis}"));
        ck.range(f, at(&lo_key), lo, MIN_ROOM as i64, most);
        ck.range(f, at(&hi_key), hi, MIN_ROOM as i64, most);
        ck.ordered(f, at(&lo_key), (&lo_key, lo), (&hi_key, hi));
    }
}

/// A vault's legend and grid: single-character glyphs naming known terrains, a rectangular grid
/// using only those glyphs, no sealed open cells, and room for it on the level.
fn check_vault(ck: &mut Checker, e: &Entry<VaultDef>, t: &TerrainTable, dungeon: &DungeonDef) {
    let d = &e.def;
    let mut legend: BTreeMap<char, VaultGlyph> = BTreeMap::new();
    let mut complete = true;
    for (glyph, name) in &d.legend {
        let at = tpath!["vault", e.index, "legend", glyph.as_str()];
        let mut chars = glyph.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            ck.report(
                e.file,
                at,
                format!("legend key {glyph:?} must be exactly one character"),
            );
            complete = false;
            continue;
        };
        match VaultGlyph::named(t, name) {
            Some(g) => {
                legend.insert(c, g);
            }
            None => {
                ck.report(e.file, at, unknown_terrain(name, t));
                complete = false;
            }
        }
    }
    if !complete {
        return;
    }
    let at = tpath!["vault", e.index, "grid"];
    let grid = match VaultGrid::parse(&d.name, &d.grid, |c| legend.get(&c).cloned()) {
        Ok(g) => g,
        Err(err) => {
            ck.report(e.file, at, err.to_string());
            return;
        }
    };
    if let Some((row, col)) = grid.sealed_cell(t) {
        ck.report(
            e.file,
            at.clone(),
            format!(
                "vault '{}' grid row {row}, column {col} is open but sealed in by solid cells; \
                 corridors can only enter through open cells on the grid's border",
                d.name
            ),
        );
    }
    let (w, h) = (grid.width as i64 + 4, grid.height as i64 + 4);
    if w > dungeon.level_width || h > dungeon.level_height {
        ck.report(
            e.file,
            at,
            format!(
                "vault '{}' is {}×{}; with a 2-cell margin it must fit the {}×{} level",
                d.name, grid.width, grid.height, dungeon.level_width, dungeon.level_height
            ),
        );
    }
}
