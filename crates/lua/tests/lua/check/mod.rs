//! The static checks, rule by rule, on small sources; no false positives on library-style code
//! and on every shipped recipe and module; every declaration walked.

/// The run's data: parameters, region sections and keys (`check/data.rs`).
mod data;
/// Globals and library members against the sandbox's surface (`check/names.rs`).
mod names;
/// Nesting beyond Lua's limits is refused, long chains within them walked (`check/program.rs`).
mod program;
/// Literals decoded and positions counted as Lua does (`check/syntax.rs`).
mod syntax;
/// The analysis's values: declared types and joins (`check/value.rs`).
mod value;

use std::path::Path;
use warren_lua::api::decl::{Decl, Kind, Owner};
use warren_lua::check::declared::Declared;
use warren_lua::check::finding::Severity;
use warren_lua::check::known::Known;
use warren_lua::check::program::{analyse, Outcome, Source};
use warren_lua::check::stock;
use warren_lua::surface;

fn known() -> Known {
    Known {
        terrains: Some(["rock".into(), "floor".into()].into()),
        regions: Some(serde_json::json!({
            "rooms": { "floor": "floor", "wall": "rock", "corridor": "floor" },
            "cave": null,
            "spawn": [],
        })),
        params: Some(["width".into(), "height".into()].into()),
    }
}

/// Every finding in `files` (checked together, the first as the recipe), as
/// `file:line:col: message` (`warning: ` or `note: ` before a warning's or a note's message).
fn run_with(files: &[(&str, &str)], declared: &Declared) -> Vec<String> {
    let sources: Vec<Source> = files
        .iter()
        .enumerate()
        .map(|(i, (path, text))| Source {
            path: path.into(),
            text: text.to_string(),
            known: Known {
                params: if i == 0 { known().params } else { None },
                ..known()
            },
        })
        .collect();
    let mut out = Vec::new();
    for (source, outcome) in sources.iter().zip(analyse(&sources, declared)) {
        match outcome {
            Outcome::Checked(findings) => out.extend(findings.into_iter().map(|f| {
                format!(
                    "{}:{}:{}: {}{}",
                    source.path.display(),
                    f.at.line,
                    f.at.col,
                    match f.severity {
                        Severity::Error => "",
                        Severity::Warning => "warning: ",
                        Severity::Note => "note: ",
                    },
                    f.message
                )
            })),
            other => panic!("{}: {other:?}", source.path.display()),
        }
    }
    out
}

fn run(files: &[(&str, &str)]) -> Vec<String> {
    run_with(files, &Declared::new())
}

/// The findings of one recipe source, as `line:col: message`.
fn found(src: &str) -> Vec<String> {
    run(&[("r.lua", src)])
        .into_iter()
        .map(|f| f.trim_start_matches("r.lua:").to_string())
        .collect()
}

/// Asserts that `src` gives exactly one finding per `(line:col, text)`, each containing the
/// text.
#[track_caller]
fn assert_found(src: &str, expected: &[(&str, &str)]) {
    let got = found(src);
    // A warning's or a note's text starts with `warning: ` or `note: `; an error's with neither.
    let kind = |t: &str| {
        ["warning: ", "note: "]
            .into_iter()
            .find(|k| t.starts_with(k))
    };
    let ok = got.len() == expected.len()
        && got.iter().zip(expected).all(|(g, (at, text))| {
            g.strip_prefix(&format!("{at}: "))
                .is_some_and(|rest| kind(rest) == kind(text) && rest.contains(text))
        });
    assert!(ok, "expected {expected:#?}\ngot {got:#?}");
}

/// A recipe whose `generate` body is `body`.
fn recipe(body: &str) -> String {
    format!("local warren = require \"warren\"\nreturn {{ params = {{}}, generate = function(map, ctx)\n{body}\nend }}\n")
}

// Free names.

#[test]
fn undefined_globals_are_found_in_every_function_run_or_not() {
    assert_found(
        "local function never_called()\n  return pirnt(x_1)\nend\nif false then io2.write('x') end",
        &[
            ("2:10", "undefined global 'pirnt' (did you mean 'print'?)"),
            ("2:16", "undefined global 'x_1'"),
            // A branch that never runs: noted, not an error.
            (
                "4:15",
                "note: undefined global 'io2' (did you mean 'io'?) (in a branch that never runs)",
            ),
        ],
    );
    assert_found(
        "local count = 0\nfor i = 1, 3 do count = conut + i end",
        &[("2:25", "undefined global 'conut' (did you mean 'count'?)")],
    );
}

