//! Static checks of a recipe's source: names that must exist in the region files or the API,
//! found without running anything. What is checked:
//!
//! - string literals passed as a terrain argument of a map method (`map:set(x, y, "floor")`,
//!   `map:fill "rock"`; which arguments are terrain comes from the API declarations) or
//!   assigned to a `terrain` key (`{ terrain = "floor" }`) name a declared terrain; a method
//!   other types declare too (`town:count("street")`, `lists:count("frontier")`) is checked
//!   only when called on `map` or `ctx.above`;
//! - `ctx.regions.<section>` names a section of `ctx.regions` (declared from the region
//!   schema) that some region file declares, and `ctx.regions.<section>.<key>` a key that
//!   section has;
//! - `ctx.<field>` is a field of `ctx`, and `ctx.params.<name>` a declared parameter;
//! - `warren.<name>`, `warren.<module>.<name>` (`gen`, `tunnel`, `dungeon`, `town`) and
//!   `warren.prio.<NAME>` exist.
//!
//! Names reached through other variables (`local r = ctx.regions; r.roms`) are not followed.

use super::lex::{Tok, Token};
use crate::api::decl::{Decl, Kind, Owner, Ty};
use crate::api::regions::REGIONS;
use std::collections::BTreeSet;
use warren_core::map::priority;

/// What the source is checked against. `None` skips the checks that need it.
#[derive(Clone, Debug, Default)]
pub struct Known {
    /// Declared terrain names.
    pub terrains: Option<BTreeSet<String>>,
    /// `ctx.regions` as data (sections as keys; `null` for a section no file declares).
    pub regions: Option<serde_json::Value>,
    /// The recipe's declared parameters.
    pub params: Option<BTreeSet<String>>,
}

/// One problem found in a source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

/// Every problem in `tokens`.
pub fn scan(tokens: &[Token], known: &Known) -> Vec<Finding> {
    let mut out = Vec::new();
    for i in 0..tokens.len() {
        terrain_calls(tokens, i, known, &mut out);
        terrain_keys(tokens, i, known, &mut out);
        if name_at(tokens, i) == Some("ctx") && !follows_dot(tokens, i) {
            ctx_path(tokens, i, known, &mut out);
        }
        if name_at(tokens, i) == Some("warren") && !follows_dot(tokens, i) {
            warren_path(tokens, i, &mut out);
        }
    }
    out
}

fn name_at(tokens: &[Token], i: usize) -> Option<&str> {
    match tokens.get(i).map(|t| &t.tok) {
        Some(Tok::Name(n)) => Some(n),
        _ => None,
    }
}

fn punct_at(tokens: &[Token], i: usize, c: char) -> bool {
    tokens.get(i).map(|t| &t.tok) == Some(&Tok::Punct(c))
}

/// Whether token `i` is a field name (`x.ctx`, `x:ctx`) rather than a variable.
fn follows_dot(tokens: &[Token], i: usize) -> bool {
    i > 0 && (punct_at(tokens, i - 1, '.') || punct_at(tokens, i - 1, ':'))
}

/// The dotted path after token `i`: (name, token index) pairs of `.name` steps.
fn dotted(tokens: &[Token], i: usize) -> Vec<(&str, usize)> {
    let mut path = Vec::new();
    let mut j = i + 1;
    while punct_at(tokens, j, '.') {
        match name_at(tokens, j + 1) {
            Some(n) => path.push((n, j + 1)),
            None => break,
        }
        j += 2;
    }
    path
}

fn finding(out: &mut Vec<Finding>, t: &Token, message: String) {
    out.push(Finding {
        line: t.line,
        col: t.col,
        message,
    });
}

fn check_terrain(known: &Known, t: &Token, name: &str, call: &str, out: &mut Vec<Finding>) {
    if let Some(terrains) = &known.terrains {
        if !terrains.contains(name) {
            let list: Vec<String> = terrains.iter().map(|n| format!("'{n}'")).collect();
            finding(
                out,
                t,
                format!(
                    "{call}: unknown terrain '{name}' (known: {})",
                    list.join(", ")
                ),
            );
        }
    }
}

