//! What a recipe can reach: exactly the documented globals and library members, nothing that
//! changes what the next run sees.

use crate::common::*;
use warren_lua::surface::{GLOBALS, LIBRARIES};
use warren_lua::{Host, Limits, Run};

/// Runs `body` and returns the tags it set.
fn tags(body: &str) -> warren_core::map::Tags {
    let recipe = format!(
        "return {{ name = 't', params = {{ width = {{ default = 8 }}, height = {{ default = 8 }} }},\n\
         generate = function(map, ctx)\n{body}\nend }}"
    );
    let dir = temp_tree(&[("scripts/t.lua", recipe.as_str())]);
    let host = Host::load(
        &dir.path().join("scripts/t.lua"),
        registry(),
        Limits::default(),
    )
    .unwrap();
    let p = host.resolve_params(&[]).unwrap();
    host.generate(&Run {
        seed: 1,
        params: &p,
        depth: 1,
        above: None,
    })
    .unwrap_or_else(|e| panic!("{e}"))
    .notes
    .tags
}

fn text(t: &warren_core::map::TagValue) -> String {
    match t {
        warren_core::map::TagValue::Text(s) => s.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn globals_and_libraries_are_exactly_the_allow_list() {
    let found = tags(
        "local names = {}
         for k in pairs(_G) do names[#names + 1] = k end
         table.sort(names)
         map:tag('_G', table.concat(names, ' '))
         for _, lib in ipairs { 'coroutine', 'math', 'string', 'table', 'utf8', 'io', 'os', 'package' } do
           local members = {}
           for k in pairs(_G[lib]) do members[#members + 1] = k end
           table.sort(members)
           map:tag(lib, table.concat(members, ' '))
         end",
    );
    let mut globals: Vec<&str> = GLOBALS.to_vec();
    globals.sort_unstable();
    assert_eq!(text(&found["_G"]), globals.join(" "));
    for (lib, members) in LIBRARIES {
        let mut members = members.to_vec();
        members.sort_unstable();
        assert_eq!(text(&found[*lib]), members.join(" "), "{lib}");
    }
}

#[test]
fn the_warren_module_holds_only_its_own_functions_and_constants() {
    let found = tags(
        "local kinds = {}
         local function walk(t, path)
           for k, v in pairs(t) do
             local p = path .. '.' .. k
             if type(v) == 'table' then walk(v, p) else kinds[#kinds + 1] = p .. '=' .. type(v) end
           end
         end
         walk(warren, 'warren')
         map:tag('kinds', table.concat(kinds, ' '))",
    );
    let kinds = text(&found["kinds"]);
    for entry in kinds.split(' ') {
        let (path, kind) = entry.split_once('=').unwrap();
        let ok = match kind {
            "function" => {
                [
                    "warren.gen.",
                    "warren.town.",
                    "warren.tunnel.",
                    "warren.dungeon.",
                    "warren.toolbox.",
                ]
                .iter()
                .any(|m| path.starts_with(m))
                    || ["warren.rect", "warren.status_lists", "warren.debug_panic"].contains(&path)
            }
            "number" => {
                path.starts_with("warren.prio.")
                    || [
                        "warren.town.MIN_SIDE",
                        "warren.town.MAX_SIDE",
                        "warren.town.MAX_STRAIGHTNESS",
                    ]
                    .contains(&path)
            }
            "string" => path == "warren.version",
            _ => false,
        };
        assert!(ok, "unexpected {entry}");
    }
    assert_eq!(
        kinds.contains("warren.debug_panic"),
        cfg!(debug_assertions),
        "the panic primitive ships in debug builds only"
    );
}

#[test]
fn nothing_shared_between_runs_can_be_reached_or_changed() {
    let found = tags(
        "local probes = {
           ['getmetatable(map)'] = getmetatable(map),
           ['getmetatable(ctx.rng)'] = getmetatable(ctx.rng),
           ['getmetatable(\"\")'] = getmetatable(''),
           ['getmetatable(string)'] = getmetatable(string),
           ['getmetatable(ctx.regions)'] = getmetatable(ctx.regions),
           ['getmetatable(warren)'] = getmetatable(warren),
           ['getmetatable(warren.rect(1, 1, 1, 1))'] = getmetatable(warren.rect(1, 1, 1, 1)),
           ['getmetatable(_G)'] = getmetatable(_G),
           ['rect.__index'] = warren.rect(1, 1, 1, 1).__index or false,
           ['string.__index'] = string.__index or false,
         }
         for k, v in pairs(probes) do map:tag(k, tostring(v)) end
         -- Iterating and raw reads hand out the read-only tables themselves, never a table
         -- behind them that could be written (hostile.rs: writes to them, raw or not, fail).
         local same = {
           ['pairs(warren)'] = select(2, pairs(warren)) == warren,
           ['pairs(ctx.regions)'] = select(2, pairs(ctx.regions)) == ctx.regions,
           ['pairs(coroutine)'] = select(2, pairs(coroutine)) == coroutine,
           ['rawget(warren, \"gen\")'] = rawget(warren, 'gen') == warren.gen,
           ['rawget(ctx.regions, \"rooms\")'] = rawget(ctx.regions, 'rooms') == ctx.regions.rooms,
         }
         for k, v in pairs(same) do map:tag('same ' .. k, v) end",
    );
    assert_eq!(found.len(), 13, "every probe reported");
    for (probe, value) in &found {
        if probe.starts_with("same ") {
            assert_eq!(value, &warren_core::map::TagValue::Bool(true), "{probe}");
        } else {
            assert_eq!(text(value), "false", "{probe}");
        }
    }
}

#[test]
fn read_only_tables_still_read_and_iterate() {
    let found = tags(
        "local n = 0 for _ in pairs(ctx.regions.terrain) do n = n + 1 end
         map:tag('terrains', n == #ctx.regions.terrain and n > 0)
         local keys = {} for k in pairs(string) do keys[#keys + 1] = k end
         map:tag('string members', #keys)
         map:tag('ipairs', select('#', ipairs(ctx.regions.spawn)))
         map:tag('floor', ctx.regions.rooms.floor)",
    );
    assert_eq!(found["terrains"], warren_core::map::TagValue::Bool(true));
    assert_eq!(found["string members"], warren_core::map::TagValue::Int(16));
    assert_eq!(text(&found["floor"]), "floor");
}