#[test]
fn what_the_sandbox_leaves_out_is_named_as_such() {
    let missing = stock::LEFT_OUT
        .iter()
        .find(|g| !surface::GLOBALS.contains(g))
        .expect("the sandbox leaves some stock global out");
    assert_found(
        &format!("local f = {missing}"),
        &[("1:11", "warren's sandbox does not provide it")],
    );
    // A member stock Lua has in a library the sandbox keeps, but the sandbox leaves out.
    let (lib, member) = stock::MEMBERS
        .iter()
        .filter_map(|(lib, members)| {
            Some((*lib, *members, warren_lua::check::names::library(lib)?))
        })
        .find_map(|(lib, members, kept)| {
            let m = members.iter().find(|m| !kept.contains(m))?;
            Some((lib, *m))
        })
        .expect("the sandbox leaves some library member out");
    // Read, it is nil, which fails nowhere by itself: a note. Called, it fails: an error.
    let at = format!("1:{}", 11 + lib.len() + 1);
    let read = format!("note: {lib}.{member} is not available in warren's sandbox: it is nil here");
    let called_at = format!("4:{}", lib.len() + 2);
    let called = format!("{lib}.{member} is not available in warren's sandbox");
    assert_found(
        &format!("local d = {lib}.{member}\nlocal s = string.splt(',')\nlocal m = math.sqr(2)\n{lib}.{member}()"),
        &[
            (&at, &read),
            ("2:18", "string.splt does not exist"),
            ("3:16", "math.sqr does not exist (did you mean 'sqrt'?)"),
            (&called_at, &called),
        ],
    );
}

#[test]
fn guarded_uses_of_what_the_sandbox_lacks_are_notes_and_calls_errors() {
    // A library's pcall-guarded string.dump runs (pcall returns false); a debug print in a
    // rarely taken branch does not.
    let src = recipe(
        "local ok, bytes = pcall(string.dump, function() end)\nif ctx.params.width > 1000 then io.read() end",
    );
    assert_found(
        &src,
        &[
            (
                "3:32",
                "note: string.dump is not available in warren's sandbox: it is nil here",
            ),
            ("4:36", "io.read is not available in warren's sandbox"),
        ],
    );
}

#[test]
fn seeding_a_generator_from_the_clock_is_a_warning() {
    let src = "local RNG = {}\nfunction RNG:setSeed(s) self.s = s end\nRNG:setSeed(os.time())\nlocal function seed(n) return n end\nseed(os.clock() * 1000)\nRNG.setSeed(RNG, 7)\nlocal started = os.time()\nreturn RNG";
    let why = "is seeded from the clock: in warren os.time() starts from the map's seed";
    assert_found(
        src,
        &[
            ("3:13", &format!("warning: setSeed {why}")),
            ("5:6", &format!("warning: seed {why}")),
        ],
    );
}

#[test]
fn assigned_globals_are_defined_for_the_whole_recipe() {
    // Read before the assignment (in a function), in another file, or as a function.
    let files = [
        (
            "r.lua",
            "local m = require 'm'\nlocal function f() return Config.size + helper() end\nConfig = { size = 1 }\nreturn f",
        ),
        ("m.lua", "function helper() return Config.size end\nreturn {}"),
    ];
    assert_eq!(run(&files), Vec::<String>::new());
    // Assigned but read nowhere: a warning.
    assert_found(
        "local total = 0\ntotl = total + 1",
        &[("2:1", "warning: global 'totl' is assigned but never read")],
    );
}

#[test]
fn feature_tests_may_read_absent_globals() {
    assert_found(
        "local unpack = unpack or table.unpack\nif jit then jit.off() end\nlocal n = bit32 == nil\nlocal t = type(setfenv)\nlocal p = table.pack or function(...) return { ... } end\nlocal e = _ENV",
        &[],
    );
    // Tested somewhere is not tested everywhere for a member of a library that is there.
    assert_found(
        "local t = {}\nlocal u = table.unpak(t)",
        &[(
            "2:17",
            "table.unpak does not exist (did you mean 'unpack'?)",
        )],
    );
}