/// `:method(args)` or `:method "literal"` of a map method with terrain arguments.
fn terrain_calls(tokens: &[Token], i: usize, known: &Known, out: &mut Vec<Finding>) {
    if !punct_at(tokens, i, ':') {
        return;
    }
    let Some(method) = name_at(tokens, i + 1) else {
        return;
    };
    let decls = crate::api::decls();
    let Some(entry) = decls
        .iter()
        .find(|e| e.owner == Owner::Map && e.kind == Kind::Method && e.name == method)
    else {
        return;
    };
    let shared = decls
        .iter()
        .any(|e| e.owner != Owner::Map && e.kind == Kind::Method && e.name == method);
    let on_map = i > 0 && matches!(name_at(tokens, i - 1), Some("map" | "above"));
    if shared && !on_map {
        return;
    }
    let positions = terrain_args(entry);
    if positions.is_empty() {
        return;
    }
    let call = format!("map:{method}");
    if let Some(Token {
        tok: Tok::Str(s), ..
    }) = tokens.get(i + 2)
    {
        if positions.contains(&0) {
            check_terrain(known, &tokens[i + 2], s, &call, out);
        }
        return;
    }
    if !punct_at(tokens, i + 2, '(') {
        return;
    }
    for (k, arg) in arguments(tokens, i + 3).iter().enumerate() {
        if let [t @ Token {
            tok: Tok::Str(s), ..
        }] = arg.as_slice()
        {
            if positions.contains(&k) {
                check_terrain(known, t, s, &call, out);
            }
        }
    }
}

/// 0-based positions of a declaration's terrain-name arguments.
fn terrain_args(d: &Decl) -> Vec<usize> {
    d.args
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a.ty, Ty::Terrain))
        .map(|(i, _)| i)
        .collect()
}

/// The arguments of a call whose `(` is just before `start`, split at top-level commas.
fn arguments(tokens: &[Token], start: usize) -> Vec<Vec<Token>> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    for t in &tokens[start.min(tokens.len())..] {
        match t.tok {
            Tok::Punct('(' | '{' | '[') => depth += 1,
            Tok::Punct(')' | '}' | ']') if depth == 0 => break,
            Tok::Punct(')' | '}' | ']') => depth -= 1,
            Tok::Punct(',') if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = args.last_mut() {
            last.push(t.clone());
        }
    }
    args
}

/// `terrain = "literal"` in a table constructor or assignment.
fn terrain_keys(tokens: &[Token], i: usize, known: &Known, out: &mut Vec<Finding>) {
    if name_at(tokens, i) != Some("terrain")
        || follows_dot(tokens, i)
        || !punct_at(tokens, i + 1, '=')
        || punct_at(tokens, i + 2, '=')
    {
        return;
    }
    if let Some(
        t @ Token {
            tok: Tok::Str(s), ..
        },
    ) = tokens.get(i + 2)
    {
        check_terrain(known, t, s, "terrain option", out);
    }
}

/// `ctx.field`, `ctx.params.name`, `ctx.regions.section(.key)`.
fn ctx_path(tokens: &[Token], i: usize, known: &Known, out: &mut Vec<Finding>) {
    let path = dotted(tokens, i);
    let Some(&(field, at)) = path.first() else {
        return;
    };
    let fields: Vec<&str> = crate::api::decls()
        .iter()
        .filter(|e| e.owner == Owner::Ctx)
        .map(|e| e.name)
        .collect();
    if !fields.contains(&field) {
        let msg = format!("ctx has no field '{field}' (fields: {})", fields.join(", "));
        finding(out, &tokens[at], msg);
        return;
    }
    match (field, path.get(1)) {
        ("params", Some(&(name, at))) => {
            if let Some(params) = &known.params {
                if !params.contains(name) {
                    let list: Vec<&str> = params.iter().map(String::as_str).collect();
                    let msg = format!(
                        "ctx.params.{name}: the recipe declares no parameter '{name}' (declared: {})",
                        list.join(", ")
                    );
                    finding(out, &tokens[at], msg);
                }
            }
        }
        ("regions", Some(&(section, at))) => {
            regions_path(known, tokens, &path[1..], (section, at), out)
        }
        _ => {}
    }
}

/// `ctx.regions.section(.key)`: the section is declared (in [`REGIONS`]) and some region file
/// has it; a key of a single section (not a list) is one it declares.
fn regions_path(
    known: &Known,
    tokens: &[Token],
    path: &[(&str, usize)],
    (section, at): (&str, usize),
    out: &mut Vec<Finding>,
) {
    let Some(field) = REGIONS.field(section) else {
        let list = REGIONS.keys().join(", ");
        let msg = format!("ctx.regions.{section}: no such region section (sections: {list})");
        finding(out, &tokens[at], msg);
        return;
    };
    if let Some(serde_json::Value::Object(regions)) = &known.regions {
        if matches!(regions.get(section), Some(serde_json::Value::Null)) {
            let msg = format!("ctx.regions.{section}: no region file declares [{section}]");
            finding(out, &tokens[at], msg);
            return;
        }
    }
    if let (Ty::Table(class), Some(&(key, at))) = (field.ty, path.get(1)) {
        if class.field(key).is_none() {
            let msg = format!(
                "ctx.regions.{section}.{key}: [{section}] has no key '{key}' (keys: {})",
                class.keys().join(", ")
            );
            finding(out, &tokens[at], msg);
        }
    }
}

