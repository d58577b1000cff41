//! LDtk export: a project file (`.ldtk`, LDtk's JSON, [`JSON_VERSION`]) that LDtk opens and
//! the engines' LDtk importers (Godot, Unity, Bevy, LÖVE, …) load.
//!
//! - One LDtk level per warren level (`Level_1`, `Level_2`, …), all at the world's origin, one
//!   `worldDepth` per depth (`worldLayout` `Free`), [`GRID`] pixels per cell.
//! - Level fields: `recipe`, `seed` (the level's, a decimal string: 64 bits; level 1's is the
//!   run's), `depth`, and every parameter as `param_NAME` (Int, Float, Bool or String as its
//!   value is).
//! - Layers, top first:
//!   - `Entities`: `Room` (resized to its rectangle; fields `kind`, `region`, `doors`: the cells
//!     it is entered through, [`Map::room_doors`]), `Door` (`state`, `kind`), `Stairs`
//!     (`direction`: up or down), `Spawn` (`what`), `Start` (the cell a player enters the level
//!     on, [`Map::entry`]) and `Corridor` (at its first cell; `region`, `cells`: every cell in
//!     carving order). Cells are LDtk points (`{cx, cy}`).
//!   - `Regions` (hidden): an IntGrid, value `r` for the `r`-th region name (in order of first
//!     appearance over the levels; 0 is no region), the value's identifier the region's name.
//!   - `Terrain`: an IntGrid with one value per terrain of the registry: value = terrain id + 1,
//!     named after the terrain (`rock_wall`) and coloured as it is.
//!
//! Identifiers are the names made safe for LDtk (letters, digits and `_`, not starting with a
//! digit; a clash gets `_2`, `_3`, …). Instance ids (`iid`) are UUID-shaped and derived from
//! the run's seed, so output is deterministic. The IntGrids stream out row by row.

use super::json::{comma_separated, LevelInfo, RunInfo, MAX_CELL_DIGITS};
use crate::map::{Map, Point};
use serde_json::{json, Map as Object, Value};
use std::io::{self, Write};

/// The LDtk JSON version the project is written in.
pub const JSON_VERSION: &str = "1.4.1";
/// Pixels per cell.
pub const GRID: i64 = 16;

/// Layer definition uids.
const ENTITIES: i64 = 1;
const REGIONS: i64 = 2;
const TERRAIN: i64 = 3;

/// A field of an entity: identifier, type and uid.
type FieldSpec = (&'static str, FieldType, i64);
/// An entity: identifier, colour, uid and fields.
type EntitySpec = (&'static str, &'static str, i64, &'static [FieldSpec]);

/// The entities.
const KINDS: [EntitySpec; 6] = [
    (
        "Room",
        "#4f8fd1",
        10,
        &[
            ("kind", FieldType::String, 100),
            ("region", FieldType::String, 101),
            ("doors", FieldType::Points, 102),
        ],
    ),
    (
        "Door",
        "#c2874a",
        11,
        &[
            ("state", FieldType::String, 110),
            ("kind", FieldType::String, 111),
        ],
    ),
    (
        "Stairs",
        "#e8d44d",
        12,
        &[("direction", FieldType::String, 120)],
    ),
    ("Spawn", "#d9534f", 13, &[("what", FieldType::String, 130)]),
    ("Start", "#5cb85c", 14, &[]),
    (
        "Corridor",
        "#8a8a8a",
        15,
        &[
            ("region", FieldType::String, 150),
            ("cells", FieldType::Points, 151),
        ],
    ),
];

/// Level field uids start here.
const LEVEL_FIELDS: i64 = 200;
/// Level uids start here.
const LEVELS: i64 = 10_000;

/// An LDtk field type.
#[derive(Clone, Copy, Debug, PartialEq)]
enum FieldType {
    Int,
    Float,
    Bool,
    String,
    Points,
}

impl FieldType {
    /// `__type` of the definition and the instances.
    fn name(self) -> &'static str {
        match self {
            FieldType::Int => "Int",
            FieldType::Float => "Float",
            FieldType::Bool => "Bool",
            FieldType::String => "String",
            FieldType::Points => "Array<Point>",
        }
    }

    /// `type` of the definition.
    fn def_type(self) -> &'static str {
        match self {
            FieldType::Int => "F_Int",
            FieldType::Float => "F_Float",
            FieldType::Bool => "F_Bool",
            FieldType::String => "F_String",
            FieldType::Points => "F_Point",
        }
    }

    /// The type a parameter's value takes.
    fn of(value: &Value) -> FieldType {
        match value {
            Value::Bool(_) => FieldType::Bool,
            Value::Number(n) if n.is_i64() || n.is_u64() => FieldType::Int,
            Value::Number(_) => FieldType::Float,
            _ => FieldType::String,
        }
    }
}

