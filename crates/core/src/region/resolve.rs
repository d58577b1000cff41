//! Region entries resolved once: terrain names turned into ids, defaults applied, every range
//! and rule of the schema checked. Loading runs every entry of every file through these
//! resolvers (reporting each problem at its file, line and column); the Lua bindings run a
//! recipe's hand-made region tables through the same ones, so a hand-made corridor gets the
//! same defaults, ranges and messages as one from a file.
//!
//! A resolver reports into [`Problems`], which names keys by their path from a prefix: at load
//! the prefix is the entry's place in its file (`corridor[2]`), so messages read
//! `corridor[2].weight = -1 is not a valid weight`; for a hand-made table it is empty.

mod prefab;

pub use prefab::prefab;

use super::entries::{Corridor, Dungeon, RoomRegion, StreamerRegion, TownStyle, VaultRegion};
use super::explain::{describe, did_you_mean, suggestion};
use super::locate::{display, Locator, Path, Seg};
use super::schema::*;
use super::unknown_terrain;
use crate::gen::dungeon::{
    RoomChoice, RoomKind, RoomStyle, StreamerKind, StreamerStyle, VaultGlyph, VaultGrid,
    MAX_PANELS, MIN_ROOM,
};
use crate::gen::town::{DebugTerrains, TownTerrains};
use crate::gen::tunnel::{ConstantOverrides, CorridorStyle, TunnelConstants};
use crate::gen::wfc::Sample;
use crate::map::{priority, DoorKind, DoorWeights, TerrainId, TerrainTable};
use std::collections::{BTreeMap, BTreeSet};

/// How keys of one region file are named in messages, and which names it may leave
/// unresolved.
#[derive(Clone, Debug)]
pub struct FileNames<'a> {
    /// The file's text (parsed again only to name a key in a message).
    text: &'a str,
    /// Names declared by files that could not be read: a reference to one of them is not a
    /// problem of its own.
    excused: &'a Excused,
}

impl<'a> FileNames<'a> {
    /// The names of the file whose text is `text`.
    pub fn new(text: &'a str, excused: &'a Excused) -> Self {
        FileNames { text, excused }
    }
}

/// What the region files that could not be read declare, as far as they can be read: a
/// reference elsewhere that resolves to nothing because of them only follows from their
/// mistake, and is not a problem of its own.
#[derive(Clone, Debug, Default)]
pub struct Excused {
    /// Every name they declare (terrains, regions, spawns).
    pub names: BTreeSet<String>,
    /// The names of their `[[terrain]]` entries, offered as "did you mean" beside the
    /// terrains that were read.
    pub terrains: BTreeSet<String>,
    /// Whether one of their entries has a name that cannot be read (`name = 3`, or no `name`):
    /// then a name that is no likely typo of a known one may be that entry's.
    pub unnamed: bool,
}

impl Excused {
    /// Whether an unresolved reference to `name` may only follow from an unreadable file.
    /// `known` are the names of the kind referred to (a close one makes `name` a typo).
    pub fn covers<'k>(&self, name: &str, known: impl IntoIterator<Item = &'k str>) -> bool {
        self.names.contains(name) || (self.unnamed && did_you_mean(name, known).is_none())
    }

    /// The message for `key = 'name'`, which names no terrain of `table`, or `None` when that
    /// only follows from a file that could not be read.
    pub fn missing_terrain(&self, key: &str, name: &str, table: &TerrainTable) -> Option<String> {
        let mut known = table.names();
        known.extend(self.terrains.iter().map(String::as_str));
        (!self.covers(name, known.iter().copied())).then(|| not_a_terrain(key, name, &known))
    }
}

/// The problems found in one entry, each at a path below the entry's prefix.
#[derive(Clone, Debug, Default)]
pub struct Problems<'a> {
    prefix: Path,
    /// The file the entry comes from (none for a hand-made table).
    file: Option<FileNames<'a>>,
    /// Every problem: the key's full path (prefix included) and the message.
    pub found: Vec<(Path, String)>,
}