#[test]
fn libraries_extended_by_the_recipe_have_the_new_members() {
    assert_found(
        "function string.split(s, sep) return {} end\ntable.random = function(t) return t[1] end\nlocal parts = ('a,b'):split(',')\nlocal r = table.random(parts)\nlocal bad = ('x'):splt(',')\nlocal up = ('x'):upper()",
        &[("5:19", "string.splt does not exist (did you mean 'split'?)")],
    );
}

// Library-style code: nothing to report.

#[test]
fn library_style_code_has_no_false_positives() {
    let lib = r#"
local Grid = {}
Grid.__index = Grid

function Grid.new(w, h)
  local self = setmetatable({ w = w, h = h, cells = {} }, Grid)
  return self
end

function Grid:set(x, y, v) self.cells[y * self.w + x] = v end
function Grid:get(x, y) return self.cells[y * self.w + x] end
function Grid:count(v, from, to)
  local n = 0
  for _, c in pairs(self.cells) do if c == v then n = n + 1 end end
  return n
end

local unpack = unpack or table.unpack
local MAX <const> = 10
local function sum(...)
  local total = 0
  for i = 1, select('#', ...) do total = total + (select(i, ...)) end
  local first, second = ...
  return total, { ... }, first, second
end

local function walk(g)
  for y = 0, g.h - 1 do
    for x = 0, g.w - 1 do
      if (x + y) % 2 == 0 then goto continue end
      g:set(x, y, "wall")
      ::continue::
    end
  end
  local i = 0
  repeat local j = i; i = i + 1 until j >= MAX // 2
  return g:count("wall", 1, 2) | 0, 7 ~ 3, 1 << 2, ~5
end

local Class = setmetatable({}, { __call = function(cls, ...) return cls.new(...) end })
function Class.new(...) return setmetatable({ args = { ... } }, { __index = Class }) end
function Class:pick(a, b, c, d) return a end

local obj = Class(1, 2)
local g = Grid.new(4, 4)
local x = obj:pick(1, 2, 3, 4)
local co = coroutine.wrap(function() coroutine.yield(unpack({ 1, 2 })) end)
return { Grid = Grid, sum = sum, walk = walk(g), x = x, co = co }
"#;
    assert_found(lib, &[]);
}

#[test]
fn close_variables_parse_and_scope() {
    assert_found(
        "do\n  local guard <close> = setmetatable({}, { __close = function() end })\n  local k <const> = guard\nend",
        &[],
    );
}

#[test]
fn self_registering_modules_are_checked_against_the_surface() {
    let files = [
        (
            "r.lua",
            "local rot = require 'rot'\nreturn { params = {}, generate = function(map, ctx) rot.dig(map) end }",
        ),
        (
            "rot.lua",
            "local rot = {}\npackage.loaded[...] = rot\nrot.map = require 'rot.map'\nfunction rot.dig(map) return rot.map.make(map) end\nreturn rot",
        ),
        (
            "rot/map.lua",
            "local rot = require 'rot'\nlocal M = {}\nfunction M.make(map) return rot end\nreturn M",
        ),
    ];
    let got = run(&files);
    if surface::GLOBALS.contains(&"package") {
        assert_eq!(got, Vec::<String>::new());
    } else {
        assert_eq!(
            got,
            ["rot.lua:2:1: undefined global 'package': warren's sandbox does not provide it"]
        );
    }
}

// The API.