/// Writes the LDtk project of `levels` (their terrain table is the first level's).
pub fn write(out: &mut impl Write, run: &RunInfo, levels: &[(&Map, LevelInfo)]) -> io::Result<()> {
    let Some((first, _)) = levels.first() else {
        return Err(io::Error::other("an LDtk project needs at least one level"));
    };
    let mut iids = Iids::new(run.seed);
    let level_fields = level_fields(run);
    let regions = Regions::of(levels);
    let terrains: Vec<(String, String)> = first
        .terrains()
        .iter()
        .map(|t| (t.name.clone(), t.color.to_hex()))
        .collect();

    let mut defs_layers = vec![
        layer_def("Entities", ENTITIES, "Entities", &[]),
        layer_def("Regions", REGIONS, "IntGrid", &regions.values()),
        layer_def("Terrain", TERRAIN, "IntGrid", &int_values(&terrains)),
    ];
    defs_layers[1]["displayOpacity"] = json!(0.5);
    let entities: Vec<Value> = KINDS.iter().map(entity_def).collect();
    let level_field_defs: Vec<Value> = level_fields
        .iter()
        .map(|(name, kind, uid, _)| field_def(name, *kind, *uid))
        .collect();
    let next_uid = LEVELS + levels.len() as i64;
    let (width, height) = (first.width() as i64, first.height() as i64);
    let project = json!({
        "__header__": {
            "fileType": "LDtk Project JSON",
            "app": "warren",
            "doc": "https://ldtk.io/json",
            "appAuthor": "warren",
            "appVersion": env!("CARGO_PKG_VERSION"),
            "url": "https://ldtk.io"
        },
        "iid": iids.next(),
        "jsonVersion": JSON_VERSION,
        "appBuildId": 0.0,
        "nextUid": next_uid,
        "identifierStyle": "Free",
        "toc": [],
        "worldLayout": "Free",
        "worldGridWidth": width * GRID,
        "worldGridHeight": height * GRID,
        "defaultLevelWidth": width * GRID,
        "defaultLevelHeight": height * GRID,
        "defaultPivotX": 0.0,
        "defaultPivotY": 0.0,
        "defaultGridSize": GRID,
        "defaultEntityWidth": GRID,
        "defaultEntityHeight": GRID,
        "bgColor": "#40465b",
        "defaultLevelBgColor": "#1e1e28",
        "minifyJson": false,
        "externalLevels": false,
        "exportTiled": false,
        "simplifiedExport": false,
        "imageExportMode": "None",
        "exportLevelBg": false,
        "pngFilePattern": null,
        "backupOnSave": false,
        "backupLimit": 10,
        "backupRelPath": null,
        "levelNamePattern": "Level_%idx",
        "tutorialDesc": null,
        "customCommands": [],
        "flags": [],
        "defs": {
            "layers": defs_layers,
            "entities": entities,
            "tilesets": [],
            "enums": [],
            "externalEnums": [],
            "levelFields": level_field_defs
        },
        "worlds": [],
        "dummyWorldIid": iids.next()
    });
    let Value::Object(project) = project else {
        unreachable!("json! of an object")
    };
    with_last(out, project, "levels", |out| {
        out.write_all(b"[\n")?;
        for (i, (map, info)) in levels.iter().enumerate() {
            if i > 0 {
                out.write_all(b",\n")?;
            }
            let level = LdtkLevel {
                map,
                info,
                uid: LEVELS + i as i64,
                regions: &regions,
                fields: &level_fields,
            };
            level.write(out, &mut iids)?;
        }
        out.write_all(b"\n]")
    })?;
    out.write_all(b"\n")
}

/// A level field: identifier, type, uid and value.
type LevelField = (String, FieldType, i64, Value);