/// `warren.name`, `warren.<module>.name`, `warren.prio.NAME`.
fn warren_path(tokens: &[Token], i: usize, out: &mut Vec<Finding>) {
    let path = dotted(tokens, i);
    let decls = crate::api::decls();
    let names = |owner: Owner| -> Vec<&str> {
        decls
            .iter()
            .filter(|e| e.owner == owner)
            .map(|e| e.name)
            .collect()
    };
    let Some(&(first, at)) = path.first() else {
        return;
    };
    let top = names(Owner::Warren);
    if !top.contains(&first) {
        let msg = format!(
            "warren.{first} does not exist (warren has: {})",
            top.join(", ")
        );
        finding(out, &tokens[at], msg);
        return;
    }
    let Some(&(second, at)) = path.get(1) else {
        return;
    };
    let valid: Vec<&str> = match first {
        "gen" => names(Owner::Gen),
        "tunnel" => names(Owner::Tunnel),
        "dungeon" => names(Owner::Dungeon),
        "town" => names(Owner::Town),
        "prio" => priority::NAMED.iter().map(|(n, _)| *n).collect(),
        _ => return,
    };
    if !valid.contains(&second) {
        let msg = format!(
            "warren.{first}.{second} does not exist (warren.{first} has: {})",
            valid.join(", ")
        );
        finding(out, &tokens[at], msg);
    }
}

#[cfg(test)]
mod tests {
    use super::super::lex::tokens;
    use super::*;

    fn known() -> Known {
        Known {
            terrains: Some(["rock".into(), "floor".into()].into()),
            regions: Some(
                serde_json::json!({ "rooms": { "floor": "floor" }, "cave": null, "spawn": [], "dungeon": {} }),
            ),
            params: Some(["width".into(), "height".into()].into()),
        }
    }

    fn found(src: &str) -> Vec<(usize, String)> {
        scan(&tokens(src), &known())
            .into_iter()
            .map(|f| (f.line, f.message))
            .collect()
    }

    #[test]
    fn terrain_literals_in_calls_and_options() {
        let f = found(
            "map:set(x, f(1, 2), \"flor\")\nmap:fill 'rok'\nmap:line(1,2,3,4,\"floor\",{ terrain = \"lava\" })\nmap:get(\"floor\", 1)\nmap:set(1, 2, t)",
        );
        let lines: Vec<usize> = f.iter().map(|x| x.0).collect();
        assert_eq!(lines, [1, 2, 3], "{f:?}");
        assert!(f[0]
            .1
            .starts_with("map:set: unknown terrain 'flor' (known: 'floor', 'rock')"));
        assert!(f[2].1.contains("'lava'"));
    }

    #[test]
    fn ctx_and_warren_names() {
        let f = found(
            "local a = ctx.regions.roms.x\nlocal b = ctx.regions.cave\nlocal c = ctx.regions.rooms.flor\nlocal d = ctx.params.widht + ctx.params.width\nctx.rgn:int(1, 2)\nwarren.gen.scater_rooms()\nwarren.prio.ROOM_FLOOR\nwarren.recct(1)\nx.ctx.nothing = 1",
        );
        let lines: Vec<usize> = f.iter().map(|x| x.0).collect();
        assert_eq!(lines, [1, 2, 3, 4, 5, 6, 8], "{f:?}");
        assert!(f[1].1.contains("no region file declares [cave]"));
        assert!(f[2]
            .1
            .contains("[rooms] has no key 'flor' (keys: floor, corridor, wall)"));
        assert!(f[3].1.contains("declares no parameter 'widht'"));
        assert!(f[5].1.contains("warren.gen.scater_rooms does not exist"));
    }

    #[test]
    fn module_members_and_receivers() {
        let f = found(
            "town:count('street')
lists:count(\"frontier\")
map:count('lava')
ctx.above:count('lava')
warren.dungeon.init_levl(map)
warren.tunnel.new(map)
warren.town.capacity(11, 11)
local t = ctx.regions.dungeon.turn_chanse
local u = ctx.regions.corridor[1].weight",
        );
        let lines: Vec<usize> = f.iter().map(|x| x.0).collect();
        assert_eq!(lines, [3, 4, 5, 8], "{f:?}");
        assert!(f[0].1.starts_with("map:count: unknown terrain 'lava'"));
        assert!(f[2]
            .1
            .contains("warren.dungeon.init_levl does not exist (warren.dungeon has: init_level,"));
        assert!(f[3].1.contains("[dungeon] has no key 'turn_chanse'"));
    }
}
