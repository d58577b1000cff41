//! Frozen and read-only tables: iteration order, refused writes with their paths (`readonly.rs`).

use mlua::{Function, Lua};

/// A state with the host's two functions as globals `freeze` and `readonly`.
fn state() -> Lua {
    let lua = Lua::new();
    // SAFETY: C functions for this crate's patched Lua.
    let (freeze, readonly): (Function, Function) = unsafe {
        (
            lua.create_c_function(warren_lua::readonly::freeze)
                .expect("freeze"),
            lua.create_c_function(warren_lua::readonly::readonly)
                .expect("readonly"),
        )
    };
    lua.globals().set("freeze", freeze).expect("global");
    lua.globals().set("readonly", readonly).expect("global");
    lua
}

#[test]
fn a_frozen_copy_iterates_in_the_order_of_a_copy_made_in_lua() {
    let chunk = r#"
      local src = { nested = { a = { b = { c = 1 } } } }
      for i = 1, 40 do src["k" .. i] = i; src[i * 3] = { i, x = i, [i * 7] = true } end
      local function copy(v)
        if type(v) ~= "table" then return v end
        local c = {}
        for k, x in next, v do c[k] = copy(x) end
        return c
      end
      local function order(t, out, path)
        for k, v in pairs(t) do
          out[#out + 1] = path .. tostring(k)
          if type(v) == "table" then order(v, out, path .. tostring(k) .. ".") end
        end
        return out
      end
      return table.concat(order(freeze(src, "src"), {}, ""), " "),
        table.concat(order(copy(src), {}, ""), " ")
    "#;
    let (frozen, copied): (String, String) = state().load(chunk).eval().expect("runs");
    assert_eq!(frozen, copied);
}

#[test]
fn every_write_to_a_frozen_table_is_refused_with_its_path() {
    let lua = state();
    let refused = |code: &str| -> String {
        let chunk = format!(
            "local t = freeze({{ a = {{ b = {{ 1, 2 }} }}, n = 1 }}, 'ctx.regions') \
             local ok, e = pcall(function() {code} end) return tostring(ok) .. ' ' .. e"
        );
        lua.load(chunk).set_name("=t.lua").eval().expect("runs")
    };
    assert_eq!(
        refused("t.a.b[3] = 3"),
        "false t.lua:1: cannot modify read-only table 'ctx.regions.a.b' (key 3)"
    );
    assert_eq!(
        refused("rawset(t, 'n', 2)"),
        "false cannot modify read-only table 'ctx.regions' (key n)"
    );
    assert!(refused("t.a.x = nil").ends_with("read-only table 'ctx.regions.a' (key x)"));
    assert!(refused("table.insert(t.a.b, 9)").contains("'ctx.regions.a.b' (key 3)"));
    assert!(refused("setmetatable(t, {})").contains("cannot change a protected metatable"));
}

#[test]
fn readonly_seals_the_table_itself_and_freeze_passes_other_values_through() {
    let chunk = r#"
      local t = { 1 }
      local same = readonly(t, "coroutine") == t
      local ok, e = pcall(function() t[2] = 2 end)
      return same, ok, e:match("read%-only table 'coroutine' %(key 2%)") ~= nil,
        freeze(7, "x"), freeze("s", "x")
    "#;
    let got: (bool, bool, bool, i64, String) = state().load(chunk).eval().expect("runs");
    assert_eq!(got, (true, false, true, 7, "s".to_string()));
}

#[test]
fn a_table_that_contains_itself_is_an_error_not_a_crash() {
    let chunk = "local t = {} t.self = t return pcall(freeze, t, 't')";
    let (ok, e): (bool, String) = state().load(chunk).eval().expect("runs");
    assert!(!ok);
    assert!(e.contains("nested too deep"), "{e}");
}