/// `recipe`, `seed` and `depth` (these two set per level) and `param_NAME` for every parameter.
fn level_fields(run: &RunInfo) -> Vec<LevelField> {
    let mut fields: Vec<LevelField> = vec![
        ("recipe".into(), FieldType::String, 0, run.recipe.into()),
        ("seed".into(), FieldType::String, 0, Value::Null),
        ("depth".into(), FieldType::Int, 0, Value::Null),
    ];
    let mut used: Vec<String> = fields.iter().map(|f| f.0.clone()).collect();
    for (name, value) in run.params {
        let id = identifier(&format!("param_{name}"), &mut used);
        fields.push((id, FieldType::of(value), 0, value.clone()));
    }
    for (i, f) in fields.iter_mut().enumerate() {
        f.2 = LEVEL_FIELDS + i as i64;
    }
    fields
}

/// The union of the levels' region names, in order of first appearance.
struct Regions {
    names: Vec<String>,
}

impl Regions {
    fn of(levels: &[(&Map, LevelInfo)]) -> Regions {
        let mut names: Vec<String> = Vec::new();
        for (map, _) in levels {
            for n in map.region_names().iter().skip(1) {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
        }
        Regions { names }
    }

    /// The IntGrid value of region `name` (1-based; 0 for no region).
    fn value(&self, name: &str) -> u32 {
        self.names
            .iter()
            .position(|n| n == name)
            .map_or(0, |i| i as u32 + 1)
    }

    /// The IntGrid values' definitions.
    fn values(&self) -> Vec<Value> {
        let named: Vec<(String, String)> = self
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), region_color(i)))
            .collect();
        int_values(&named)
    }
}