impl<'a> Problems<'a> {
    /// Problems of the entry at `prefix` (empty for a hand-made table).
    pub fn at(prefix: Path) -> Problems<'a> {
        Problems {
            prefix,
            file: None,
            found: Vec::new(),
        }
    }

    /// Problems of the entry at `prefix` of a region file, its keys named as the modder wrote
    /// them (`room 'great hall': weight`).
    pub fn in_file(prefix: Path, file: FileNames<'a>) -> Problems<'a> {
        Problems {
            prefix,
            file: Some(file),
            found: Vec::new(),
        }
    }

    /// Whether a reference to `name` that resolves to nothing only follows from a file that
    /// could not be read.
    fn excused<'k>(&self, name: &str, known: impl IntoIterator<Item = &'k str>) -> bool {
        self.file
            .as_ref()
            .is_some_and(|f| f.excused.covers(name, known))
    }

    /// Reports `value` at `keys` unless it is one of `valid` (with a suggestion when it is a
    /// likely typo of one). Returns whether it is valid.
    fn choice(&mut self, keys: &[&str], what: &str, value: &str, valid: &[&str]) -> bool {
        if valid.contains(&value) {
            return true;
        }
        let key = self.name(keys);
        let message = match did_you_mean(value, valid.iter().copied()) {
            Some(s) => format!("{key} = '{value}' is not {what}; did you mean '{s}'?"),
            None => format!(
                "{key} = '{value}' is not {what} (valid: {})",
                valid.join(", ")
            ),
        };
        self.report(keys, message);
        false
    }

    /// The full path of `keys` below the prefix.
    fn path(&self, keys: &[&str]) -> Path {
        let mut p = self.prefix.clone();
        p.extend(keys.iter().map(|k| Seg::Key((*k).to_string())));
        p
    }

    /// The key as messages name it: `corridor[2].constants.turn_chance`, or `constants.turn_chance`.
    fn name(&self, keys: &[&str]) -> String {
        let path = self.path(keys);
        match &self.file {
            Some(f) => {
                let locator = Locator::new(f.text);
                describe(&path, |p| locator.string(p))
            }
            None => display(&path),
        }
    }

    /// The name of the key at `segs` below the prefix (for paths with indices:
    /// `prefab 'crypt': subst #2.count`).
    fn name_of(&self, segs: &[Seg]) -> String {
        let mut path = self.prefix.clone();
        path.extend_from_slice(segs);
        match &self.file {
            Some(f) => {
                let locator = Locator::new(f.text);
                describe(&path, |p| locator.string(p))
            }
            None => display(&path),
        }
    }

    /// Reports `message` at `segs` below the prefix; an index after a text key is a
    /// character of the text (see [`Locator::span`]).
    fn report_at(&mut self, segs: &[Seg], message: impl Into<String>) {
        let mut path = self.prefix.clone();
        path.extend_from_slice(segs);
        self.found.push((path, message.into()));
    }

    /// Reports `message` at `keys`.
    fn report(&mut self, keys: &[&str], message: impl Into<String>) {
        let p = self.path(keys);
        self.found.push((p, message.into()));
    }

    /// Whether nothing was reported.
    pub fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    /// The messages, joined with `; ` (for one-line errors).
    pub fn joined(&self) -> String {
        self.found
            .iter()
            .map(|(_, m)| m.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// A legend key's glyph: its one character, or `None` after reporting the key.
    fn legend_glyph(&mut self, key: &str) -> Option<char> {
        let glyph = single(key);
        if glyph.is_none() {
            self.report(
                &["legend", key],
                format!("legend key {key:?} must be exactly one character"),
            );
        }
        glyph
    }

    /// Checks an integer key against its declared range.
    fn int(&mut self, keys: &[&str], spec: &IntKey, v: i64) -> bool {
        // Naming the key may parse the file again: only for a value that is wrong.
        if spec.contains(v) {
            return true;
        }
        match spec.check(&self.name(keys), v) {
            None => true,
            Some(m) => {
                self.report(keys, m);
                false
            }
        }
    }

    /// Reports `lo > hi` at the `lo` key.
    fn ordered(&mut self, at: &str, (lo_name, lo): (&str, i64), (hi_name, hi): (&str, i64)) {
        if lo > hi {
            self.report(
                &[at],
                format!("{lo_name} = {lo} must not exceed {hi_name} = {hi}"),
            );
        }
    }

    /// The entry's `weight`: finite and ≥ 0.
    fn weight(&mut self, v: f64) {
        self.weight_at(&["weight"], v);
    }

    /// A weight at `keys`: finite and ≥ 0 ([`crate::rng::valid_weight`]).
    fn weight_at(&mut self, keys: &[&str], v: f64) {
        if !crate::rng::valid_weight(v) {
            let name = self.name(keys);
            self.report(
                keys,
                format!(
                    "{name} = {} is not a valid weight (a finite number ≥ 0)",
                    number(v)
                ),
            );
        }
    }

    /// The kind of door `name` given for `key`: a `[[door]]` kind, or a terrain drawn alike in
    /// every state.
    fn door(&mut self, keys: &[&str], name: &str, table: &TerrainTable) -> Option<DoorKind> {
        let kind = table.door(name);
        let kinds = table.door_kinds();
        if kind.is_none() && !self.excused(name, kinds.iter().map(|k| &*k.name)) {
            let known: Vec<String> = kinds.iter().map(|k| format!("'{}'", k.name)).collect();
            let known = if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            };
            let key = self.name(keys);
            self.report(
                keys,
                format!(
                    "{key} = '{name}' is neither a [[door]] kind (known: {known}) nor a terrain"
                ),
            );
        }
        kind
    }

    /// The id of an open terrain given for `key` that a walker may stand on (unknown, solid
    /// and hazard terrains are reported).
    fn safe_terrain(
        &mut self,
        keys: &[&str],
        name: &str,
        table: &TerrainTable,
    ) -> Option<TerrainId> {
        let id = self.open_terrain(keys, name, table)?;
        if table.get(id).hazard {
            let key = self.name(keys);
            self.report(
                keys,
                format!("{key} = '{name}' is a hazard; it must be safe to stand on"),
            );
            return None;
        }
        Some(id)
    }

    /// The id of terrain `name` given for `key`.
    fn terrain(&mut self, keys: &[&str], name: &str, table: &TerrainTable) -> Option<TerrainId> {
        let id = table.id(name);
        if id.is_none() {
            let message = match &self.file {
                Some(f) => f.excused.missing_terrain(&self.name(keys), name, table),
                None => Some(unknown_terrain(name, table)),
            };
            if let Some(message) = message {
                self.report(keys, message);
            }
        }
        id
    }

    /// The id of an open terrain given for `key` (unknown and solid terrains are reported).
    fn open_terrain(
        &mut self,
        keys: &[&str],
        name: &str,
        table: &TerrainTable,
    ) -> Option<TerrainId> {
        let id = self.terrain(keys, name, table)?;
        if table.get(id).solid {
            let key = self.name(keys);
            self.report(
                keys,
                format!("{key} = '{name}' is a solid terrain; it must be open (solid = false)"),
            );
            return None;
        }
        Some(id)
    }
}

