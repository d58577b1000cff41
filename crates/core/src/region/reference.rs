//! The region-file schema as a JSON Schema, and the modder's reference page written from it.
//!
//! Both come from the schema's types ([`RegionFile`] and the sections it holds): the doc comments
//! give each key's meaning, serde's attributes which keys exist and which may be left out, and
//! the [`IntKey`](super::IntKey) constants each integer key's range and default. Nothing here
//! restates a key, so neither the JSON Schema (`schemas/regions.schema.json`, which TOML editors
//! read to complete and check region files) nor the reference (`docs/region-reference.md`) can
//! drift from what loading accepts.

use super::RegionFile;
use serde_json::{Map, Value};
use std::fmt::Write;

/// Where the JSON Schema of region files is kept in the repository, and the name `warren init`
/// gives it.
pub const SCHEMA_PATH: &str = "schemas/regions.schema.json";

/// Where the generated reference page is kept in the repository.
pub const REFERENCE_PATH: &str = "docs/region-reference.md";

/// The schema's title; `warren schema --out` recognises a file it wrote by it.
pub const SCHEMA_TITLE: &str = "warren region file";

/// The JSON Schema (draft 7) of one region file, as a JSON value.
pub fn json_schema() -> Value {
    let generator = schemars::generate::SchemaSettings::draft07().into_generator();
    let schema = generator.into_root_schema_for::<RegionFile>();
    let mut value = schema.to_value();
    for_toml(&mut value);
    if let Value::Object(root) = &mut value {
        root.insert("title".into(), SCHEMA_TITLE.into());
        root.insert(
            "description".into(),
            "One TOML file of a warren regions directory: terrains, doors, the regions recipes \
             choose from, and the constants they use. Every key is described in \
             docs/region-reference.md."
                .into(),
        );
    }
    value
}

/// Makes a schema generated from the Rust types say what a TOML file may hold: TOML has no
/// null, so an optional key is one that may be left out (never one that may be `null`), it has
/// no default of its own to show, and a left-out key inside a table's default is dropped too.
/// Integer formats (`int64`) say nothing a TOML editor can use.
fn for_toml(v: &mut Value) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Array(types)) = map.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types.remove(0);
                    map.insert("type".into(), only);
                }
            }
            if let Some(Value::Array(branches)) = map.get("anyOf") {
                let kept: Vec<Value> = branches
                    .iter()
                    .filter(|b| b.get("type").and_then(Value::as_str) != Some("null"))
                    .cloned()
                    .collect();
                if kept.len() == 1 {
                    map.remove("anyOf");
                    map.insert("allOf".into(), Value::Array(kept));
                }
            }
            if map.get("format").and_then(Value::as_str) == Some("int64") {
                map.remove("format");
            }
            match map.get_mut("default") {
                Some(Value::Null) => {
                    map.remove("default");
                }
                Some(Value::Object(fields)) => fields.retain(|_, f| !f.is_null()),
                _ => {}
            }
            map.values_mut().for_each(for_toml);
        }
        Value::Array(items) => items.iter_mut().for_each(for_toml),
        _ => {}
    }
}

/// [`json_schema`] as the text of `schemas/regions.schema.json`: pretty-printed, with a final
/// newline.
pub fn json_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&json_schema()).expect("a JSON value prints");
    text.push('\n');
    text
}

/// The first line of the reference page; `warren schema --out` recognises a file it wrote by it.
pub const GENERATED_MARK: &str = "<!-- generated from the region schema by `warren schema --markdown --out docs/region-reference.md`; do not edit -->";