#[test]
fn api_members_arity_options_and_literals() {
    let src = recipe(
        r#"local r = warren.gen.scater_rooms(map, ctx.rng)
local rooms = warren.gen.scatter_rooms(map, ctx.rng, { attemps = 5, min_size = 0, max_size = 3.5 })
warren.gen.connect_rooms(map, ctx.rng, rooms, { strategy = "nearst", terrain = "lava", priority = "room_flor" })
warren.gen.connect_rooms(map, ctx.rng, rooms, { strategy = "bsp" })
map:set(1, 2)
map:set(1, 2, "floor", {}, 5)
map:set("1", 2, "floor", { force = 1 })
map:fill("rock", { priority = 300 })
local v = warren.version
local w = warren.rect(1, 2, 3, 4, 5)
warren.gen.join_areas(map, ctx.rng, { terrain = "floor" }, ...)
warren.gen.join_areas(map, ...)
local p = warren.prio.ROOM_FLOR"#,
    );
    assert_found(
        &src,
        &[
            ("3:22", "warren.gen.scater_rooms does not exist (did you mean 'scatter_rooms'?)"),
            ("4:56", "warren.gen.scatter_rooms: unknown option 'attemps' in opts (did you mean 'attempts'?) (valid: attempts, min_size, max_size)"),
            ("4:80", "warren.gen.scatter_rooms: opts.min_size must be an integer in 1..=4096, got 0"),
            ("4:94", "opts.max_size must be an integer in 1..=4096, got 3.5"),
            ("5:60", "opts.strategy = \"nearst\" is not one of"),
            ("5:80", "warren.gen.connect_rooms: unknown terrain 'lava'"),
            ("5:99", "opts.priority = \"room_flor\" is not a priority name (did you mean 'room_floor'?)"),
            ("6:47", "warren.gen.connect_rooms: opts needs 'terrain': a terrain name"),
            ("7:5", "map:set: argument 3 (terrain) is missing: expected a terrain name (a string) (map:set(x, y, terrain, opts?))"),
            ("8:5", "map:set: takes at most 4 arguments (map:set(x, y, terrain, opts?)), got 5"),
            ("9:9", "map:set: argument 1 (x) must be an integer, got \"1\""),
            ("9:36", "map:set: opts.force must be a boolean, got 1"),
            ("10:31", "map:fill: opts.priority = 300 is out of range (0..=255)"),
            ("12:18", "warren.rect: takes at most 4 arguments"),
            ("15:23", "warren.prio.ROOM_FLOR does not exist (did you mean 'ROOM_FLOOR'?)"),
        ],
    );
}

#[test]
fn methods_called_with_a_dot_and_functions_with_a_colon() {
    assert_found(
        &recipe("map.set(1, 2, 'floor')\nmap.set(map, 1, 2, 'floor')\nwarren.gen:scatter_rooms(map, ctx.rng)\nlocal n = ctx.seed()"),
        &[
            ("3:5", "map:set: called on 1 instead of a warren.Map (call it with a colon: map:set(x, y, terrain, opts?))"),
            ("5:12", "warren.gen.scatter_rooms(map, rng, opts?) is a function, not a method"),
            ("6:15", "attempt to call a number"),
        ],
    );
}