/// `key = 'name' is not a terrain`, with a suggestion when `name` is a likely typo of one of
/// the terrains `names`, else the list of them.
pub fn not_a_terrain(key: &str, name: &str, names: &[&str]) -> String {
    format!(
        "{key} = '{name}' is not a terrain{}",
        suggestion(name, names)
    )
}

/// A number as a modder wrote it: `-2`, `0.5`, `1e300` (not three hundred digits), `NaN`.
pub fn number(v: f64) -> String {
    let big = v.is_finite() && v != 0.0 && !(1e-4..1e16).contains(&v.abs());
    if big {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}

/// `[dungeon]`: every integer key in range, the cross-key rules (segment and stair orders,
/// levels that divide into panels, rooms that fit a panel), and its references: `corridor`
/// must name one of `corridors`, the stairs terrains must exist and be open.
pub fn dungeon(
    d: &DungeonDef,
    corridors: &[&str],
    terrains: &TerrainTable,
    p: &mut Problems,
) -> Option<Dungeon> {
    let before = p.found.len();
    let values = d.int_values();
    for (spec, v) in DUNGEON_KEYS.iter().zip(values) {
        // Room sizes are checked against the panel size below.
        if !spec.key.starts_with("room_") {
            p.int(&[spec.key], spec, v);
        }
    }
    p.ordered(
        "segment_minlen",
        ("segment_minlen", d.segment_minlen),
        ("segment_maxlen", d.segment_maxlen),
    );
    p.ordered(
        "min_streamers",
        ("min_streamers", d.min_streamers),
        ("max_streamers", d.max_streamers),
    );
    p.ordered(
        "min_stairs",
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
        if !PANEL_WIDTH.contains(panel) || !LEVEL_WIDTH.contains(side) {
            continue;
        }
        if side % panel != 0 {
            p.report(
                &[key],
                format!("{key} = {side} is not a multiple of {panel_key} = {panel}"),
            );
        } else if side / panel > MAX_PANELS as i64 {
            p.report(
                &[key],
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
        for (key, v) in [(&lo_key, lo), (&hi_key, hi)] {
            if !(MIN_ROOM as i64..=most).contains(&v) {
                let name = p.name(&[key]);
                p.report(
                    &[key],
                    format!("{name} = {v} is out of range ({MIN_ROOM}..={most})"),
                );
            }
        }
        p.ordered(&lo_key, (&lo_key, lo), (&hi_key, hi));
    }
    let mut safe = |key: &str, name: &Option<String>| {
        name.as_ref()
            .and_then(|n| p.safe_terrain(&[key], n, terrains))
    };
    let up_stairs = safe("up_stairs", &d.up_stairs);
    let down_stairs = safe("down_stairs", &d.down_stairs);
    let bridge = safe("bridge", &d.bridge);
    if let Some(v) = d.streamer_chance {
        p.int(&[STREAMER_CHANCE.key], &STREAMER_CHANCE, v);
    }
    let wooden_door = match &d.wooden_door {
        Some(name) => {
            let kind = p.door(&["wooden_door"], name, terrains);
            if kind.as_ref().is_some_and(|k| !k.wooden) {
                let key = p.name(&["wooden_door"]);
                p.report(
                    &["wooden_door"],
                    format!(
                        "{key} = '{name}' is not wooden; name a [[door]] kind with wooden = true"
                    ),
                );
            }
            kind
        }
        None => terrains.door_kinds().iter().find(|k| k.wooden).cloned(),
    };
    if let Some(name) = &d.corridor {
        if !corridors.contains(&name.as_str()) && !p.excused(name, corridors.iter().copied()) {
            let message = match did_you_mean(name, corridors.iter().copied()) {
                Some(s) => {
                    format!("corridor = '{name}' names no [[corridor]] region; did you mean '{s}'?")
                }
                None => {
                    let known: Vec<String> = corridors.iter().map(|c| format!("'{c}'")).collect();
                    format!(
                        "corridor = '{name}' names no [[corridor]] region (known: {})",
                        known.join(", ")
                    )
                }
            };
            p.report(&["corridor"], message);
        }
    }
    if p.found.len() > before {
        return None;
    }
    let up_stairs = up_stairs.or_else(|| terrains.id("up stairs"));
    let down_stairs = down_stairs.or_else(|| terrains.id("down stairs"));
    Some(Dungeon {
        def: d.clone(),
        constants: TunnelConstants {
            turn_chance: d.turn_chance as u32,
            stubborn_corridor: d.stubborn_corridor as u32,
            segment_minlen: d.segment_minlen as u32,
            segment_maxlen: d.segment_maxlen as u32,
        },
        up_stairs,
        down_stairs,
        bridge,
        wooden_door,
    })
}

/// Reports a region's door of kind `door` (at `keys`) that must become wooden on shallow levels
/// when no wooden door can stand in for it: not wooden, not kept (`keep`), `wooden_door_depth`
/// above 0, and neither `[dungeon] wooden_door` nor any wooden `[[door]]` kind.
fn check_wooden(
    p: &mut Problems,
    keys: &[&str],
    door: &DoorKind,
    keep: bool,
    dungeon: &DungeonDef,
    terrains: &TerrainTable,
) {
    let stand_in = dungeon.wooden_door.is_some() || terrains.door_kinds().iter().any(|k| k.wooden);
    if keep || door.wooden || dungeon.wooden_door_depth <= 0 || stand_in {
        return;
    }
    let key = p.name(keys);
    p.report(
        keys,
        format!(
            "{key} = '{}' is not wooden, and on levels 1..={} ([dungeon] wooden_door_depth) \
             doors must be, but no [[door]] kind is wooden; declare one (wooden = true), set \
             keep_doors = true here, or set [dungeon] wooden_door_depth = 0",
            door.name, dungeon.wooden_door_depth
        ),
    );
}

/// `[[door]]`: a non-empty name; the terrain of each state (closed, locked and secret solid;
/// open and broken open and no hazard), locked and broken defaulting to closed and open; the
/// weights of the states.
pub fn door(d: &DoorDef, terrains: &TerrainTable, p: &mut Problems) -> Option<DoorKind> {
    let before = p.found.len();
    if d.name.trim().is_empty() {
        p.report(&["name"], "door name must not be empty");
    }
    let mut state = |key: &str, name: &str, solid: bool| -> Option<TerrainId> {
        let id = p.terrain(&[key], name, terrains)?;
        let terrain = terrains.get(id);
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
            let key_name = p.name(&[key]);
            p.report(&[key], format!("{key_name} = '{name}' {why}"));
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
        p.weight_at(&["weights", key], v);
    }
    if p.found.len() > before {
        return None;
    }
    Some(DoorKind {
        name: d.name.as_str().into(),
        closed: closed?,
        open: open?,
        locked: locked?,
        broken: broken?,
        secret: secret?,
        weights: DoorWeights {
            closed: w.closed,
            open: w.open,
            locked: w.locked,
            secret: w.secret,
        },
        wooden: d.wooden,
    })
}

/// `[[corridor]]`: its terrains (the floor open), weight and constant overrides; the segment
/// lengths in order once `dungeon`'s values fill the constants it does not override.
pub fn corridor(
    c: &CorridorDef,
    dungeon: &DungeonDef,
    terrains: &TerrainTable,
    p: &mut Problems,
) -> Option<Corridor> {
    let before = p.found.len();
    let floor = p.open_terrain(&["floor"], &c.floor, terrains);
    let walls = p.terrain(&["walls"], &c.walls, terrains);
    let door = p.door(&["door"], &c.door, terrains);
    if let Some(kind) = &door {
        check_wooden(p, &["door"], kind, c.keep_doors, dungeon, terrains);
    }
    p.weight(c.weight);
    let mut overrides = [None; 4];
    for ((spec, v), slot) in CORRIDOR_CONSTANTS
        .iter()
        .zip(c.constants.values())
        .zip(&mut overrides)
    {
        if let Some(v) = v {
            if p.int(&["constants", spec.key], spec, v) {
                *slot = Some(v as u32);
            }
        }
    }
    let k = &c.constants;
    let min = k.segment_minlen.unwrap_or(dungeon.segment_minlen);
    let max = k.segment_maxlen.unwrap_or(dungeon.segment_maxlen);
    if min > max {
        let key = if k.segment_minlen.is_some() {
            "segment_minlen"
        } else {
            "segment_maxlen"
        };
        p.report(
            &["constants", key],
            format!(
                "corridor '{}': segment_minlen {min} exceeds segment_maxlen {max} \
                 (after applying [dungeon] defaults)",
                c.name
            ),
        );
    }
    if p.found.len() > before {
        return None;
    }
    let [turn_chance, stubborn_corridor, segment_minlen, segment_maxlen] = overrides;
    Some(Corridor {
        style: CorridorStyle {
            name: c.name.clone(),
            weight: c.weight,
            staple: c.staple,
            floor: floor?,
            walls: walls?,
            constants: ConstantOverrides {
                turn_chance,
                stubborn_corridor,
                segment_minlen,
                segment_maxlen,
            },
        },
        door: door?,
        keep_doors: c.keep_doors,
    })
}

/// `min_depth` and `max_depth`: in range and in order.
fn depths(p: &mut Problems, lo: i64, hi: i64) {
    p.int(&["min_depth"], &MIN_DEPTH, lo);
    p.int(&["max_depth"], &MAX_DEPTH, hi);
    p.ordered("min_depth", ("min_depth", lo), ("max_depth", hi));
}

/// `[[room]]`: its terrains (the floor open), weight, kind, depths, and a door that can follow
/// `dungeon`'s `wooden_door_depth`.
pub fn room(
    r: &RoomDef,
    dungeon: &DungeonDef,
    terrains: &TerrainTable,
    p: &mut Problems,
) -> Option<RoomRegion> {
    let before = p.found.len();
    let floor = p.open_terrain(&["floor"], &r.floor, terrains);
    let wall = p.terrain(&["wall"], &r.wall, terrains);
    let door = p.door(&["door"], &r.door, terrains);
    if let Some(kind) = &door {
        check_wooden(p, &["door"], kind, r.keep_doors, dungeon, terrains);
    }
    let furnishing = r
        .furnishing
        .as_ref()
        .map(|f| p.terrain(&["furnishing"], f, terrains));
    p.weight(r.weight);
    p.choice(&["kind"], "a room kind", &r.kind, &RoomKind::NAMES);
    let kind = RoomKind::from_name(&r.kind);
    depths(p, r.min_depth, r.max_depth);
    if p.found.len() > before {
        return None;
    }
    Some(RoomRegion {
        choice: RoomChoice {
            kind: kind?,
            style: RoomStyle {
                name: r.name.clone(),
                floor: floor?,
                wall: wall?,
                door: door?,
                furnishing: furnishing.flatten(),
            },
            weight: r.weight,
        },
        min_depth: r.min_depth as u32,
        max_depth: r.max_depth as u32,
        keep_doors: r.keep_doors,
    })
}

/// `[[streamer]]`: its terrain, weight, kind, widths, depth and priority.
pub fn streamer(
    s: &StreamerDef,
    terrains: &TerrainTable,
    p: &mut Problems,
) -> Option<StreamerRegion> {
    let before = p.found.len();
    let terrain = p.terrain(&["terrain"], &s.terrain, terrains);
    p.weight(s.weight);
    p.choice(&["kind"], "a streamer kind", &s.kind, &StreamerKind::NAMES);
    let kind = StreamerKind::from_name(&s.kind);
    p.int(&["min_width"], &STREAMER_MIN_WIDTH, s.min_width);
    p.int(&["max_width"], &STREAMER_MAX_WIDTH, s.max_width);
    p.ordered(
        "min_width",
        ("min_width", s.min_width),
        ("max_width", s.max_width),
    );
    p.int(&["min_depth"], &MIN_DEPTH, s.min_depth);
    let prio = match &s.priority {
        None => None,
        Some(name) => {
            let found = priority::by_name(name);
            if found.is_none() {
                let names: Vec<String> = priority::NAMED
                    .iter()
                    .map(|(n, _)| n.to_ascii_lowercase())
                    .collect();
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                p.choice(&["priority"], "a priority name", name, &names);
            }
            found
        }
    };
    if p.found.len() > before {
        return None;
    }
    let kind = kind?;
    Some(StreamerRegion {
        style: StreamerStyle {
            name: s.name.clone(),
            kind,
            terrain: terrain?,
            min_width: s.min_width as i32,
            max_width: s.max_width as i32,
            priority: prio.unwrap_or_else(|| kind.default_priority()),
        },
        weight: s.weight,
        min_depth: s.min_depth as u32,
    })
}

/// `[[vault]]`: single-character legend glyphs naming known terrains, a rectangular grid using
/// only those glyphs, no sealed open cells, room for it (with a 2-cell margin) on a level of
/// `dungeon`'s size; its weight and depths.
pub fn vault(
    v: &VaultDef,
    dungeon: &DungeonDef,
    terrains: &TerrainTable,
    p: &mut Problems,
) -> Option<VaultRegion> {
    let before = p.found.len();
    let grid = vault_grid(v, dungeon, terrains, p);
    for (glyph, name) in &v.legend {
        if let Some(kind) = terrains.door_kinds().iter().find(|k| &*k.name == name) {
            check_wooden(
                p,
                &["legend", glyph.as_str()],
                kind,
                v.keep_doors,
                dungeon,
                terrains,
            );
        }
    }
    p.weight(v.weight);
    depths(p, v.min_depth, v.max_depth);
    if p.found.len() > before {
        return None;
    }
    Some(VaultRegion {
        name: v.name.clone(),
        weight: v.weight,
        min_depth: v.min_depth as u32,
        max_depth: v.max_depth as u32,
        grid: grid?,
        keep_doors: v.keep_doors,
    })
}

/// A vault's legend and grid (see [`vault`]).
fn vault_grid(
    v: &VaultDef,
    dungeon: &DungeonDef,
    terrains: &TerrainTable,
    p: &mut Problems,
) -> Option<VaultGrid> {
    let mut legend: BTreeMap<char, VaultGlyph> = BTreeMap::new();
    let mut complete = true;
    for (glyph, name) in &v.legend {
        let at = ["legend", glyph.as_str()];
        let Some(c) = p.legend_glyph(glyph) else {
            complete = false;
            continue;
        };
        let glyph = match VaultGlyph::named(terrains, name) {
            Some(g) => Some(g),
            None => p.terrain(&at, name, terrains).map(VaultGlyph::Terrain),
        };
        match glyph {
            Some(g) => {
                legend.insert(c, g);
            }
            None => complete = false,
        }
    }
    if !complete {
        return None;
    }
    let grid = match VaultGrid::parse(&v.name, &v.grid, |c| legend.get(&c).cloned()) {
        Ok(g) => g,
        Err(err) => {
            p.report(&["grid"], err.to_string());
            return None;
        }
    };
    let mut ok = true;
    if let Some((row, col)) = grid.sealed_cell(terrains) {
        p.report(
            &["grid"],
            format!(
                "vault '{}' grid row {row}, column {col} is open but sealed in by solid cells; \
                 corridors can only enter through open cells on the grid's border",
                v.name
            ),
        );
        ok = false;
    }
    let (w, h) = (grid.width as i64 + 4, grid.height as i64 + 4);
    if w > dungeon.level_width || h > dungeon.level_height {
        p.report(
            &["grid"],
            format!(
                "vault '{}' is {}×{}; with a 2-cell margin it must fit the {}×{} level",
                v.name, grid.width, grid.height, dungeon.level_width, dungeon.level_height
            ),
        );
        ok = false;
    }
    ok.then_some(grid)
}

/// `[[sample]]`: single-character legend glyphs naming known terrains, and a rectangular grid
/// of at most [`crate::gen::wfc::MAX_SAMPLE_SIDE`] each way using only those glyphs.
pub fn sample(s: &SampleDef, terrains: &TerrainTable, p: &mut Problems) -> Option<Sample> {
    let mut legend: BTreeMap<char, TerrainId> = BTreeMap::new();
    let mut complete = true;
    for (glyph, name) in &s.legend {
        let at = ["legend", glyph.as_str()];
        let Some(c) = p.legend_glyph(glyph) else {
            complete = false;
            continue;
        };
        match p.terrain(&at, name, terrains) {
            Some(t) => {
                legend.insert(c, t);
            }
            None => complete = false,
        }
    }
    let rows = s.grid.strip_prefix('\n').unwrap_or(&s.grid).lines();
    let mut cells: Vec<Vec<TerrainId>> = Vec::new();
    for (y, row) in rows.enumerate() {
        let mut out = Vec::with_capacity(row.len());
        for (x, c) in row.chars().enumerate() {
            match legend.get(&c) {
                Some(&t) => out.push(t),
                None if complete => {
                    let known: String = legend.keys().collect();
                    p.report(
                        &["grid"],
                        format!(
                            "sample '{}' grid row {}, column {}: {c:?} is not in the legend \
                             (its glyphs: {known:?})",
                            s.name,
                            y + 1,
                            x + 1
                        ),
                    );
                    return None;
                }
                None => return None,
            }
        }
        cells.push(out);
    }
    match Sample::from_rows(&s.name, &cells, s.periodic) {
        Ok(sample) if complete => Some(sample),
        Ok(_) => None,
        Err(message) => {
            p.report(&["grid"], message);
            None
        }
    }
}

/// `[town]` (and its optional `[town.debug]`): every terrain known.
pub fn town(t: &TownDef, terrains: &TerrainTable, p: &mut Problems) -> Option<TownStyle> {
    let mut get = |keys: &[&str], name: &str| p.terrain(keys, name, terrains);
    let style = (
        get(&["wall"], &t.wall),
        get(&["vertical_door"], &t.vertical_door),
        get(&["horizontal_door"], &t.horizontal_door),
        get(&["vertical_gate"], &t.vertical_gate),
        get(&["horizontal_gate"], &t.horizontal_gate),
        get(&["street"], &t.street),
        get(&["floor"], &t.floor),
        get(&["unused"], &t.unused),
    );
    let debug = t.debug.as_ref().map(|d| {
        let mut get = |key: &str, name: &str| get(&["debug", key], name);
        (
            get("isolated", &d.isolated),
            get("live", &d.live),
            get("dead", &d.dead),
            get("unused", &d.unused),
            [
                get("north", &d.north),
                get("east", &d.east),
                get("south", &d.south),
                get("west", &d.west),
            ],
            get("no_heading", &d.no_heading),
        )
    });
    let debug = match debug {
        None => None,
        Some((isolated, live, dead, unused, [n, e, s, w], no_heading)) => Some(DebugTerrains {
            isolated: isolated?,
            live: live?,
            dead: dead?,
            unused: unused?,
            headings: [n?, e?, s?, w?],
            no_heading: no_heading?,
        }),
    };
    let (
        wall,
        vertical_door,
        horizontal_door,
        vertical_gate,
        horizontal_gate,
        street,
        floor,
        unused,
    ) = style;
    Some(TownStyle {
        terrains: TownTerrains {
            wall: wall?,
            vertical_door: vertical_door?,
            horizontal_door: horizontal_door?,
            vertical_gate: vertical_gate?,
            horizontal_gate: horizontal_gate?,
            street: street?,
            floor: floor?,
            unused: unused?,
        },
        debug,
    })
}

/// `[[spawn]]`: its weight.
pub fn spawn(s: &SpawnDef, p: &mut Problems) {
    p.weight(s.weight);
}

/// The one character of `text`, if it has exactly one.
fn single(text: &str) -> Option<char> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}