/// The modder's reference (Markdown): one section per table a region file may hold, one row per
/// key with its type, default, range and meaning.
pub fn markdown() -> String {
    let schema = json_schema();
    let defs = schema
        .get("definitions")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut out = String::new();
    let _ = writeln!(out, "{GENERATED_MARK}\n");
    out.push_str("# Region-file reference\n\n");
    out.push_str(
        "Every key a region file may hold, generated from the schema that loading checks, so it \
         cannot drift from what warren accepts. How region files work, with examples, is in \
         [regions.md](regions.md); the messages mistakes get, in [errors.md](errors.md).\n\n\
         Each table lists a section's keys: *required* keys must be given, the others may be \
         left out and take their default. A range `a..=b` includes both ends. An unknown key is \
         an error. Terrain names must name a `[[terrain]]` of some file of the same directory; \
         some rules tie one key to another (a minimum at most its maximum), and each is stated \
         with its key.\n\n\
         Editors that read JSON Schemas for TOML (Taplo, VS Code's *Even Better TOML*) complete \
         and check these keys as you type: see [editor.md](editor.md#region-files).\n\n",
    );
    let Some(root) = schema.get("properties").and_then(Value::as_object) else {
        return out;
    };
    out.push_str("## Sections\n\n");
    for (name, prop) in root {
        let (header, _) = section_header(name, prop);
        let _ = writeln!(
            out,
            "- [`{header}`](#{}) — {}",
            anchor(&header),
            first_sentence(&description(prop, &defs))
        );
    }
    out.push('\n');
    for (name, prop) in root {
        section(&mut out, name, prop, &defs);
    }
    out
}

/// `[name]` or `[[name]]`, and the definition the section's entries follow.
fn section_header(name: &str, prop: &Value) -> (String, Option<String>) {
    let list = prop.get("type").and_then(Value::as_str) == Some("array");
    let target = if list { prop.get("items") } else { Some(prop) };
    let def = target.and_then(reference);
    let header = if list {
        format!("[[{name}]]")
    } else {
        format!("[{name}]")
    };
    (header, def)
}

/// The anchor a heading `` `text` `` gets.
fn anchor(header: &str) -> String {
    header
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
        .collect()
}

/// The name of the definition `v` refers to (`"$ref": "#/definitions/Name"`), directly or as
/// the non-null branch of an optional value.
fn reference(v: &Value) -> Option<String> {
    if let Some(r) = v.get("$ref").and_then(Value::as_str) {
        return r.rsplit('/').next().map(str::to_string);
    }
    let branches = v
        .get("allOf")
        .or_else(|| v.get("anyOf"))
        .or_else(|| v.get("oneOf"))?
        .as_array()?;
    branches.iter().find_map(reference)
}

