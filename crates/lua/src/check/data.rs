//! Names a recipe reads from its run's data: `ctx.params.<name>` against the parameters the
//! recipe declares, and `ctx.regions.<section>.<key>` against the sections and keys the
//! region files give it — however the table is reached (`local style = ctx.regions.rooms;
//! style.flor`).

use super::known::Known;
use super::value::Val;
use crate::api::call::did_you_mean;
use serde_json::Value;

/// The problem with reading parameter `name`, if any.
pub fn param(known: &Known, name: &str) -> Option<String> {
    let params = known.params.as_ref()?;
    if params.contains(name) {
        return None;
    }
    let list: Vec<&str> = params.iter().map(String::as_str).collect();
    Some(format!(
        "ctx.params.{name}: the recipe declares no parameter '{name}'{} (declared: {})",
        did_you_mean(name, &list),
        list.join(", ")
    ))
}

/// Reading section `name` of `ctx.regions`: the problem, if any, and what it holds.
pub fn section(known: &Known, name: &str) -> (Option<String>, Val) {
    let Some(Value::Object(regions)) = &known.regions else {
        return (None, Val::Unknown);
    };
    match regions.get(name) {
        None => {
            let list: Vec<&str> = regions.keys().map(String::as_str).collect();
            let message = format!(
                "ctx.regions.{name}: no such region section{} (sections: {})",
                did_you_mean(name, &list),
                list.join(", ")
            );
            (Some(message), Val::Unknown)
        }
        Some(Value::Null) => {
            let message = format!("ctx.regions.{name}: no region file declares [{name}]");
            (Some(message), Val::Unknown)
        }
        Some(Value::Object(_)) => (None, Val::Region(name.to_string())),
        Some(other) => (None, of_json(other)),
    }
}

/// Reading `key` of section `section`: the problem, if any, and what it holds.
pub fn key(known: &Known, section: &str, key: &str) -> (Option<String>, Val) {
    let Some(Value::Object(keys)) = known.regions.as_ref().and_then(|r| r.get(section)) else {
        return (None, Val::Unknown);
    };
    match keys.get(key) {
        Some(v) => (None, of_json(v)),
        None => {
            let list: Vec<&str> = keys.keys().map(String::as_str).collect();
            let message = format!(
                "ctx.regions.{section}.{key}: [{section}] has no key '{key}'{} (keys: {})",
                did_you_mean(key, &list),
                list.join(", ")
            );
            (Some(message), Val::Unknown)
        }
    }
}

/// What a region value is, without its value: region data is validated where it is read.
fn of_json(v: &Value) -> Val {
    match v {
        Value::String(_) => Val::Str(None),
        Value::Number(_) => Val::Num(None),
        Value::Bool(_) => Val::Bool(None),
        Value::Array(_) | Value::Object(_) => Val::Table,
        Value::Null => Val::Unknown,
    }
}
