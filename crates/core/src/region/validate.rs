//! Parses region sources, merges them and checks every rule of the schema, collecting all
//! problems with their locations.

use super::entries::Resolved;
use super::error::{line_col, RegionError, RegionErrors};
use super::explain::{describe, did_you_mean, parse_error};
use super::locate::{Locator, Path, Seg};
use super::resolve::{self, number, Excused, FileNames, Problems};
use super::schema::*;
use super::{Place, Registry, RegistryData, Source};
use crate::gen::field::distance::MAX_COST;
use crate::map::{Rgb, Terrain, TerrainTable};
use crate::rng::{check_weights, WeightProblem};
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
    /// Names declared by files that could not be read as region files: references to them
    /// only follow from that one mistake and are not reported.
    excused: &'a Excused,
}

impl<'a> Checker<'a> {
    /// What `path` points at, as the modder wrote it: `room 'great hall': weight`.
    fn describe(&self, file: usize, path: &[Seg]) -> String {
        let locator = Locator::new(&self.sources[file].text);
        describe(path, |p| locator.string(p))
    }

    /// Problems of the entry at `prefix` in `file`, its keys named as the modder wrote them.
    fn problems(&self, file: usize, prefix: Path) -> Problems<'a> {
        Problems::in_file(
            prefix,
            FileNames::new(&self.sources[file].text, self.excused),
        )
    }

    fn report(&mut self, file: usize, path: Path, message: impl Into<String>) {
        self.findings.push(Finding {
            file,
            path,
            message: message.into(),
        });
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

    /// Turns an entry's problems into findings of `file`.
    fn absorb(&mut self, file: usize, problems: Problems<'_>) {
        for (path, message) in problems.found {
            self.report(file, path, message);
        }
    }

    fn terrain_ref(&mut self, file: usize, path: Path, name: &str, table: &TerrainTable) {
        if table.id(name).is_some() {
            return;
        }
        let key = self.describe(file, &path);
        if let Some(message) = self.excused.missing_terrain(&key, name, table) {
            self.report(file, path, message);
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

/// The keys `[limits]` takes.
const LIMIT_KEYS: [&str; 3] = ["max_instructions", "max_memory_mib", "max_seconds"];

/// Every unknown key of `src`'s `[limits]` that is not on line `reported` (where the reader's
/// own error already points), each at its place, when the file's syntax is sound.
fn other_unknown_limits(src: &Source, reported: usize) -> Vec<RegionError> {
    let Ok(table) = src.text.parse::<toml::Table>() else {
        return Vec::new();
    };
    let Some(limits) = table.get("limits").and_then(toml::Value::as_table) else {
        return Vec::new();
    };
    let locator = Locator::new(&src.text);
    limits
        .keys()
        .filter(|k| !LIMIT_KEYS.contains(&k.as_str()))
        .filter_map(|key| {
            let (line, col) = locator
                .span(&[Seg::from("limits"), Seg::from(key.as_str())])
                .map_or((0, 0), |s| line_col(&src.text, s.start));
            let message = match did_you_mean(key, LIMIT_KEYS) {
                Some(k) => format!("limits: unknown key '{key}'; did you mean '{k}'?"),
                None => format!(
                    "limits: unknown key '{key}' (keys: {})",
                    LIMIT_KEYS.join(", ")
                ),
            };
            (line != reported).then(|| RegionError {
                file: src.path.clone(),
                line,
                col,
                message,
            })
        })
        .collect()
}

/// Where a TOML error without a place most likely is: the reader's only such error is
/// nesting too deep (a header of thousands of dotted keys, arrays in arrays), so the line that
/// nests deepest (dots, brackets and braces), at its first character.
fn deepest_line(text: &str) -> (usize, usize) {
    let depth = |l: &str| l.bytes().filter(|b| b".[{".contains(b)).count();
    text.lines()
        .enumerate()
        .max_by_key(|&(i, l)| (depth(l), std::cmp::Reverse(i)))
        .map_or((1, 1), |(i, l)| {
            (
                i + 1,
                l.chars().take_while(|c| c.is_whitespace()).count() + 1,
            )
        })
}

/// The TOML reader's message for nesting too deep, in a modder's words; others as they are.
fn unplaced(message: String) -> String {
    if message == "recursion limit" {
        "tables, keys or arrays nested too deeply here (the TOML reader's recursion limit); \
         region files need only a few levels"
            .to_string()
    } else {
        message
    }
}

/// Parses, merges and validates `sources` into a registry (see [`parse`] and [`check`]).
pub fn build(sources: &[Source]) -> Result<Registry, RegionErrors> {
    check(sources, parse(sources))
}

/// Region sources read as region files, in order, with what could not be read.
pub struct Parsed {
    /// Each source's file, if it was read.
    files: Vec<Option<RegionFile>>,
    /// Each file that was not, said once, in plain words.
    errors: Vec<RegionError>,
    /// The names those files declare (as far as they are TOML), kept so that the other
    /// files' references to them do not become errors of their own.
    excused: Excused,
}

/// Reads each of `sources` as a region file (its TOML into the schema's types).
pub fn parse(sources: &[Source]) -> Parsed {
    let mut errors = Vec::new();
    let mut files = Vec::new();
    let mut excused = Excused::default();
    for src in sources {
        match toml::from_str::<RegionFile>(&src.text) {
            Ok(f) => files.push(Some(f)),
            Err(e) => {
                files.push(None);
                let (line, col) = match e.span() {
                    Some(s) => line_col(&src.text, s.start),
                    None => deepest_line(&src.text),
                };
                errors.push(RegionError {
                    file: src.path.clone(),
                    line,
                    col,
                    message: unplaced(parse_error(&src.text, e.message(), e.span())),
                });
                // The reader stops at its first error: every other wrong `[limits]` key (the
                // section that sets budgets) is reported too.
                errors.extend(other_unknown_limits(src, line));
                declare_names(&src.text, &mut excused);
            }
        }
    }
    Parsed {
        files,
        errors,
        excused,
    }
}

/// Merges the files `parsed` read from `sources` and checks every rule of the schema across
/// them, into a registry or every problem found.
pub fn check(sources: &[Source], parsed: Parsed) -> Result<Registry, RegionErrors> {
    let Parsed {
        files,
        mut errors,
        excused,
    } = parsed;
    let broken = !errors.is_empty();

    let mut ck = Checker {
        sources,
        findings: Vec::new(),
        excused: &excused,
    };
    let merged = merge(&mut ck, files);
    let terrains = check_terrains(&mut ck, &merged, broken);
    let (terrains, unresolved) = resolve_doors(&mut ck, &merged, terrains);
    // A region naming a kind of door that has a problem of its own (or names a terrain of a
    // file that could not be read) is not a second problem.
    let mut excused_and_doors = excused.clone();
    excused_and_doors.names.extend(unresolved);
    ck.excused = &excused_and_doors;
    check_other_references(&mut ck, &merged, &terrains);
    check_limits(&mut ck, &merged);
    check_weight_totals(&mut ck, &merged);
    let resolved = resolve_entries(&mut ck, &merged, &terrains);

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
            door: merged.door.into_iter().map(|e| e.def).collect(),
            dungeon: merged.dungeon.map(|(_, d)| d).unwrap_or_default(),
            corridor: merged.corridor.into_iter().map(|e| e.def).collect(),
            room: merged.room.into_iter().map(|e| e.def).collect(),
            streamer: merged.streamer.into_iter().map(|e| e.def).collect(),
            vault: merged.vault.into_iter().map(|e| e.def).collect(),
            prefab: merged.prefab.into_iter().map(|e| e.def).collect(),
            rooms: merged.rooms.map(|(_, r)| r),
            cave: merged.cave.map(|(_, c)| c),
            town: merged.town.map(|(_, t)| t),
            spawn: merged.spawn.into_iter().map(|e| e.def).collect(),
            sample: merged.sample.into_iter().map(|e| e.def).collect(),
        },
        limits_at: merged
            .limits
            .as_ref()
            .map(|(f, l)| limit_places(&sources[*f], l))
            .unwrap_or_default(),
        limits: merged.limits.map(|(_, l)| l).unwrap_or_default(),
        resolved,
        files: sources.iter().map(|s| s.path.clone()).collect(),
    })
}