/// A value's description, or its definition's.
fn description(v: &Value, defs: &Map<String, Value>) -> String {
    if let Some(d) = v.get("description").and_then(Value::as_str) {
        return d.to_string();
    }
    let target = match v.get("items") {
        Some(items) => items,
        None => v,
    };
    reference(target)
        .and_then(|r| defs.get(&r))
        .and_then(|d| d.get("description"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// A definition's description without the section name it starts with (`` `[cave]` — ``),
/// starting with a capital.
fn without_name(text: &str) -> String {
    let text = text.trim();
    let text = match text.split_once(" — ") {
        Some((head, rest)) if head.starts_with('`') && !head.contains(' ') => rest,
        _ => text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The first sentence of a description.
fn first_sentence(text: &str) -> String {
    let text = without_name(text);
    let one_line = text.lines().next().unwrap_or_default();
    let paragraph: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let paragraph = if paragraph.is_empty() {
        one_line.to_string()
    } else {
        paragraph.join(" ")
    };
    match paragraph.find(". ") {
        Some(i) => paragraph[..=i].to_string(),
        None => paragraph,
    }
}

/// One section: its heading, its description, a table of its keys, then its nested tables.
fn section(out: &mut String, name: &str, prop: &Value, defs: &Map<String, Value>) {
    let (header, def) = section_header(name, prop);
    let _ = writeln!(out, "## `{header}`\n");
    let Some(def) = def.and_then(|d| defs.get(&d)) else {
        let _ = writeln!(out, "{}\n", description(prop, defs));
        return;
    };
    let text = def
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let _ = writeln!(out, "{}\n", without_name(text));
    keys(out, name, def, defs);
    // Tables nested in this one (`[door.weights]`, `[corridor.constants]`, `[town.debug]`).
    if let Some(props) = def.get("properties").and_then(Value::as_object) {
        for (key, v) in props {
            if let Some(inner) = reference(v).and_then(|r| defs.get(&r)) {
                if inner.get("properties").is_some() {
                    let _ = writeln!(out, "### `[{name}.{key}]`\n");
                    let _ = writeln!(out, "{}\n", without_name(&description(inner, defs)));
                    keys(out, &format!("{name}.{key}"), inner, defs);
                }
            }
        }
    }
}

/// The table of a definition's keys; `section` is the section's name (`corridor`), to link
/// the tables nested in it.
fn keys(out: &mut String, section: &str, def: &Value, defs: &Map<String, Value>) {
    let Some(props) = def.get("properties").and_then(Value::as_object) else {
        return;
    };
    let required: Vec<&str> = def
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    out.push_str("| key | type | default | range | meaning |\n|---|---|---|---|---|\n");
    for (key, v) in props {
        let nested = reference(v)
            .and_then(|r| defs.get(&r))
            .is_some_and(|d| d.get("properties").is_some());
        let default = if required.contains(&key.as_str()) {
            "required".to_string()
        } else {
            match v.get("default") {
                Some(_) if nested => "see below".to_string(),
                None => "—".to_string(),
                Some(d) => format!("`{}`", toml_value(d)),
            }
        };
        let ty = if nested {
            let name = format!("[{section}.{key}]");
            format!("table [`{name}`](#{})", anchor(&name))
        } else {
            type_name(v, defs)
        };
        let _ = writeln!(
            out,
            "| `{key}` | {ty} | {default} | {} | {} |",
            range(v),
            cell(&description(v, defs))
        );
    }
    out.push('\n');
}

/// A JSON value written as it would be in a TOML file.
fn toml_value(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Number(n)
            if n.as_f64()
                .is_some_and(|f| f.fract() == 0.0 && f.abs() < 1e15) =>
        {
            format!("{}", n.as_f64().unwrap_or_default() as i64)
        }
        Value::Array(items) if items.is_empty() => "[]".to_string(),
        other => other.to_string(),
    }
}

/// Text fit for one table cell.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// The type of a value in words.
fn type_name(v: &Value, defs: &Map<String, Value>) -> String {
    if let Some(choices) = v.get("enum").and_then(Value::as_array) {
        let names: Vec<String> = choices
            .iter()
            .map(|c| format!("`{}`", toml_value(c)))
            .collect();
        return format!("one of {}", names.join(", "));
    }
    let types: Vec<&str> = match v.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if let Some(r) = reference(v) {
        if defs.get(&r).and_then(|d| d.get("properties")).is_some() {
            return "table".to_string();
        }
        return defs
            .get(&r)
            .map(|d| type_name(d, defs))
            .unwrap_or_else(|| "table".to_string());
    }
    let words: Vec<&str> = types
        .iter()
        .filter(|t| **t != "null")
        .map(|t| match *t {
            "integer" => "integer",
            "number" => "number",
            "string" if v.get("maxLength") == Some(&Value::from(1)) => "one character",
            "string" => "text",
            "boolean" => "`true` or `false`",
            "array" => "list",
            "object" if v.get("additionalProperties").is_some_and(Value::is_object) => {
                "table of text"
            }
            "object" => "table",
            other => other,
        })
        .collect();
    words.join(" or ")
}

/// A value's range (`0..=100`, `≥ 0`), its pattern, or `—`.
fn range(v: &Value) -> String {
    let num = |k: &str| v.get(k).map(|n| n.to_string());
    match (num("minimum"), num("maximum")) {
        (Some(lo), Some(hi)) => format!("{lo}..={hi}"),
        (Some(lo), None) => format!("≥ {lo}"),
        (None, Some(hi)) => format!("≤ {hi}"),
        (None, None) => match v.get("pattern").and_then(Value::as_str) {
            Some("^#[0-9a-fA-F]{6}$") => "`\"#rrggbb\"`".to_string(),
            Some(p) => format!("matches `{p}`"),
            None => "—".to_string(),
        },
    }
}
