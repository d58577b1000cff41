//! Parses region sources, merges them and checks every rule of the schema, collecting all
//! problems with their locations.

use super::error::{line_col, RegionError, RegionErrors};
use super::explain::{describe, did_you_mean, parse_error};
use super::locate::{Locator, Path, Seg};
use super::schema::*;
use super::{Registry, RegistryData, Source};
use crate::gen::dungeon::{
    RoomKind, StreamerKind, VaultGrid, MAX_PANEL, MAX_PANELS, MAX_STREAMER_WIDTH, MIN_PANEL,
    MIN_ROOM,
};
use crate::map::{Rgb, Terrain, TerrainTable};
use crate::tpath;
use std::collections::{BTreeMap, BTreeSet};
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
    /// Names declared by files that could not be read as region files: references to them
    /// only follow from that one mistake and are not reported.
    excused: BTreeSet<String>,
}

impl Checker<'_> {
    /// What `path` points at, as the modder wrote it: `room 'great hall': weight`.
    fn describe(&self, file: usize, path: &[Seg]) -> String {
        let locator = Locator::new(&self.sources[file].text);
        describe(path, |p| locator.string(p))
    }

    /// Whether a reference to `name` that resolves to nothing may only follow from a file that
    /// could not be read.
    fn excused(&self, name: &str) -> bool {
        self.excused.contains(name)
    }

    /// Reports `value` at `path` unless it is one of `valid` (with a suggestion when it is a
    /// likely typo of one).
    fn choice(&mut self, file: usize, path: Path, what: &str, value: &str, valid: &[&str]) {
        if valid.contains(&value) {
            return;
        }
        let key = self.describe(file, &path);
        let message = match did_you_mean(value, valid.iter().copied()) {
            Some(s) => format!("{key} = '{value}' is not {what}; did you mean '{s}'?"),
            None => format!(
                "{key} = '{value}' is not {what} (valid: {})",
                valid.join(", ")
            ),
        };
        self.report(file, path, message);
    }

    fn report(&mut self, file: usize, path: Path, message: impl Into<String>) {
        self.findings.push(Finding {
            file,
            path,
            message: message.into(),
        });
    }

    fn percent(&mut self, file: usize, path: Path, v: i64) {
        if !(0..=100).contains(&v) {
            let name = self.describe(file, &path);
            self.report(
                file,
                path,
                format!("{name} = {v} is not a percentage (0..=100)"),
            );
        }
    }

    fn length(&mut self, file: usize, path: Path, v: i64) {
        if !(1..=1000).contains(&v) {
            let name = self.describe(file, &path);
            self.report(
                file,
                path,
                format!("{name} = {v} is out of range (1..=1000)"),
            );
        }
    }

    fn range(&mut self, file: usize, path: Path, v: i64, lo: i64, hi: i64) {
        if !(lo..=hi).contains(&v) {
            let name = self.describe(file, &path);
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
                let key = self.describe(file, &path);
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
            let name = self.describe(file, &path);
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
        if table.id(name).is_some() || self.excused(name) {
            return;
        }
        let key = self.describe(file, &path);
        let names = table.names();
        let message = match did_you_mean(name, names.iter().copied()) {
            Some(s) => format!("{key} = '{name}' is not a terrain; did you mean '{s}'?"),
            None => format!(
                "{key} = '{name}' is not a terrain (known: {})",
                names
                    .iter()
                    .map(|n| format!("'{n}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        self.report(file, path, message);
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

/// Parses, merges and validates `sources` into a registry. A file that cannot be read as a
/// region file is reported once, in plain words: the names it declares (as far as it is TOML)
/// are kept, so the other files' references to them do not become errors of their own.
pub fn build(sources: Vec<Source>) -> Result<Registry, RegionErrors> {
    let mut errors = Vec::new();
    let mut files = Vec::new();
    let mut excused = BTreeSet::new();
    for (i, src) in sources.iter().enumerate() {
        match toml::from_str::<RegionFile>(&src.text) {
            Ok(f) => files.push((i, f)),
            Err(e) => {
                let (line, col) = e.span().map_or((0, 0), |s| line_col(&src.text, s.start));
                errors.push(RegionError {
                    file: src.path.clone(),
                    line,
                    col,
                    message: parse_error(&src.text, e.message(), e.span()),
                });
                excused.extend(declared_names(&src.text));
            }
        }
    }
    let broken = !errors.is_empty();

    let mut ck = Checker {
        sources: &sources,
        findings: Vec::new(),
        excused,
    };
    let merged = merge(&mut ck, files);
    let terrains = check_terrains(&mut ck, &merged, broken);
    check_references(&mut ck, &merged, &terrains);
    check_numbers(&mut ck, &merged);

    if broken || !ck.findings.is_empty() {
        errors.extend(ck.into_errors());
        return Err(RegionErrors(errors));
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

fn check_terrains(ck: &mut Checker, m: &Merged, broken: bool) -> TerrainTable {
    let mut out = Vec::new();
    let mut by_glyph: BTreeMap<char, (usize, bool)> = BTreeMap::new();
    // With a file that could not be read, its terrains may be the missing ones.
    if m.terrain.is_empty() && !broken {
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
                let key = ck.describe(e.file, &at("glyph"));
                ck.report(
                    e.file,
                    at("glyph"),
                    format!(
                        "{key} = {:?} must be exactly one printable character",
                        d.glyph
                    ),
                );
                '?'
            }
        };
        let color = Rgb::parse(&d.color).unwrap_or_else(|| {
            let key = ck.describe(e.file, &at("color"));
            ck.report(
                e.file,
                at("color"),
                format!(
                    "{key} = {:?} is not a colour of the form \"#rrggbb\"",
                    d.color
                ),
            );
            Rgb(255, 0, 255)
        });
        match by_glyph.get(&glyph) {
            Some(&(other, solid)) if solid != d.solid && glyph != '?' => {
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
            Some(_) => {}
            None => {
                by_glyph.insert(glyph, (out.len(), d.solid));
            }
        }
        out.push(Terrain {
            name: d.name.clone(),
            glyph,
            color,
            solid: d.solid,
        });
    }
    if out.len() > u16::MAX as usize {
        ck.report(0, tpath![], "too many terrains (at most 65535)");
    }
    TerrainTable::new(out)
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
        for (key, name) in [("floor", &d.floor), ("walls", &d.walls), ("door", &d.door)] {
            ck.terrain_ref(e.file, tpath!["corridor", e.index, key], name, t);
        }
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
        for (key, name) in [("floor", &d.floor), ("wall", &d.wall), ("door", &d.door)] {
            ck.terrain_ref(e.file, at(key), name, t);
        }
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
        for (key, name) in [("up_stairs", &d.up_stairs), ("down_stairs", &d.down_stairs)] {
            let Some(name) = name else { continue };
            ck.terrain_ref(*f, tpath!["dungeon", key], name, t);
            ck.open_terrain(*f, tpath!["dungeon", key], name, t);
        }
        if let Some(name) = &d.corridor {
            if !m.corridor.iter().any(|e| &e.def.name == name) && !ck.excused(name) {
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
        ck.choice(e.file, at("kind"), "a room kind", &d.kind, &RoomKind::NAMES);
        depths(ck, e.file, "room", e.index, d.min_depth, d.max_depth);
    }
    for e in &m.streamer {
        let d = &e.def;
        let at = |k: &str| tpath!["streamer", e.index, k];
        ck.weight(e.file, at("weight"), d.weight);
        ck.choice(
            e.file,
            at("kind"),
            "a streamer kind",
            &d.kind,
            &StreamerKind::NAMES,
        );
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
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                ck.choice(e.file, at("priority"), "a priority name", p, &names);
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
    let mut legend: BTreeMap<char, crate::map::TerrainId> = BTreeMap::new();
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
        match t.id(name) {
            Some(id) => {
                legend.insert(c, id);
            }
            None => {
                ck.terrain_ref(e.file, at, name, t);
                complete = false;
            }
        }
    }
    if !complete {
        return;
    }
    let at = tpath!["vault", e.index, "grid"];
    let grid = match VaultGrid::parse(&d.name, &d.grid, |c| legend.get(&c).copied()) {
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

/// The terrain and region names a file declares, read as plain TOML (for a file whose values
/// do not fit the schema) and, past syntax errors, as much of it as the TOML reader recovers,
/// plus every line of the form `name = "…"` (the entry under a broken header).
fn declared_names(text: &str) -> Vec<String> {
    let mut names: Vec<String> = text
        .lines()
        .filter_map(|line| {
            let (key, value) = line.split_once('=')?;
            let value = value.trim();
            let value = value.strip_prefix('"')?;
            let end = value.find('"')?;
            (key.trim() == "name").then(|| value[..end].to_string())
        })
        .collect();
    names.extend(entry_names(text));
    names
}

/// The `name` of every list entry of the sections that name things, as far as the TOML reader
/// recovers the file.
fn entry_names(text: &str) -> Vec<String> {
    let (doc, _) = toml::de::DeTable::parse_recoverable(text);
    let doc = doc.into_inner();
    let mut names = Vec::new();
    for section in ["terrain", "corridor", "room", "streamer", "vault", "spawn"] {
        let Some(entries) = doc.get(section).and_then(|v| v.get_ref().as_array()) else {
            continue;
        };
        names.extend(entries.iter().filter_map(|e| {
            let name = e.get_ref().as_table()?.get("name")?;
            name.get_ref().as_str().map(str::to_string)
        }));
    }
    names
}