/// Where each key of `[limits]` is written in `src`.
fn limit_places(src: &Source, l: &LimitsDef) -> BTreeMap<String, Place> {
    let locator = Locator::new(&src.text);
    let keys = [
        ("max_instructions", l.max_instructions.is_some()),
        ("max_memory_mib", l.max_memory_mib.is_some()),
        ("max_seconds", l.max_seconds.is_some()),
    ];
    keys.into_iter()
        .filter(|(_, present)| *present)
        .filter_map(|(key, _)| {
            let path: Path = tpath!["limits", key];
            let span = locator.span(&path)?;
            let (line, col) = line_col(&src.text, span.start);
            let place = Place {
                file: src.path.clone(),
                line,
                col,
            };
            Some((key.to_string(), place))
        })
        .collect()
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
    prefab: Vec<Entry<PrefabDef>>,
    spawn: Vec<Entry<SpawnDef>>,
    sample: Vec<Entry<SampleDef>>,
    map: Option<(usize, MapDef)>,
    dungeon: Option<(usize, DungeonDef)>,
    rooms: Option<(usize, RoomsDef)>,
    cave: Option<(usize, CaveDef)>,
    town: Option<(usize, TownDef)>,
    limits: Option<(usize, LimitsDef)>,
}

fn merge(ck: &mut Checker, files: Vec<Option<RegionFile>>) -> Merged {
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
    for (file, f) in files.into_iter().enumerate() {
        let Some(f) = f else { continue };
        list(&mut m.terrain, file, f.terrain);
        list(&mut m.door, file, f.door);
        list(&mut m.corridor, file, f.corridor);
        list(&mut m.room, file, f.room);
        list(&mut m.streamer, file, f.streamer);
        list(&mut m.vault, file, f.vault);
        list(&mut m.prefab, file, f.prefab);
        list(&mut m.spawn, file, f.spawn);
        list(&mut m.sample, file, f.sample);
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
    dupes(ck, &m.prefab, "prefab", |d| &d.name);
    dupes(ck, &m.spawn, "spawn", |d| &d.name);
    dupes(ck, &m.sample, "sample", |d| &d.name);
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

/// Reports a room, streamer, vault or prefab region named like a region of an earlier kind
/// (corridor, room, streamer, vault, prefab): they share the map's region names.
fn shared_region_names(ck: &mut Checker, m: &Merged) {
    let mut seen: BTreeMap<&str, Origin> = BTreeMap::new();
    let lists = [
        origins("corridor", &m.corridor, |d| &d.name),
        origins("room", &m.room, |d| &d.name),
        origins("streamer", &m.streamer, |d| &d.name),
        origins("vault", &m.vault, |d| &d.name),
        origins("prefab", &m.prefab, |d| &d.name),
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
                             room, streamer, vault and prefab regions share one namespace",
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
    let mut by_glyph: BTreeMap<char, (usize, bool, bool)> = BTreeMap::new();
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
        if let Some(cost) = d.move_cost.filter(|c| !(1..=MAX_COST).contains(c)) {
            ck.report(
                e.file,
                at("move_cost"),
                format!(
                    "terrain '{}' has move_cost = {cost}; a move cost is a whole number \
                     1..={MAX_COST}",
                    d.name
                ),
            );
        }
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
            move_cost: d.move_cost.filter(|c| (1..=MAX_COST).contains(c)),
        });
    }
    if let Some(e) = m.terrain.get(u16::MAX as usize) {
        ck.report(
            e.file,
            tpath!["terrain", e.index],
            "too many terrains: this is terrain number 65536; at most 65535 may be defined",
        );
    }
    TerrainTable::new(out)
}