/// A colour for the `i`-th region: hues spread around the wheel.
fn region_color(i: usize) -> String {
    let hue = (i as f64 * 0.618_033_988_75).fract() * 6.0;
    let x = 1.0 - (hue % 2.0 - 1.0).abs();
    let (r, g, b) = match hue as u32 {
        0 => (1.0, x, 0.0),
        1 => (x, 1.0, 0.0),
        2 => (0.0, 1.0, x),
        3 => (0.0, x, 1.0),
        4 => (x, 0.0, 1.0),
        _ => (1.0, 0.0, x),
    };
    let byte = |v: f64| (64.0 + v * 160.0) as u8;
    format!("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b))
}

/// IntGrid value definitions for `(name, colour)` pairs, values from 1.
fn int_values(named: &[(String, String)]) -> Vec<Value> {
    let mut used = Vec::new();
    named
        .iter()
        .enumerate()
        .map(|(i, (name, color))| {
            json!({
                "value": i + 1,
                "identifier": identifier(name, &mut used),
                "color": color,
                "tile": null,
                "groupUid": 0
            })
        })
        .collect()
}

/// `name` as an LDtk identifier (letters, digits, `_`; not starting with a digit), made unique
/// among `used` with a suffix, and recorded there.
fn identifier(name: &str, used: &mut Vec<String>) -> String {
    let mut id: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if id.is_empty() || id.starts_with(|c: char| c.is_ascii_digit()) {
        id.insert(0, '_');
    }
    let base = id.clone();
    let mut n = 2;
    while used.contains(&id) {
        id = format!("{base}_{n}");
        n += 1;
    }
    used.push(id.clone());
    id
}

fn layer_def(identifier: &str, uid: i64, kind: &str, values: &[Value]) -> Value {
    json!({
        "__type": kind,
        "identifier": identifier,
        "type": kind,
        "uid": uid,
        "doc": null,
        "uiColor": null,
        "gridSize": GRID,
        "guideGridWid": 0,
        "guideGridHei": 0,
        "displayOpacity": 1.0,
        "inactiveOpacity": 0.6,
        "hideInList": false,
        "hideFieldsWhenInactive": false,
        "canSelectWhenInactive": true,
        "renderInWorldView": true,
        "pxOffsetX": 0,
        "pxOffsetY": 0,
        "parallaxFactorX": 0.0,
        "parallaxFactorY": 0.0,
        "parallaxScaling": true,
        "requiredTags": [],
        "excludedTags": [],
        "intGridValues": values,
        "intGridValuesGroups": [],
        "autoRuleGroups": [],
        "autoSourceLayerDefUid": null,
        "tilesetDefUid": null,
        "tilePivotX": 0.0,
        "tilePivotY": 0.0
    })
}

fn entity_def(&(identifier, color, uid, fields): &EntitySpec) -> Value {
    let room = identifier == "Room";
    json!({
        "identifier": identifier,
        "uid": uid,
        "tags": [],
        "exportToToc": false,
        "doc": null,
        "width": GRID,
        "height": GRID,
        "resizableX": room,
        "resizableY": room,
        "minWidth": null,
        "maxWidth": null,
        "minHeight": null,
        "maxHeight": null,
        "keepAspectRatio": false,
        "tileOpacity": 1.0,
        "fillOpacity": if room { 0.1 } else { 0.8 },
        "lineOpacity": 1.0,
        "hollow": room,
        "color": color,
        "renderMode": if room { "Rectangle" } else { "Ellipse" },
        "showName": true,
        "tilesetId": null,
        "tileRenderMode": "FitInside",
        "tileRect": null,
        "uiTileRect": null,
        "nineSliceBorders": [],
        "maxCount": 0,
        "limitScope": "PerLevel",
        "limitBehavior": "MoveLastOne",
        "pivotX": 0.0,
        "pivotY": 0.0,
        "fieldDefs": fields
            .iter()
            .map(|&(name, kind, uid)| field_def(name, kind, uid))
            .collect::<Vec<_>>()
    })
}

fn field_def(identifier: &str, kind: FieldType, uid: i64) -> Value {
    let array = kind == FieldType::Points;
    json!({
        "identifier": identifier,
        "doc": null,
        "__type": kind.name(),
        "uid": uid,
        "type": kind.def_type(),
        "isArray": array,
        "canBeNull": true,
        "arrayMinLength": null,
        "arrayMaxLength": null,
        "editorDisplayMode": if array { "PointPath" } else { "NameAndValue" },
        "editorDisplayScale": 1.0,
        "editorDisplayPos": "Above",
        "editorLinkStyle": "StraightArrow",
        "editorDisplayColor": null,
        "editorAlwaysShow": false,
        "editorShowInWorld": true,
        "editorCutLongValues": true,
        "editorTextSuffix": null,
        "editorTextPrefix": null,
        "useForSmartColor": false,
        "min": null,
        "max": null,
        "regex": null,
        "acceptFileTypes": null,
        "defaultOverride": null,
        "textLanguageMode": null,
        "symmetricalRef": false,
        "autoChainRef": true,
        "allowOutOfLevelRef": true,
        "allowedRefs": "OnlySame",
        "allowedRefsEntityUid": null,
        "allowedRefTags": [],
        "tilesetUid": null
    })
}

/// A field instance: its value and the value as LDtk's editor stores it.
fn field(identifier: &str, kind: FieldType, uid: i64, value: Value) -> Value {
    let editor = |v: &Value| match (kind, v) {
        (_, Value::Null) => Value::Null,
        (FieldType::Int, v) => json!({"id": "V_Int", "params": [v]}),
        (FieldType::Float, v) => json!({"id": "V_Float", "params": [v]}),
        (FieldType::Bool, v) => json!({"id": "V_Bool", "params": [v]}),
        (FieldType::String, v) => json!({"id": "V_String", "params": [v]}),
        (FieldType::Points, p) => {
            json!({"id": "V_String", "params": [format!("{},{}", p["cx"], p["cy"])]})
        }
    };
    let real = match &value {
        Value::Array(items) => items.iter().map(editor).collect(),
        v => vec![editor(v)],
    };
    json!({
        "__identifier": identifier,
        "__type": kind.name(),
        "__value": value,
        "__tile": null,
        "defUid": uid,
        "realEditorValues": real
    })
}

/// A cell as an LDtk point.
fn point(p: Point) -> Value {
    json!({"cx": p.x, "cy": p.y})
}

/// UUID-shaped instance ids drawn from the run's seed.
pub struct Iids {
    state: u64,
}

impl Iids {
    /// Identifiers drawn from `seed`.
    pub fn new(seed: u64) -> Iids {
        Iids {
            state: seed ^ 0x6c64_746b_7761_7272,
        }
    }

    /// The next identifier.
    #[allow(clippy::should_implement_trait)] // an endless stream, not an iterator
    pub fn next(&mut self) -> String {
        let (a, b) = (self.word(), self.word());
        format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            0x8000 | (b >> 48) & 0x3fff,
            b & 0xffff_ffff_ffff
        )
    }

    /// splitmix64.
    fn word(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// One level being written.
struct LdtkLevel<'a> {
    map: &'a Map,
    info: &'a LevelInfo<'a>,
    uid: i64,
    regions: &'a Regions,
    fields: &'a [LevelField],
}

impl LdtkLevel<'_> {
    fn write(&self, out: &mut dyn Write, iids: &mut Iids) -> io::Result<()> {
        let (map, info) = (self.map, self.info);
        let (w, h) = (map.width() as i64, map.height() as i64);
        let fields: Vec<Value> = self
            .fields
            .iter()
            .map(|(name, kind, uid, value)| {
                // `seed` and `depth` are the level's own.
                let value = match name.as_str() {
                    "seed" => Value::from(info.seed.to_string()),
                    "depth" => Value::from(info.depth),
                    _ => value.clone(),
                };
                field(name, *kind, *uid, value)
            })
            .collect();
        let level = json!({
            "identifier": format!("Level_{}", info.depth),
            "iid": iids.next(),
            "uid": self.uid,
            "worldX": 0,
            "worldY": 0,
            "worldDepth": info.depth as i64 - 1,
            "pxWid": w * GRID,
            "pxHei": h * GRID,
            "__bgColor": "#1e1e28",
            "bgColor": null,
            "useAutoIdentifier": false,
            "bgRelPath": null,
            "bgPos": null,
            "bgPivotX": 0.5,
            "bgPivotY": 0.5,
            "__smartColor": "#adadb5",
            "__bgPos": null,
            "externalRelPath": null,
            "fieldInstances": fields,
            "__neighbours": []
        });
        let Value::Object(level) = level else {
            unreachable!("json! of an object")
        };
        let entities = self.entities(iids);
        let mut layers = vec![
            (
                self.layer("Entities", ENTITIES, "Entities", entities, iids),
                None,
            ),
            (
                self.layer("Regions", REGIONS, "IntGrid", Vec::new(), iids),
                Some(REGIONS),
            ),
            (
                self.layer("Terrain", TERRAIN, "IntGrid", Vec::new(), iids),
                Some(TERRAIN),
            ),
        ];
        layers[1].0["visible"] = json!(false);
        with_last(out, level, "layerInstances", |out| {
            out.write_all(b"[")?;
            for (i, (layer, grid)) in layers.into_iter().enumerate() {
                out.write_all(if i == 0 { b"\n" } else { b",\n" })?;
                let Value::Object(layer) = layer else {
                    unreachable!("json! of an object")
                };
                match grid {
                    None => {
                        let mut layer = layer;
                        layer.insert("intGridCsv".into(), json!([]));
                        serde_json::to_writer(&mut *out, &layer)?;
                    }
                    Some(which) => with_last(out, layer, "intGridCsv", |out| self.csv(out, which))?,
                }
            }
            out.write_all(b"\n]")
        })
    }

    /// A layer instance without its `intGridCsv`.
    fn layer(
        &self,
        identifier: &str,
        def: i64,
        kind: &str,
        entities: Vec<Value>,
        iids: &mut Iids,
    ) -> Value {
        json!({
            "__identifier": identifier,
            "__type": kind,
            "__cWid": self.map.width(),
            "__cHei": self.map.height(),
            "__gridSize": GRID,
            "__opacity": 1.0,
            "__pxTotalOffsetX": 0,
            "__pxTotalOffsetY": 0,
            "__tilesetDefUid": null,
            "__tilesetRelPath": null,
            "iid": iids.next(),
            "levelId": self.uid,
            "layerDefUid": def,
            "pxOffsetX": 0,
            "pxOffsetY": 0,
            "visible": true,
            "optionalRules": [],
            "autoLayerTiles": [],
            "seed": (self.uid * 7919 + def) % 9_999_999,
            "overrideTilesetUid": null,
            "gridTiles": [],
            "entityInstances": entities
        })
    }

    /// Writes an IntGrid's values, one row per line, each row's numbers worked out from the map
    /// as it is written (nothing held per cell).
    fn csv(&self, out: &mut dyn Write, which: i64) -> io::Result<()> {
        let map = self.map;
        let width = (map.width() as usize).max(1);
        let of_id: Vec<u32> = if which == TERRAIN {
            Vec::new()
        } else {
            map.region_names()
                .iter()
                .enumerate()
                .map(|(i, n)| if i == 0 { 0 } else { self.regions.value(n) })
                .collect()
        };
        // Sized once for the longest row; each row overwrites what it writes.
        let mut digits = vec![0; width * MAX_CELL_DIGITS];
        out.write_all(b"[")?;
        for y in 0..map.height() as usize {
            let cells = y * width..(y + 1) * width;
            let len = if which == TERRAIN {
                let row = map.terrain_cells()[cells].iter();
                comma_separated(&mut digits, row.map(|&t| u32::from(t) + 1))
            } else {
                let row = map.region_cells()[cells].iter();
                comma_separated(&mut digits, row.map(|&r| of_id[r as usize]))
            };
            out.write_all(if y == 0 { b"\n" } else { b",\n" })?;
            out.write_all(&digits[..len])?;
        }
        out.write_all(b"\n]")
    }

    /// Every entity of the level: rooms, doors, stairs, spawns, the start and corridors.
    fn entities(&self, iids: &mut Iids) -> Vec<Value> {
        let map = self.map;
        let notes = &map.notes;
        let mut list = Vec::new();
        let kind = |name: &str| {
            KINDS
                .iter()
                .find(|k| k.0 == name)
                .expect("an entity of KINDS")
        };
        let mut add = |name: &str, at: Point, size: (i64, i64), values: Vec<Value>| {
            let (identifier, color, uid, defs) = *kind(name);
            let fields: Vec<Value> = defs
                .iter()
                .zip(values)
                .map(|(&(f, t, fuid), v)| field(f, t, fuid, v))
                .collect();
            let (px, py) = (at.x as i64 * GRID, at.y as i64 * GRID);
            list.push(json!({
                "__identifier": identifier,
                "__grid": [at.x, at.y],
                "__pivot": [0.0, 0.0],
                "__tags": [],
                "__tile": null,
                "__smartColor": color,
                "__worldX": px,
                "__worldY": py,
                "iid": iids.next(),
                "width": size.0 * GRID,
                "height": size.1 * GRID,
                "defUid": uid,
                "px": [px, py],
                "fieldInstances": fields
            }));
        };
        for r in &notes.rooms {
            let doors: Vec<Value> = map.room_doors(r).into_iter().map(point).collect();
            add(
                "Room",
                Point::new(r.rect.x, r.rect.y),
                (r.rect.w as i64, r.rect.h as i64),
                vec![
                    Value::from(&*r.kind),
                    map.room_region(r).map_or(Value::Null, Value::from),
                    Value::Array(doors),
                ],
            );
        }
        for d in &notes.doors {
            let kind = d.kind.as_deref().map_or(Value::Null, Value::from);
            add("Door", d.at(), (1, 1), vec![d.state.name().into(), kind]);
        }
        for (dir, list) in [("up", &notes.stairs.up), ("down", &notes.stairs.down)] {
            for &s in list {
                add("Stairs", s, (1, 1), vec![dir.into()]);
            }
        }
        for s in &notes.spawns {
            add(
                "Spawn",
                Point::new(s.x, s.y),
                (1, 1),
                vec![s.what.as_str().into()],
            );
        }
        if let Some(start) = map.entry() {
            add("Start", start, (1, 1), Vec::new());
        }
        for c in &notes.corridors {
            let at = c.cells.first().copied().unwrap_or(Point::new(0, 0));
            let region = c.region.as_deref().map_or(Value::Null, Value::from);
            let cells = Value::Array(c.cells.iter().copied().map(point).collect());
            add("Corridor", at, (1, 1), vec![region, cells]);
        }
        list
    }
}

/// Writes the object `head` with one more key, `key`, last, whose value `tail` writes: a
/// document too big to hold whole streams out this way.
fn with_last(
    out: &mut dyn Write,
    head: Object<String, Value>,
    key: &str,
    tail: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let text = serde_json::to_string(&head)?;
    let open = &text[..text.len() - 1];
    out.write_all(open.as_bytes())?;
    if !head.is_empty() {
        out.write_all(b",")?;
    }
    serde_json::to_writer(&mut *out, key)?;
    out.write_all(b":")?;
    tail(out)?;
    out.write_all(b"}")
}