/// An expression of `owner`'s type, made from what the declarations return (`map`, `ctx.rng`,
/// `warren.gen.scatter_rooms(v, v)`), with `v` standing for any argument.
fn producer(owner: Owner, decls: &[&'static Decl], depth: usize) -> Option<String> {
    match owner {
        Owner::Map => return Some("map".into()),
        Owner::Ctx => return Some("ctx".into()),
        o if o.is_module() => return Some(o.prefix().into()),
        _ if depth == 0 => return None,
        _ => {}
    }
    decls
        .iter()
        .filter(|d| {
            d.returns
                .first()
                .is_some_and(|r| r.trim_end_matches('?') == owner.class())
        })
        .find_map(|d| {
            let base = producer(d.owner, decls, depth - 1)?;
            Some(match d.kind {
                Kind::Field => format!("{base}.{}", d.name),
                Kind::Method => format!("{base}:{}({})", d.name, placeholders(d.min_args())),
                Kind::Function => format!("{base}.{}({})", d.name, placeholders(d.min_args())),
            })
        })
}

/// Every declared key of the options table at argument `i` of `d` is accepted, and an
/// undeclared one reported (for options tables; rectangles and cells ignore other keys).
fn option_keys(base: &str, sep: char, d: &Decl, i: usize, class: &warren_lua::api::decl::Class) {
    let required: Vec<String> = class
        .all_fields()
        .iter()
        .filter(|f| f.required)
        .map(|f| format!("{} = v", f.key))
        .collect();
    let call = |extra: &str| {
        let mut args = vec!["v".to_string(); d.args.len().max(i + 1)];
        let mut keys = required.clone();
        keys.push(extra.to_string());
        args[i] = format!("{{ {} }}", keys.join(", "));
        recipe(&format!(
            "local v = ctx.params.width\nlocal r = {base}{sep}{}({})",
            d.name,
            args.join(", ")
        ))
    };
    for f in class.all_fields() {
        assert_found(&call(&format!("{} = v", f.key)), &[]);
    }
    let got = found(&call("bogus_key = v"));
    let shape = ["warren.RectLike", "warren.Cell"].contains(&class.name);
    if shape {
        assert_eq!(got, Vec::<String>::new(), "{}", d.call_name());
    } else {
        assert!(
            got.len() == 1 && got[0].contains("unknown option 'bogus_key'"),
            "{}: {got:?}",
            d.call_name()
        );
    }
}

fn placeholders(n: usize) -> String {
    vec!["v"; n].join(", ")
}

#[test]
fn every_declared_call_is_checked_for_arity() {
    let decls = warren_lua::api::decls();
    let mut checked = 0;
    let mut unreached = Vec::new();
    for d in &decls {
        let Some(base) = producer(d.owner, &decls, 3) else {
            unreached.push(d.call_name());
            continue;
        };
        let sep = if d.kind == Kind::Method { ':' } else { '.' };
        let call = |n: usize| {
            recipe(&format!(
                "local v = ctx.params.width\nlocal r = {base}{sep}{}({})",
                d.name,
                placeholders(n)
            ))
        };
        if d.kind == Kind::Field {
            let read = recipe(&format!(
                "local v = ctx.params.width\nlocal r = {base}.{}",
                d.name
            ));
            assert_found(&read, &[]);
            checked += 1;
            continue;
        }
        assert_found(&call(d.min_args()), &[]);
        if let Some(most) = d.max_args() {
            assert_found(&call(most), &[]);
            let got = found(&call(most + 1));
            assert!(
                got.len() == 1 && got[0].contains("takes at most"),
                "{}: {got:?}",
                d.call_name()
            );
        }
        if d.min_args() > 0 {
            let got = found(&call(d.min_args() - 1));
            assert!(
                got.len() == 1 && got[0].contains("is missing"),
                "{}: {got:?}",
                d.call_name()
            );
        }
        for (i, a) in d.args.iter().enumerate() {
            if let warren_lua::api::decl::Ty::Table(class) = a.ty {
                option_keys(&base, sep, d, i, class);
            }
        }
        let typo = recipe(&format!(
            "local v = ctx.params.width\nlocal r = {base}{sep}{}_x()",
            d.name
        ));
        let got = found(&typo);
        assert_eq!(got.len(), 1, "{}: {got:?}", d.call_name());
        checked += 1;
    }
    // Every declared owner can be reached from what the declarations return.
    assert_eq!(unreached, Vec::<String>::new());
    assert_eq!(checked, decls.len());
}

// Receivers.

#[test]
fn receivers_are_typed_from_what_they_are_assigned() {
    let src = recipe(
        r#"local lists = warren.status_lists { cells = 10, statuses = { "frontier", "done" } }
local n = lists:count("frontier") + map:count("floor")
local m = map:count("frontier")
lists:cout("done")
local rooms = warren.gen.scatter_rooms(map, ctx.rng:stream("rooms"))
rooms:sort("leftmost")
rooms:sort("left")
local rng = ctx.rng:stream("a")
local k = rng:int(1)
local r = warren.rect(1, 2, 3, 4)
local x2 = r:x2() + r.w
local cx, cy = rooms:center(1)
local joined = warren.gen.join_areas(map, rng, { terrain = "floor" })
local before = joined.areas_befor"#,
    );
    assert_found(
        &src,
        &[
            ("5:21", "map:count: unknown terrain 'frontier'"),
            ("6:7", "lists has no method 'cout' (did you mean 'count'?)"),
            ("9:12", "rects:sort: argument 1 (order) = \"left\" is not one of 'leftmost', 'topmost', 'largest'"),
            ("11:15", "rng:int: argument 2 (hi) is missing"),
            ("16:23", "warren.JoinReport has no key 'areas_befor' (did you mean 'areas_before'?)"),
        ],
    );
}

#[test]
fn helper_functions_take_the_types_of_their_calls() {
    let src = recipe(
        r#"local function carve(m, r, kind)
  m:fill("lava")
  r:chanse(5)
  kind:frobnicate()
end
local function stored(m) m:frobnicate() end
local hooks = { stored = stored }
local function twice(m) m:frobnicate() end
carve(map, ctx.rng, "room")
carve(map, ctx.rng:stream("x"), "hall")
stored(map)
twice(map)
twice({})"#,
    );
    assert_found(
        &src,
        &[
            ("4:10", "map:fill: unknown terrain 'lava'"),
            ("5:5", "rng has no method 'chanse' (did you mean 'chance'?)"),
            // Always called with a string.
            ("6:8", "string.frobnicate does not exist"),
        ],
    );
}

#[test]
fn unknown_receivers_are_checked_only_where_the_api_is_unambiguous_and_only_noted() {
    let src = r#"
local M = {}
function M.stamp(target, lists, thing)
  target:set(4, 3, "obsidian")
  lists:count("frontier")
  thing:count(1, 2, 3)
  thing:whatever(1)
end
return M"#;
    assert_found(
        src,
        &[
            (
                "4:20",
                "note: map:set: unknown terrain 'obsidian' (known: 'floor', 'rock') (if the receiver is a warren.Map: the checks cannot tell what it is)",
            ),
            (
                "6:9",
                "note: :count called with 3 arguments, which no method of that name takes",
            ),
        ],
    );
    // A library's own getter on an untyped value is not taken for map:get.
    assert_found(
        "local M = {}\nfunction M.show(x) return x:get() end\nreturn M",
        &[(
            "2:29",
            "note: map:get: argument 1 (x) is missing: expected an integer (map:get(x, y)) (if the receiver is a warren.Map",
        )],
    );
    // A method the recipe defines itself is the recipe's business.
    let own = "local C = {}\nfunction C:count(a, b, c) end\nlocal function f(x) return x:count(1, 2, 3) end\nreturn f";
    assert_found(own, &[]);
}

#[test]
fn undeclared_parts_of_the_api_are_not_checked() {
    // With warren.gen's declarations taken away, its members and what they return pass.
    let decls = warren_lua::api::decls()
        .into_iter()
        .filter(|d| d.owner != Owner::Gen)
        .collect();
    let declared = Declared::of(decls);
    let src = recipe("local r = warren.gen.anything(1)\nr:frobnicate()\nlocal x = r.y.z");
    assert_eq!(
        run_with(&[("r.lua", &src)], &declared),
        Vec::<String>::new()
    );
    assert!(!run(&[("r.lua", &src)]).is_empty());
}

// The run's data.

#[test]
fn ctx_fields_params_and_regions_through_variables() {
    let src = recipe(
        r#"local a = ctx.regions.roms.x
local b = ctx.regions.cave
local style = ctx.regions.rooms
map:fill(style.wall)
local c = style.flor
local p = ctx.params
local w = p.widht + ctx.params.width
ctx.rgn:int(1, 2)
local function helper(ctx) return ctx.params.heigth end"#,
    );
    assert_found(
        &src,
        &[
            ("3:23", "ctx.regions.roms: no such region section"),
            ("4:23", "ctx.regions.cave: no region file declares [cave]"),
            (
                "7:17",
                "ctx.regions.rooms.flor: [rooms] has no key 'flor' (did you mean 'floor'?)",
            ),
            (
                "9:13",
                "ctx.params.widht: the recipe declares no parameter 'widht'",
            ),
            ("10:5", "ctx has no field 'rgn' (did you mean 'rng'?)"),
            (
                "11:46",
                "ctx.params.heigth: the recipe declares no parameter 'heigth'",
            ),
        ],
    );
}

#[test]
fn terrain_keys_of_tables_for_undeclared_calls() {
    assert_found(
        "local opts = { terrain = 'lava', name = 'lava' }\nlocal ok = { terrain = 'floor' }",
        &[("1:26", "terrain option: unknown terrain 'lava'")],
    );
}

// Shipped code.

#[test]
fn every_shipped_recipe_and_module_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scripts = warren_lua::check::default_scripts(&root.join("scripts"));
    assert!(scripts.len() >= 4);
    let report = warren_lua::check::check(&root.join("regions"), &scripts);
    assert_eq!(report.problems, Vec::<String>::new());
    assert_eq!(report.warnings, Vec::<String>::new());
    assert_eq!(report.recipes, scripts.len());
}

#[test]
fn stock_luas_globals_are_the_sandboxs_but_for_what_each_has_alone() {
    // SAFETY: a plain state with every standard library, only read.
    let lua = unsafe { mlua::Lua::unsafe_new() };
    let mut real: Vec<String> = lua
        .globals()
        .pairs::<String, mlua::Value>()
        .map(|pair| pair.unwrap().0)
        .collect();
    real.sort();
    let mut known: Vec<&str> = surface::GLOBALS
        .iter()
        .chain(stock::LEFT_OUT)
        .filter(|g| !stock::WARREN_GLOBALS.contains(g))
        .copied()
        .collect();
    known.sort();
    assert_eq!(real, known);
    assert!(known.iter().all(|g| stock::has_global(g)));
    assert!(!stock::has_global("warren") && !stock::has_global("conut"));
}
