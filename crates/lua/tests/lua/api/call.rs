//! Options read by a binding: a string option outlives its removal from the table; suggestions
//! (`api/call.rs`).

use mlua::Value;
use warren_lua::api::call::{did_you_mean, Call, Extra};
use warren_lua::api::decl::{arg, key, key_opt, Class, Decl, Owner, Ty};

const PROBE_OPTIONS: Class = Class {
    name: "warren.ProbeOptions",
    parent: None,
    doc: "A test's options.",
    fields: &[
        key("name", Ty::Str, "A string read after `meanwhile` ran."),
        key_opt(
            "meanwhile",
            Ty::Function,
            "Lua code run while the options are held.",
        ),
    ],
};
const PROBE: Decl = Decl::function(Owner::Warren, "probe", "A test binding.")
    .args(&[arg("opts", Ty::Table(&PROBE_OPTIONS))]);

/// A string option stays readable after Lua code run by the binding drops it from the
/// table and the collector runs (as it may in any allocation): the options keep the string
/// itself on the call's stack.
#[test]
fn a_string_option_outlives_its_removal_from_the_table() {
    let (lua, _) = warren_lua::sandbox::new_state(
        vec![],
        std::default::Default::default(),
        warren_lua::api::install,
    )
    .unwrap();
    let probe = lua
        .create_function(|lua, (opts, extra): (Value, Extra)| {
            let c = Call::new(lua, &PROBE, &extra)?;
            let o = c.options(0, &opts)?;
            if let Value::Function(f) = o.value("meanwhile") {
                f.call::<()>(())?;
            }
            lua.gc_collect()?;
            lua.gc_collect()?;
            lua.load(r##"for i = 1, 500 do junk[i] = string.rep("#", 201) .. i end"##)
                .exec()?;
            Ok(o.text("name")?.to_string())
        })
        .unwrap();
    let globals = lua.globals();
    globals.raw_set("probe", probe).unwrap();
    globals
        .raw_set("junk", lua.create_table().unwrap())
        .unwrap();
    let (name, read): (String, String) = lua
        .load(
            r#"
            local opts = { name = string.rep("long name ", 20) .. tostring(#junk + 1) }
            opts.meanwhile = function() opts.name = nil end
            local read = probe(opts)
            return string.rep("long name ", 20) .. "1", read
            "#,
        )
        .eval()
        .unwrap();
    assert_eq!(read, name);
}

#[test]
fn suggestions_find_close_names_only() {
    assert_eq!(
        did_you_mean("atempts", &["attempts", "min_size"]),
        " (did you mean 'attempts'?)"
    );
    assert_eq!(did_you_mean("zzz", &["attempts", "min_size"]), "");
}
