//! `[[prefab]]`: a vault template resolved, every rule of its map, legend, substitutions and
//! entrances checked, each problem at the key, or at the very cell of the map, it concerns.

use super::super::locate::Seg;
use super::super::schema::{PrefabDef, SubstDef};
use super::{depths, single, Problems};
use crate::gen::dungeon::VaultGlyph;
use crate::gen::prefab::{Cell, Glyphs, GridProblem, Per, Prefab, Subst, SubstKind};
use crate::map::TerrainTable;
use crate::tpath;
use std::collections::{BTreeMap, BTreeSet};

/// The path of item `i` of `key` (or character `i` of its text).
fn pair(key: &str, i: usize) -> [Seg; 2] {
    [Seg::from(key), Seg::from(i)]
}

/// `'x'`, or `' ' (space)` for a space.
fn shown(glyph: char) -> String {
    if glyph == ' ' {
        "' ' (space)".to_string()
    } else {
        format!("'{glyph}'")
    }
}

/// The built-in glyphs, for messages.
fn built_ins() -> String {
    Cell::BUILT_IN
        .iter()
        .map(|(g, what)| format!("{} {what}", shown(*g)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `[[prefab]]`: its legend (single-character keys naming terrains or `[[door]]` kinds), its
/// map (rows of equal length, every glyph built in, in the legend or substituted), its
/// substitutions, its entrances, weight, depths and tags.
pub fn prefab(d: &PrefabDef, terrains: &TerrainTable, p: &mut Problems) -> Option<Prefab> {
    let before = p.found.len();
    let legend = legend(d, terrains, p);
    let map = match Glyphs::parse(&d.map) {
        Ok(parsed) => Some(parsed),
        Err(e) => {
            let key = p.name(&["map"]);
            match e {
                GridProblem::Empty => p.report(&["map"], format!("{key} {e}")),
                GridProblem::Ragged { at, .. } => {
                    p.report_at(&pair("map", at), format!("{key}: {e}"))
                }
            }
            None
        }
    };
    let glyphs = map.as_ref().map(|(g, _)| g);
    let (subst, substituted) = substitutions(d, &legend, glyphs, p);
    if let Some((glyphs, at)) = &map {
        unknown_glyphs(glyphs, at, &legend, &substituted, p);
    }
    let connect = entrances(d, &legend, map.as_ref(), &substituted, terrains, p);
    p.weight(d.weight);
    depths(p, d.min_depth, d.max_depth);
    for (i, tag) in d.tags.iter().enumerate() {
        if tag.trim().is_empty() {
            let key = p.name_of(&pair("tags", i));
            p.report_at(
                &pair("tags", i),
                format!("{key} is empty; a tag is a non-empty name"),
            );
        }
    }
    if p.found.len() > before {
        return None;
    }
    Some(Prefab {
        name: d.name.clone(),
        glyphs: map?.0,
        legend,
        subst,
        rotate: d.rotate,
        mirror: d.mirror,
        weight: d.weight,
        min_depth: d.min_depth as u32,
        max_depth: d.max_depth as u32,
        tags: d.tags.clone(),
        connect,
    })
}

/// The built-in glyphs, then the legend's entries over them.
fn legend(d: &PrefabDef, terrains: &TerrainTable, p: &mut Problems) -> BTreeMap<char, Cell> {
    let mut out: BTreeMap<char, Cell> = Cell::BUILT_IN
        .iter()
        .filter_map(|&(g, _)| Some((g, Cell::built_in(g)?)))
        .collect();
    for (key, name) in &d.legend {
        let at = ["legend", key.as_str()];
        let Some(glyph) = single(key) else {
            let what = p.name(&["legend"]);
            p.report(
                &at,
                format!("{what} key {key:?} must be exactly one character (a glyph of the map)"),
            );
            continue;
        };
        let cell = match VaultGlyph::named(terrains, name) {
            Some(VaultGlyph::Door(kind)) => Some(Cell::DoorOf(kind)),
            Some(VaultGlyph::Terrain(t)) => Some(Cell::Terrain(t)),
            None => p.terrain(&at, name, terrains).map(Cell::Terrain),
        };
        // A glyph whose terrain is unknown is reported once, here: the map's use of it is no
        // second problem (and the template is refused, so what stands in never draws).
        out.insert(glyph, cell.unwrap_or(Cell::Keep));
    }
    out
}

/// One glyph key of a substitution (`glyph`, `becomes`, `rest`): a single character, and for
/// what a substitution produces, one the legend or the built-ins know.
fn glyph_key(
    p: &mut Problems,
    at: &[Seg],
    text: &str,
    legend: &BTreeMap<char, Cell>,
    produced: bool,
) -> Option<char> {
    // Naming the key parses the file again: only for a key that is wrong.
    let Some(glyph) = single(text) else {
        let key = p.name_of(at);
        p.report_at(
            at,
            format!("{key} = {text:?} must be exactly one character"),
        );
        return None;
    };
    if produced && !legend.contains_key(&glyph) {
        let key = p.name_of(at);
        p.report_at(
            at,
            format!(
                "{key} = {} is not in the legend nor built in ({}); add it to the legend",
                shown(glyph),
                built_ins()
            ),
        );
        return None;
    }
    Some(glyph)
}

/// The substitutions, each with exactly one of `one_of` and `count` and only the keys that go
/// with it; no glyph substituted twice, nothing produced substituted again by another (a
/// substitution may keep some cells as they are: `one_of = ";; "` over `;`), no `count` above
/// the glyph's cells in the map. Also returns every glyph a substitution names (those with
/// problems of their own too).
fn substitutions(
    d: &PrefabDef,
    legend: &BTreeMap<char, Cell>,
    glyphs: Option<&Glyphs>,
    p: &mut Problems,
) -> (Vec<Subst>, BTreeSet<char>) {
    let mut out = Vec::new();
    let mut taken: BTreeMap<char, usize> = BTreeMap::new();
    let mut produced: Vec<(char, Vec<Seg>, usize)> = Vec::new();
    for (i, s) in d.subst.iter().enumerate() {
        let at = |k: &str| tpath!["subst", i, k];
        let glyph = glyph_key(p, &at("glyph"), &s.glyph, legend, false);
        if let Some(g) = glyph {
            if let Some(first) = taken.insert(g, i) {
                let key = p.name_of(&at("glyph"));
                p.report_at(
                    &at("glyph"),
                    format!(
                        "{key} = {} is substituted already by subst #{}; substitute a glyph once",
                        shown(g),
                        first + 1
                    ),
                );
            }
        }
        let kind = subst_kind(s, i, legend, glyph, glyphs, &mut produced, p);
        if let (Some(glyph), Some(kind)) = (glyph, kind) {
            out.push(Subst { glyph, kind });
        }
    }
    for (g, at, from) in produced {
        if let Some(&by) = taken.get(&g).filter(|&&by| by != from) {
            let key = p.name_of(&at);
            p.report_at(
                &at,
                format!(
                    "{key} produces {}, which subst #{} substitutes; substitutions do not chain \
                     (use another glyph)",
                    shown(g),
                    by + 1
                ),
            );
        }
    }
    (out, taken.into_keys().collect())
}

/// What substitution `i` does.
fn subst_kind(
    s: &SubstDef,
    i: usize,
    legend: &BTreeMap<char, Cell>,
    glyph: Option<char>,
    glyphs: Option<&Glyphs>,
    produced: &mut Vec<(char, Vec<Seg>, usize)>,
    p: &mut Problems,
) -> Option<SubstKind> {
    let at = |k: &str| tpath!["subst", i, k];
    // Naming a key parses the file again: names are made only for keys that are wrong.
    let entry = |p: &Problems| p.name_of(&pair("subst", i));
    let stray = |p: &mut Problems, key: &str, with: &str| {
        let name = p.name_of(&at(key));
        p.report_at(&at(key), format!("{name} goes only with {with}"));
    };
    match (&s.one_of, s.count) {
        (Some(_), Some(_)) => {
            p.report_at(
                &at("count"),
                format!("{} has both one_of and count; give one", entry(p)),
            );
            None
        }
        (None, None) => {
            p.report_at(
                &pair("subst", i),
                format!(
                    "{} has neither one_of (each cell becomes one of several glyphs) nor \
                     count (exactly that many cells become `becomes`); give one",
                    entry(p)
                ),
            );
            None
        }
        (Some(choices), None) => {
            for key in ["becomes", "rest"] {
                let given = if key == "becomes" {
                    &s.becomes
                } else {
                    &s.rest
                };
                if given.is_some() {
                    stray(p, key, "count");
                }
            }
            let key = |p: &Problems| p.name_of(&at("one_of"));
            if choices.is_empty() {
                let key = key(p);
                p.report_at(
                    &at("one_of"),
                    format!("{key} is empty; list the glyphs to choose from"),
                );
            }
            let mut ok = !choices.is_empty();
            for c in choices.chars() {
                if legend.contains_key(&c) {
                    produced.push((c, at("one_of"), i));
                } else {
                    ok = false;
                    let key = key(p);
                    p.report_at(
                        &at("one_of"),
                        format!(
                            "{key} = {choices:?}: {} is not in the legend nor built in ({}); add it to the legend",
                            shown(c),
                            built_ins()
                        ),
                    );
                }
            }
            let per = match s.per.as_deref() {
                None => Some(Per::Cell),
                Some(name) => {
                    let per = Per::from_name(name);
                    if per.is_none() {
                        let key = p.name_of(&at("per"));
                        let hint = match super::did_you_mean(name, Per::NAMES) {
                            Some(s) => format!("did you mean '{s}'?"),
                            None => format!("valid: {}", Per::NAMES.join(", ")),
                        };
                        p.report_at(
                            &at("per"),
                            format!("{key} = '{name}' is not cell or placement; {hint}"),
                        );
                    }
                    per
                }
            };
            (ok && per.is_some()).then(|| SubstKind::OneOf {
                choices: choices.chars().collect(),
                per: per.unwrap_or_default(),
            })
        }
        (None, Some(count)) => {
            if s.per.is_some() {
                stray(p, "per", "one_of");
            }
            let key = |p: &Problems| p.name_of(&at("count"));
            let cells = match (glyph, glyphs) {
                (Some(g), Some(map)) => Some(map.count(g)),
                _ => None,
            };
            let mut ok = true;
            if count < 0 {
                let key = key(p);
                p.report_at(
                    &at("count"),
                    format!("{key} = {count} is negative; give a count ≥ 0"),
                );
                ok = false;
            } else if let (Some(cells), Some(g)) = (cells, glyph) {
                if count as usize > cells {
                    let key = key(p);
                    p.report_at(
                        &at("count"),
                        format!(
                            "{key} = {count}, but the map has only {cells} cell(s) of {}",
                            shown(g)
                        ),
                    );
                    ok = false;
                }
            }
            let becomes = match &s.becomes {
                Some(b) => glyph_key(p, &at("becomes"), b, legend, true),
                None => {
                    let entry = entry(p);
                    p.report_at(
                        &pair("subst", i),
                        format!("{entry} has count but no becomes; say what the cells become"),
                    );
                    None
                }
            };
            let rest = match &s.rest {
                Some(r) => glyph_key(p, &at("rest"), r, legend, true).map(Some),
                None => {
                    if let Some(g) = glyph.filter(|g| !legend.contains_key(g)) {
                        let entry = entry(p);
                        p.report_at(
                            &pair("subst", i),
                            format!(
                                "{entry} leaves the other cells of {} as they are, but the legend \
                                 does not know it; give rest (what they become)",
                                shown(g)
                            ),
                        );
                        None
                    } else {
                        Some(None)
                    }
                }
            };
            if let Some(b) = becomes {
                produced.push((b, at("becomes"), i));
            }
            if let Some(Some(r)) = rest {
                produced.push((r, at("rest"), i));
            }
            let (becomes, rest) = (becomes?, rest?);
            ok.then_some(SubstKind::NOf {
                count: count as usize,
                becomes,
                rest,
            })
        }
    }
}

/// Reports the first cell of every glyph of the map that nothing gives a meaning.
fn unknown_glyphs(
    glyphs: &Glyphs,
    at: &[usize],
    legend: &BTreeMap<char, Cell>,
    substituted: &BTreeSet<char>,
    p: &mut Problems,
) {
    let key = |p: &Problems| p.name(&["map"]);
    let mut seen = BTreeSet::new();
    for (i, &c) in glyphs.cells.iter().enumerate() {
        if legend.contains_key(&c) || substituted.contains(&c) || !seen.insert(c) {
            continue;
        }
        let (x, y) = (i as i32 % glyphs.width, i as i32 / glyphs.width);
        let key = key(p);
        p.report_at(
            &pair("map", at[i]),
            format!(
                "{key}: glyph {} (row {}, column {}) is not in the legend, not built in ({}) \
                 and not substituted; add it to the legend",
                shown(c),
                y + 1,
                x + 1,
                built_ins()
            ),
        );
    }
}

/// The entrance glyphs of `connect`: each in the map, not substituted, a cell a walker may
/// stand on, and every cell of it on the map's border.
fn entrances(
    d: &PrefabDef,
    legend: &BTreeMap<char, Cell>,
    map: Option<&(Glyphs, Vec<usize>)>,
    substituted: &BTreeSet<char>,
    terrains: &TerrainTable,
    p: &mut Problems,
) -> Vec<char> {
    let key = |p: &Problems| p.name(&["connect"]);
    let mut out: Vec<char> = Vec::new();
    for c in d.connect.chars() {
        if out.contains(&c) {
            continue;
        }
        out.push(c);
        let Some((glyphs, at)) = map else { continue };
        if glyphs.count(c) == 0 {
            let key = key(p);
            p.report(
                &["connect"],
                format!("{key}: glyph {} is not in the map", shown(c)),
            );
            continue;
        }
        if substituted.contains(&c) {
            let key = key(p);
            p.report(
                &["connect"],
                format!(
                    "{key}: glyph {} is substituted; an entrance must stay as written",
                    shown(c)
                ),
            );
            continue;
        }
        let open = match legend.get(&c) {
            // A legend name that did not resolve was reported at the legend, or is excused
            // because the file that would declare it is broken: no second problem here.
            Some(Cell::Keep) if d.legend.contains_key(&c.to_string()) => continue,
            Some(Cell::Floor | Cell::Door | Cell::DoorOf(_)) => true,
            Some(Cell::Terrain(t)) => {
                let t = terrains.get(*t);
                !t.solid && !t.hazard
            }
            _ => false,
        };
        if !open {
            let key = key(p);
            p.report(
                &["connect"],
                format!(
                    "{key}: glyph {} is not a cell a walker may stand on (a floor, a door or an \
                     open terrain that is no hazard)",
                    shown(c)
                ),
            );
            continue;
        }
        let inner = (0..glyphs.cells.len()).find(|&i| {
            glyphs.cells[i] == c
                && !glyphs.on_border(i as i32 % glyphs.width, i as i32 / glyphs.width)
        });
        if let Some(i) = inner {
            let mkey = p.name(&["map"]);
            p.report_at(
                &pair("map", at[i]),
                format!(
                    "{mkey}: this {} is an entrance (connect) but not on the map's border; \
                     entrances must be on the outer ring",
                    shown(c)
                ),
            );
        }
    }
    out
}
