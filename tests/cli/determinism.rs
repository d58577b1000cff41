//! Every map starts from the same state, and nothing a recipe sees depends on the process: through
//! the real binary, the k-th map of `warren batch` (one job or two) equals `warren run --seed k`
//! in a fresh process, for recipes that keep module-level state, replace globals, mutate module
//! tables, extend `string`, keep a coroutine or a town or status lists made at load, look at
//! `next` order, table-keyed `pairs`, `tostring({})` and weak tables, or read the clocks.

use crate::common::*;

/// A recipe whose `body` runs inside `generate` and records what it saw with `map:tag`.
fn recipe(prelude: &str, body: &str) -> String {
    format!(
        r#"
{prelude}
return {{
  name = "probe",
  params = {{ width = {{ default = 20, min = 16 }}, height = {{ default = 16, min = 16 }} }},
  generate = function(map, ctx)
    map:fill("rock wall")
    local function tag(k, v) map:tag(k, tostring(v)) end
    {body}
  end,
}}
"#
    )
}

const CASES: &[(&str, &str, &str)] = &[
    (
        "counter",
        "local n = 0",
        "n = n + 1 tag('n', n)",
    ),
    (
        "global",
        "",
        "tag('seen', rawget(_G, 'marker')) marker = true tag('ts', tostring(1)) tostring = function() return 'X' end",
    ),
    (
        "module",
        "local m = require 'lib.m'",
        "m.count = (m.count or 0) + 1 tag('count', m.count) tag('shared', require('lib.m') == m)",
    ),
    (
        "string",
        "",
        "tag('had', string.shout ~= nil) function string.shout(s) return s:upper() .. '!' end tag('shout', ('hi'):shout())",
    ),
    (
        "coroutine",
        "local co = coroutine.wrap(function() for i = 1, 100 do coroutine.yield(i) end end)",
        "tag('co', co())",
    ),
    (
        "town",
        "local warren = require 'warren' local town = warren.town.new {}",
        "tag('gates', town:make_gates(ctx.rng)) tag('live', town:count('live'))",
    ),
    (
        "status lists",
        "local warren = require 'warren' local lists = warren.status_lists { cells = 4, statuses = { 'a', 'b' }, initial = 'a' }",
        "tag('b', lists:count('b')) lists:move(1, 'b')",
    ),
    (
        "types",
        "",
        r#"
        map:tag('before', tostring({}))
        warren.town.new {}
        warren.status_lists { cells = 2, statuses = { 'a' }, initial = 'a' }
        warren.tunnel.new(map, ctx.regions)
        warren.toolbox.field(map, 0)
        ctx.rng:stream('x')
        tag('after', tostring({}))
        tag('clock', os.clock())
        "#,
    ),
    (
        "clock",
        "local loaded_at = os.time()",
        "tag('clock', os.clock()) tag('time', os.time()) tag('loaded', loaded_at) tag('date', os.date('!%Y-%m-%d %H:%M:%S')) local n = 0 repeat n = n + 1 until os.clock() > 0.001 tag('turns', n)",
    ),
    (
        "order",
        "",
        r#"
        local t = {}
        for i = 1, 30 do t["key" .. i] = i end
        tag('next', (next(t)))
        local seq = {}
        for k in pairs(t) do seq[#seq + 1] = k end
        tag('pairs', table.concat(seq, ','))
        local keys, byk = {}, {}
        for i = 1, 20 do keys[i] = { i = i } byk[keys[i]] = i end
        byk[print] = 'print' byk[tag] = 'tag'
        local vals = {}
        for _, v in pairs(byk) do vals[#vals + 1] = tostring(v) end
        tag('tablekeys', table.concat(vals, ','))
        tag('tostring', tostring({}) .. ' ' .. tostring(tag) .. ' ' .. string.format('%p', {}))
        local weak = setmetatable({}, { __mode = 'k' })
        for i = 1, 50 do weak[{}] = i end
        local junk = {}
        for i = 1, 20000 do junk[i] = { i } end
        junk = nil
        local n = 0
        for _ in pairs(weak) do n = n + 1 end
        tag('weak', n)
        "#,
    ),
];

#[test]
fn batch_maps_equal_fresh_runs_whatever_the_recipe_keeps() {
    for (name, prelude, body) in CASES {
        let dir = temp_tree(&[
            ("scripts/probe.lua", &recipe(prelude, body)),
            ("scripts/lib/m.lua", "local M = {} return M"),
        ]);
        copy_regions(dir.path());
        let script = dir.path().join("scripts/probe.lua");
        let script = script.to_str().unwrap();
        let fresh: Vec<String> = (0..4)
            .map(|seed| {
                String::from_utf8(stdout(&[
                    "run",
                    script,
                    "--seed",
                    &seed.to_string(),
                    "--format",
                    "json",
                ]))
                .unwrap()
            })
            .collect();
        for jobs in ["1", "2"] {
            let out = dir.path().join(format!("out{jobs}"));
            let out_s = out.to_str().unwrap();
            stdout(&[
                "batch",
                script,
                "--count",
                "4",
                "--jobs",
                jobs,
                "--out-dir",
                out_s,
                "--format",
                "json",
            ]);
            for (seed, want) in fresh.iter().enumerate() {
                let got = std::fs::read_to_string(out.join(format!("probe-{seed}.json")))
                    .unwrap_or_else(|e| panic!("{name}: map {seed} of --jobs {jobs}: {e}"));
                assert_eq!(
                    &got, want,
                    "{name}: map {seed} of batch --jobs {jobs} differs from a fresh run"
                );
            }
        }
        if *name == "clock" {
            // os.time() starts from the seed (and from seed 0 while the recipe loads); a loop
            // limited by os.clock() does the same turns in every process and path.
            for (seed, map) in fresh.iter().enumerate() {
                let time = 946_684_800 + seed;
                assert!(map.contains(&format!("\"time\": \"{time}\"")), "{map}");
                assert!(map.contains("\"loaded\": \"946684800\""), "{map}");
            }
            assert!(
                fresh[1].contains("\"date\": \"2000-01-01 00:00:01\""),
                "{}",
                fresh[1]
            );
        }
        if *name == "order" {
            // Ids (tostring, and the order of table keys) are the same in every fresh process.
            for (seed, want) in fresh.iter().enumerate() {
                let again = String::from_utf8(stdout(&[
                    "run",
                    script,
                    "--seed",
                    &seed.to_string(),
                    "--format",
                    "json",
                ]))
                .unwrap();
                assert_eq!(&again, want, "ids differ between processes");
            }
            assert!(
                fresh[0].contains("\"weak\": \"50\""),
                "weak tables are strong: {}",
                fresh[0]
            );
        }
    }
}

#[test]
fn a_library_that_writes_its_module_tables_is_reset_not_reloaded() {
    // benches/rotlike: a rot.js-style library whose default generator keeps its state in its
    // module table, so every map writes a table the loading made. Every map of a batch must be
    // the fresh run's, and the state is reset after each, never loaded again.
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("benches/rotlike"), dir.path());
    copy_regions(dir.path());
    let script = dir.path().join("rotmaps.lua");
    let script = script.to_str().unwrap();
    for gen in ["digger", "rogue", "icey", "cellular"] {
        let sets = ["--set", &format!("gen={gen}"), "--set", "width=40"];
        let fresh: Vec<String> = (0..3)
            .map(|seed| {
                let seed = seed.to_string();
                let mut args = vec!["run", script, "--seed", &seed, "--format", "json"];
                args.extend(sets);
                String::from_utf8(stdout(&args)).unwrap()
            })
            .collect();
        for jobs in ["1", "2"] {
            let out = dir.path().join(format!("out-{gen}-{jobs}"));
            let out_s = out.to_str().unwrap();
            let mut args = vec![
                "batch",
                script,
                "--count",
                "3",
                "--jobs",
                jobs,
                "--out-dir",
                out_s,
                "--format",
                "json",
                "--timing",
            ];
            args.extend(sets);
            let table = String::from_utf8(stdout(&args)).unwrap();
            assert!(
                table.contains("\nstate between maps: 3 resets (")
                    && table.contains(", 0 reloads\n"),
                "{gen}, --jobs {jobs}: {table}"
            );
            for (seed, want) in fresh.iter().enumerate() {
                let got =
                    std::fs::read_to_string(out.join(format!("rotmaps-{seed}.json"))).unwrap();
                assert_eq!(&got, want, "{gen}: map {seed} of batch --jobs {jobs}");
            }
        }
    }
}
