//! The declared API and the runtime agree: every declared binding, called with an argument of
//! the wrong type, missing, with too many arguments, or on the wrong receiver, fails with one
//! message at the recipe's `file:line` that names the call and the argument, and never a Rust
//! type or an mlua internal.

use crate::common::{registry, temp_tree};
use warren_core::map::Map;
use warren_lua::api::decl::{Arg, Decl, Kind, Owner, Ty};
use warren_lua::{Host, Limits, Run};

/// A level on the test's map (which it makes 16×16).
const LEVEL: &str =
    "warren.dungeon.init_level(map, { width = 16, height = 16, panel_width = 8, panel_height = 8 })";

/// An expression for a value the method can be called on.
fn receiver(owner: Owner) -> Option<&'static str> {
    Some(match owner {
        Owner::Map => "map",
        Owner::Rng => "ctx.rng",
        Owner::Rect => "warren.rect(1, 1, 2, 2)",
        Owner::Rects => {
            "warren.gen.scatter_rooms(map, ctx.rng, { attempts = 5, min_size = 2, max_size = 2 })"
        }
        Owner::StatusLists => "warren.status_lists { cells = 4, statuses = { 'a', 'b' } }",
        Owner::Ctx => "ctx",
        Owner::Warren => "warren",
        Owner::Gen => "warren.gen",
        Owner::Tunnel => "warren.tunnel",
        Owner::Dungeon => "warren.dungeon",
        Owner::Town => "warren.town",
        Owner::Tunnels => "warren.tunnel.new(map)",
        Owner::Level => LEVEL,
        Owner::TownMap => "warren.town.new()",
        Owner::Toolbox => "warren.toolbox",
        Owner::Field => "warren.toolbox.field(map)",
    })
}

/// A value of a type the argument does not accept, or `None` when any value is accepted.
fn wrong(ty: &Ty) -> Option<&'static str> {
    Some(match ty {
        Ty::Any => return None,
        Ty::Int { .. } | Ty::Num { .. } | Ty::Bool | Ty::Priority => "{}",
        Ty::Str | Ty::Choice(_) | Ty::Terrain => "{}",
        _ => "42",
    })
}

/// A value argument `a` accepts (the level above is `ctx.above`, a map of its own).
fn good_arg(a: &Arg) -> String {
    match (a.name, a.ty) {
        ("above", Ty::Map) => "ctx.above".into(),
        _ => good(&a.ty),
    }
}

/// A value of type `ty`.
fn good(ty: &Ty) -> String {
    match ty {
        Ty::Table(class) => {
            let fields: Vec<String> = class
                .all_fields()
                .iter()
                .filter(|f| f.required)
                .map(|f| format!("{} = {}", f.key, good(&f.ty)))
                .collect();
            format!("{{ {} }}", fields.join(", "))
        }
        Ty::TableList(class) => format!("{{ {} }}", good(&Ty::Table(class))),
        Ty::Choice(names) => format!("'{}'", names[0]),
        Ty::Int { min, .. } if *min > 1 => min.to_string(),
        Ty::Object(owner) => receiver(*owner).unwrap_or("nil").to_string(),
        other => good_plain(other).to_string(),
    }
}

/// A value of a type without fields that the argument accepts.
fn good_plain(ty: &Ty) -> &'static str {
    match ty {
        Ty::Int { .. } => "1",
        Ty::Num { .. } => "1.5",
        Ty::Bool => "true",
        Ty::Str => "'a'",
        Ty::Terrain => "'floor'",
        Ty::Priority => "70",
        Ty::Map => "map",
        Ty::Rng => "ctx.rng",
        Ty::Rect | Ty::Table(_) | Ty::TableList(_) | Ty::AnyTable | Ty::Choice(_) => {
            "{ x = 1, y = 1, w = 2, h = 2 }"
        }
        Ty::Rects => "{ { x = 1, y = 1, w = 2, h = 2 } }",
        Ty::Cell => "{ x = 1, y = 1 }",
        Ty::Cells | Ty::List => "{ { x = 1, y = 1 } }",
        Ty::Strings => "{ 'a' }",
        Ty::Object(_) => "nil",
        Ty::Function => "print",
        Ty::Any => "1",
    }
}

/// Runs `body` (one statement, on line 3 of the recipe) and returns the error.
fn error_of(body: &str) -> String {
    let dir = temp_tree(&[(
        "scripts/t.lua",
        &format!(
            "return {{ params = {{ width = {{ default = 8 }}, height = {{ default = 8 }} }},\n\
             generate = function(map, ctx)\n{body}\nend }}"
        ),
    )]);
    let registry = registry();
    let above = Map::new(8, 8, registry.map_fill, registry.terrains().clone()).unwrap();
    let host = Host::load(
        &dir.path().join("scripts/t.lua"),
        registry,
        Limits::default(),
    )
    .expect("the recipe loads");
    let params = host.resolve_params(&[]).unwrap();
    match host.generate(&Run {
        seed: 1,
        params: &params,
        depth: 2,
        above: Some(&above),
    }) {
        Ok(_) => panic!("`{body}` did not fail"),
        Err(e) => e.to_string(),
    }
}

