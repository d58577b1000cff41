//! `ctx.regions` built on the Lua stack: the same tables as mlua's serializer and a freeze
//! built, read-only where they were built, and the ids of later objects as a copy left them
//! (`stack_ser.rs`).

use mlua::{Function, Lua, LuaSerdeExt, Table};
use serde::Serialize;
use std::collections::BTreeMap;
use warren_lua::stack_ser::frozen;

#[derive(Serialize)]
enum Shape {
    Unit,
    Newtype(u8),
    Tuple(i32, Option<&'static str>),
    Struct { w: f32, h: Option<u16> },
}

/// More unit variants than the builder keeps names for (64 slots): names that share a slot, and
/// names of one length, must each still be pushed as themselves.
#[derive(Serialize, Clone, Copy)]
#[rustfmt::skip]
enum Many {
    N0, N1, N2, N3, N4, N5, N6, N7, N8, N9, N10, N11, N12, N13, N14, N15,
    N16, N17, N18, N19, N20, N21, N22, N23, N24, N25, N26, N27, N28, N29, N30, N31,
    N32, N33, N34, N35, N36, N37, N38, N39, N40, N41, N42, N43, N44, N45, N46, N47,
    N48, N49, N50, N51, N52, N53, N54, N55, N56, N57, N58, N59, N60, N61, N62, N63,
    N64, N65, N66, N67, N68, N69, N70, N71, N72, N73, N74, N75, N76, N77, N78, N79,
}

#[derive(Serialize)]
struct Inner {
    name: String,
    weight: f64,
    tags: Vec<Option<&'static str>>,
}

#[derive(Serialize)]
struct Data {
    small: i8,
    big: u64,
    huge: u128,
    letter: char,
    flag: bool,
    nothing: Option<i64>,
    unit: (),
    pair: (i64, &'static str),
    shapes: Vec<Shape>,
    by_name: BTreeMap<String, Inner>,
    items: Vec<Inner>,
    many: Vec<Many>,
}

/// Every [`Many`], in order.
#[rustfmt::skip]
const MANY: [Many; 80] = [
    Many::N0, Many::N1, Many::N2, Many::N3, Many::N4, Many::N5, Many::N6, Many::N7,
    Many::N8, Many::N9, Many::N10, Many::N11, Many::N12, Many::N13, Many::N14, Many::N15,
    Many::N16, Many::N17, Many::N18, Many::N19, Many::N20, Many::N21, Many::N22, Many::N23,
    Many::N24, Many::N25, Many::N26, Many::N27, Many::N28, Many::N29, Many::N30, Many::N31,
    Many::N32, Many::N33, Many::N34, Many::N35, Many::N36, Many::N37, Many::N38, Many::N39,
    Many::N40, Many::N41, Many::N42, Many::N43, Many::N44, Many::N45, Many::N46, Many::N47,
    Many::N48, Many::N49, Many::N50, Many::N51, Many::N52, Many::N53, Many::N54, Many::N55,
    Many::N56, Many::N57, Many::N58, Many::N59, Many::N60, Many::N61, Many::N62, Many::N63,
    Many::N64, Many::N65, Many::N66, Many::N67, Many::N68, Many::N69, Many::N70, Many::N71,
    Many::N72, Many::N73, Many::N74, Many::N75, Many::N76, Many::N77, Many::N78, Many::N79,
];

fn data() -> Data {
    let inner = |i: usize| Inner {
        name: format!("entry {i}"),
        weight: i as f64 / 3.0,
        tags: vec![Some("a"), None, Some("c")],
    };
    Data {
        small: -3,
        big: u64::MAX,
        huge: 7,
        letter: 'é',
        flag: true,
        nothing: None,
        unit: (),
        pair: (4, "four"),
        shapes: vec![
            Shape::Unit,
            Shape::Newtype(9),
            Shape::Tuple(-1, None),
            Shape::Struct { w: 0.5, h: None },
        ],
        by_name: (0..20).map(|i| (format!("k{i}"), inner(i))).collect(),
        items: (0..12).map(inner).collect(),
        many: [MANY, MANY].concat(),
    }
}

/// Every key path with its value's type and each leaf's value, one line each, sorted: what a
/// recipe could read of the tables.
const DUMP: &str = r#"
    local t = ...
    local out = {}
    local function walk(v, path)
      if type(v) == "table" then
        out[#out + 1] = path .. " table"
        for k, x in pairs(v) do walk(x, path .. "." .. tostring(k)) end
      else
        out[#out + 1] = path .. " = " .. (math.type(v) or type(v)) .. " " .. tostring(v)
      end
    end
    walk(t, "")
    table.sort(out)
    return table.concat(out, "\n")
"#;

/// The id the state at `lua` gives its next object (a table's `tostring`).
fn next_id(lua: &Lua) -> String {
    lua.load("return tostring({})").eval().expect("a table")
}

#[test]
fn the_tables_are_what_mlua_serde_and_a_freeze_made_and_later_ids_stay() {
    // mlua's serializer, then the host's freeze: how ctx.regions was built before.
    let before = Lua::new();
    let options = mlua::SerializeOptions::new()
        .serialize_none_to_null(false)
        .serialize_unit_to_null(false)
        .set_array_metatable(false);
    // SAFETY: a C function for this crate's patched Lua.
    let freeze: Function =
        unsafe { before.create_c_function(warren_lua::readonly::freeze) }.expect("freeze");
    let value = before.to_value_with(&data(), options).expect("serializes");
    let old: Table = freeze.call((value, "ctx.regions")).expect("freezes");
    let old_next = next_id(&before);
    let old: String = before.load(DUMP).call(old).expect("dumps");

    let after = Lua::new();
    let new = frozen(&after, &data(), "ctx.regions").expect("builds");
    // The tables are sealed where they were built, not copied: the objects made after them
    // still get the ids they got after a copy.
    assert_eq!(next_id(&after), old_next);
    let refused: bool = after
        .load(
            "local t = ... return not pcall(function() t.items[1].name = 'x' end) \
             and not pcall(function() t.by_name.k3.tags[2] = 'b' end) \
             and not pcall(function() rawset(t, 'new', 1) end)",
        )
        .call(&new)
        .expect("runs");
    assert!(refused, "every table is read-only");
    let message: String = after
        .load(
            "local t = ... local _, e = pcall(function() t.by_name.k3.tags[2] = 'b' end) return e",
        )
        .call(&new)
        .expect("runs");
    assert!(
        message.contains("cannot modify read-only table 'ctx.regions.by_name.k3.tags' (key 2)"),
        "{message}"
    );
    let new: String = after.load(DUMP).call(new).expect("dumps");
    assert_eq!(new, old);
    assert!(new.contains(".big = float"), "{new}");
    assert!(new.contains(".shapes.4.Struct.w = float 0.5"), "{new}");
}

#[test]
fn the_sealed_tables_share_a_metatable_and_a_view_can_have_its_own() {
    let lua = Lua::new();
    let root = frozen(&lua, &data(), "ctx.regions").expect("builds");
    let items: Table = root.get("items").expect("items");
    let (first, second): (Table, Table) = (items.get(1).expect("1"), items.get(2).expect("2"));
    let metatable = |t: &Table| t.metatable().expect("sealed").to_pointer();
    assert_eq!(metatable(&first), metatable(&root));
    let made =
        warren_lua::readonly::own_metatable(&lua, &first, "__kept", 7, 1 << 35).expect("made");
    assert!(made, "a sealed table has a metatable");
    let own = first.metatable().expect("its own");
    assert_eq!(own.raw_get::<i64>("__kept").expect("the value it keeps"), 7);
    assert_ne!(own.to_pointer(), metatable(&root));
    assert_eq!(metatable(&second), metatable(&root));
    // Still read-only, hidden and named by its path; the others as before.
    let refused = |code: &str| -> String {
        lua.load(format!(
            "local t = ... local _, e = pcall(function() {code} end) return e"
        ))
        .call(&root)
        .expect("runs")
    };
    assert!(refused("t.items[1].name = 'x'").ends_with("'ctx.regions.items.1' (key name)"));
    assert!(
        refused("rawset(t.items[2], 'name', 'x')").ends_with("'ctx.regions.items.2' (key name)")
    );
    assert!(refused("t.items[1].tags[4] = 'd'").ends_with("'ctx.regions.items.1.tags' (key 4)"));
    assert!(refused("t.huge = 1").ends_with("'ctx.regions' (key huge)"));
    let hidden: bool = lua
        .load("local t = ... return getmetatable(t.items[1]) == false and getmetatable(t) == false")
        .call(&root)
        .expect("runs");
    assert!(hidden);
    let plain = lua.create_table().expect("a table");
    let made = warren_lua::readonly::own_metatable(&lua, &plain, "__kept", 7, 1 << 35);
    assert!(
        !made.expect("nothing to do"),
        "a table with no metatable is left alone"
    );
}

/// A value that is not a table (a number, a string, a unit variant, nothing) has room on the
/// stack above the names' slots: no Lua API check fails (debug builds check every push), and
/// `frozen`, which hands back tables, refuses it as a conversion error.
#[test]
fn a_root_that_is_not_a_table_is_refused_cleanly() {
    let lua = Lua::new();
    assert!(frozen(&lua, &7u8, "x").is_err());
    assert!(frozen(&lua, &"text", "x").is_err());
    assert!(frozen(&lua, &Shape::Unit, "x").is_err());
    assert!(frozen(&lua, &None::<i64>, "x").is_err());
    assert!(frozen(&lua, &data(), "x").is_ok());
}