/// Resolves every `[[door]]` kind ([`resolve::door`]) and returns `terrains` with them, so
/// the entries resolved after it may name a kind as their door, and the names of the kinds
/// that could not be resolved.
fn resolve_doors(
    ck: &mut Checker,
    m: &Merged,
    terrains: TerrainTable,
) -> (TerrainTable, Vec<String>) {
    let (mut kinds, mut unresolved) = (Vec::new(), Vec::new());
    for e in &m.door {
        let mut p = ck.problems(e.file, tpath!["door", e.index]);
        match resolve::door(&e.def, &terrains, &mut p) {
            Some(kind) => kinds.push(kind),
            None => unresolved.push(e.def.name.clone()),
        }
        ck.absorb(e.file, p);
    }
    (terrains.with_doors(kinds), unresolved)
}

/// The references resolving does not cover: `[map]`, `[rooms]` and `[cave]` terrains.
fn check_other_references(ck: &mut Checker, m: &Merged, t: &TerrainTable) {
    if let Some((f, map)) = &m.map {
        for (key, v) in [("fill", &map.fill), ("edge", &map.edge)] {
            if let Some(name) = v {
                ck.terrain_ref(*f, tpath!["map", key], name, t);
            }
        }
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
}

/// Runs every entry through its resolver ([`resolve`]); what they find becomes findings.
fn resolve_entries(ck: &mut Checker, m: &Merged, t: &TerrainTable) -> Resolved {
    let dungeon_def = m
        .dungeon
        .as_ref()
        .map(|(_, d)| d.clone())
        .unwrap_or_default();
    let names: Vec<&str> = m.corridor.iter().map(|e| e.def.name.as_str()).collect();
    let mut out = Resolved::default();
    if let Some((f, d)) = &m.dungeon {
        let mut p = ck.problems(*f, tpath!["dungeon"]);
        if let Some(d) = resolve::dungeon(d, &names, t, &mut p) {
            out.dungeon = d;
        }
        ck.absorb(*f, p);
    } else {
        let mut p = Problems::default();
        if let Some(d) = resolve::dungeon(&dungeon_def, &names, t, &mut p) {
            out.dungeon = d;
        }
    }
    for e in &m.corridor {
        let mut p = ck.problems(e.file, tpath!["corridor", e.index]);
        out.corridors
            .extend(resolve::corridor(&e.def, &dungeon_def, t, &mut p));
        ck.absorb(e.file, p);
    }
    for e in &m.room {
        let mut p = ck.problems(e.file, tpath!["room", e.index]);
        out.rooms
            .extend(resolve::room(&e.def, &dungeon_def, t, &mut p));
        ck.absorb(e.file, p);
    }
    for e in &m.streamer {
        let mut p = ck.problems(e.file, tpath!["streamer", e.index]);
        out.streamers.extend(resolve::streamer(&e.def, t, &mut p));
        ck.absorb(e.file, p);
    }
    for e in &m.vault {
        let mut p = ck.problems(e.file, tpath!["vault", e.index]);
        out.vaults
            .extend(resolve::vault(&e.def, &dungeon_def, t, &mut p));
        ck.absorb(e.file, p);
    }
    for e in &m.prefab {
        let mut p = ck.problems(e.file, tpath!["prefab", e.index]);
        out.prefabs.extend(resolve::prefab(&e.def, t, &mut p));
        ck.absorb(e.file, p);
    }
    for e in &m.spawn {
        let mut p = ck.problems(e.file, tpath!["spawn", e.index]);
        resolve::spawn(&e.def, &mut p);
        ck.absorb(e.file, p);
    }
    for e in &m.sample {
        let mut p = ck.problems(e.file, tpath!["sample", e.index]);
        out.samples.extend(resolve::sample(&e.def, t, &mut p));
        ck.absorb(e.file, p);
    }
    if let Some((f, town)) = &m.town {
        let mut p = ck.problems(*f, tpath!["town"]);
        out.town = resolve::town(town, t, &mut p);
        ck.absorb(*f, p);
    }
    out
}

/// `[limits]`: each budget in its range.
fn check_limits(ck: &mut Checker, m: &Merged) {
    if let Some((f, l)) = &m.limits {
        let at = |k: &str| tpath!["limits", k];
        if let Some(v) = l.max_instructions {
            ck.range(
                *f,
                at("max_instructions"),
                v,
                MAX_INSTRUCTIONS.min,
                MAX_INSTRUCTIONS.max,
            );
        }
        if let Some(v) = l.max_memory_mib {
            ck.range(
                *f,
                at("max_memory_mib"),
                v,
                MAX_MEMORY_MIB.min,
                MAX_MEMORY_MIB.max,
            );
        }
        if let Some(v) = l.max_seconds {
            let (min, max) = MAX_SECONDS;
            if !(min..=max).contains(&v) {
                ck.report(
                    *f,
                    at("max_seconds"),
                    format!(
                        "limits.max_seconds = {} is out of range ({}..={})",
                        number(v),
                        number(min),
                        number(max)
                    ),
                );
            }
        }
    }
}

/// Each region list's weights must add up to a finite total: two weights of 1.7e308 are each
/// valid, but their sum is infinite and a weighted draw could no longer choose between them.
/// Reported at the weight that takes the total past the largest number.
fn check_weight_totals(ck: &mut Checker, m: &Merged) {
    fn list<T>(ck: &mut Checker, kind: &str, entries: &[Entry<T>], weight: impl Fn(&T) -> f64) {
        let weights: Vec<f64> = entries.iter().map(|e| weight(&e.def)).collect();
        if let Err(WeightProblem::Overflow(i)) = check_weights(&weights) {
            let e = &entries[i];
            let at = tpath![kind, e.index, "weight"];
            let key = ck.describe(e.file, &at);
            ck.report(
                e.file,
                at,
                format!(
                    "{key} = {} takes the total of the {kind} weights past the largest number \
                     (about 1.8e308); weights must add up to a finite total",
                    number(weights[i])
                ),
            );
        }
    }
    list(ck, "corridor", &m.corridor, |d| d.weight);
    list(ck, "room", &m.room, |d| d.weight);
    list(ck, "streamer", &m.streamer, |d| d.weight);
    list(ck, "vault", &m.vault, |d| d.weight);
    list(ck, "prefab", &m.prefab, |d| d.weight);
    list(ck, "spawn", &m.spawn, |d| d.weight);
}

/// Adds the terrain and region names a file declares to `excused`, read as plain TOML (for a
/// file whose values do not fit the schema) and, past syntax errors, as much of it as the TOML
/// reader recovers, plus every line of the form `name = "…"` (the entry under a broken header).
fn declare_names(text: &str, excused: &mut Excused) {
    excused.names.extend(text.lines().filter_map(|line| {
        let (key, value) = line.split_once('=')?;
        let value = value.trim();
        let value = value.strip_prefix('"')?;
        let end = value.find('"')?;
        (key.trim() == "name").then(|| value[..end].to_string())
    }));
    declare_entry_names(text, excused);
}

/// Adds the name of every list entry of the sections that name things, as far as the TOML
/// reader recovers the file. An entry whose `name` key is misspelled (`nam = "rock"`) declares
/// that text; one whose name cannot be read at all makes every unresolved name excusable.
fn declare_entry_names(text: &str, excused: &mut Excused) {
    let (doc, _) = toml::de::DeTable::parse_recoverable(text);
    let doc = doc.into_inner();
    for section in [
        "terrain", "corridor", "room", "streamer", "vault", "prefab", "spawn", "sample",
    ] {
        let Some(entries) = doc.get(section).and_then(|v| v.get_ref().as_array()) else {
            continue;
        };
        for entry in entries {
            let Some(entry) = entry.get_ref().as_table() else {
                continue;
            };
            let name = entry.get("name").or_else(|| {
                entry
                    .iter()
                    .find(|(k, _)| did_you_mean(k.get_ref(), ["name"]).is_some())
                    .map(|(_, v)| v)
            });
            match name.and_then(|n| n.get_ref().as_str()) {
                Some(name) => {
                    if section == "terrain" {
                        excused.terrains.insert(name.to_string());
                    }
                    excused.names.insert(name.to_string());
                }
                None => excused.unnamed = true,
            }
        }
    }
}