/// The call of `d` on its receiver with `args`.
fn call(d: &Decl, args: &[String]) -> Option<String> {
    let recv = receiver(d.owner)?;
    let sep = if d.kind == Kind::Method { ":" } else { "." };
    Some(format!(
        "local _ = ({recv}){sep}{}({})",
        d.name,
        args.join(", ")
    ))
}

/// The message must be located at line 3, name the call and mention no Rust internals.
fn assert_clean(d: &Decl, body: &str, e: &str, wanted: &str) {
    assert!(
        e.contains("t.lua:3: "),
        "{body}: not located at the recipe line: {e}"
    );
    assert!(
        e.contains(&d.call_name()),
        "{body}: does not name {}: {e}",
        d.call_name()
    );
    assert!(e.contains(wanted), "{body}: expected '{wanted}' in: {e}");
    // The message after the location: the temporary directory's random name may spell "Lua".
    let message = e.split_once("t.lua:3: ").map_or(e, |(_, m)| m);
    for internal in ["Lua", "mlua", "userdata", "bad argument `", "FromLua", "::"] {
        assert!(
            !message.contains(internal),
            "{body}: Rust internals ({internal}) in: {e}"
        );
    }
}

fn callable() -> impl Iterator<Item = &'static Decl> {
    warren_lua::api::decls()
        .into_iter()
        .filter(|d| d.kind != Kind::Field)
}

#[test]
fn every_binding_names_a_wrong_argument_at_the_recipe_line() {
    let mut checked = 0;
    for d in callable() {
        for (i, a) in d.args.iter().enumerate() {
            let Some(bad) = wrong(&a.ty) else { continue };
            let args: Vec<String> = d
                .args
                .iter()
                .enumerate()
                .map(|(j, b)| if j == i { bad.to_string() } else { good_arg(b) })
                .collect();
            let Some(body) = call(d, &args) else { continue };
            let e = error_of(&body);
            assert_clean(d, &body, &e, &format!("argument {} ({})", i + 1, a.name));
            checked += 1;
        }
    }
    assert!(checked > 150, "only {checked} argument cases were checked");
}

#[test]
fn every_binding_names_a_missing_argument_and_refuses_extra_ones() {
    for d in callable() {
        let min = d.min_args();
        if min > 0 {
            let args: Vec<String> = d.args[..min - 1].iter().map(good_arg).collect();
            let body = call(d, &args).unwrap();
            let missing = &d.args[min - 1];
            if !matches!(missing.ty, Ty::Any) {
                let e = error_of(&body);
                assert_clean(d, &body, &e, &format!("argument {min} ({})", missing.name));
            }
        }
        if let Some(max) = d.max_args() {
            let mut args: Vec<String> = d.args.iter().map(good_arg).collect();
            args.resize(max + 1, "1".into());
            let body = call(d, &args).unwrap();
            let e = error_of(&body);
            assert_clean(d, &body, &e, "takes at most");
        }
    }
}

#[test]
fn every_method_called_on_the_wrong_receiver_says_how_to_call_it() {
    for d in callable().filter(|d| d.kind == Kind::Method) {
        let recv = receiver(d.owner).unwrap();
        // `.` instead of `:` passes the first argument as the receiver.
        let mut args = vec!["42".to_string()];
        args.extend(d.args.iter().map(good_arg));
        let body = format!("local _ = ({recv}).{}({})", d.name, args.join(", "));
        let e = error_of(&body);
        assert_clean(d, &body, &e, "call it with a colon");
    }
}

#[test]
fn every_method_of_a_warren_object_is_behind_a_gate_or_a_fast_call() {
    // Gates and fast closures are numbered from 2^39 (`lua_warren_setidbase`), below the ids
    // of loading's warm-up (2^39 + 2^32); mlua's own functions never are.
    let warren_range = (1u64 << 39)..(1u64 << 39) + (1u64 << 32);
    let mut checked = 0;
    for d in callable().filter(|d| d.kind == Kind::Method && d.owner != Owner::Rect) {
        let recv = receiver(d.owner).unwrap();
        let body = format!("error(tostring(({recv}).{}), 0)", d.name);
        let e = error_of(&body);
        let id = e
            .split_once("function: 0x")
            .map(|(_, rest)| rest.split(|c: char| !c.is_ascii_hexdigit()).next())
            .and_then(|hex| u64::from_str_radix(hex.unwrap_or(""), 16).ok())
            .unwrap_or_else(|| panic!("{body}: no function id in: {e}"));
        assert!(
            warren_range.contains(&id),
            "{body}: {} is mlua's own function (id {id:#x}), not behind a gate",
            d.call_name()
        );
        checked += 1;
    }
    assert!(checked > 60, "only {checked} methods were checked");
}
