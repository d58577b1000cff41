//! What the host keeps up to date in a reused Lua state without making it dirty (which would
//! reload it before every run). `map.width` and `map.height` are answered without a call into
//! Rust, from a field table the host keeps beside each map: they must follow every map a script
//! can see — a run's map at every size, the map `warren.dungeon.init_level` resizes,
//! `ctx.above`. And `ctx` is one table per state (two: with and without `above`), refilled for
//! every run: each run must see its own values, the same `pairs` order, no `above` at depth 1,
//! and nothing a script wrote to it in an earlier run.
use std::path::Path;
use warren_core::map::Map;
use warren_lua::{Host, Limits, Run};

use crate::common;

/// A host for `recipe`.
fn host(dir: &Path, recipe: &str) -> Host {
    common::host_for(dir, "fields", recipe, Limits::default())
}

/// One generation (seed 1) at `depth` below `above`.
fn generate(h: &Host, sets: &[(&str, &str)], depth: u32, above: Option<&Map>) -> Map {
    common::generate_at(h, 1, sets, depth, above).unwrap()
}

/// The `seen` tag a recipe left: what it read as `map.width`×`map.height` (and the level
/// above's).
fn seen(map: &Map) -> String {
    format!("{:?}", map.notes.tags.get("seen").unwrap())
}

#[test]
fn a_runs_map_answers_its_own_size_at_every_size() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(
        dir.path(),
        "return { params = { width = { default = 20 }, height = { default = 16 } },\n\
         generate = function(map, ctx)\n\
           local above = ctx.above and (ctx.above.width .. 'x' .. ctx.above.height) or '-'\n\
           map:tag('seen', map.width .. 'x' .. map.height .. ' ' .. above)\n\
         end }\n",
    );
    for (w, hgt) in [("20", "16"), ("64", "17"), ("16", "300"), ("20", "16")] {
        let map = generate(&h, &[("width", w), ("height", hgt)], 1, None);
        assert_eq!(seen(&map), format!("Text(\"{w}x{hgt} -\")"));
        assert_eq!(
            (map.width().to_string(), map.height().to_string()),
            (w.into(), hgt.into())
        );
    }
    let above = generate(&h, &[("width", "33"), ("height", "21")], 1, None);
    let map = generate(&h, &[], 2, Some(&above));
    assert_eq!(seen(&map), "Text(\"20x16 33x21\")");
    assert_eq!(h.reloads(), 0, "keeping the size made the state dirty");
}

#[test]
fn a_map_resized_by_init_level_answers_its_new_size() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(
        dir.path(),
        "local warren = require 'warren'\n\
         return { params = { width = { default = 0 }, height = { default = 0 } },\n\
         generate = function(map, ctx)\n\
           local before = map.width .. 'x' .. map.height\n\
           warren.dungeon.init_level(map, { width = 96, height = 64 })\n\
           map:tag('seen', before .. ' ' .. map.width .. 'x' .. map.height)\n\
         end }\n",
    );
    // Again: the next run starts from its own 1×1 map, not the size the last one ended with.
    for _ in 0..2 {
        let map = generate(&h, &[], 1, None);
        assert_eq!(seen(&map), "Text(\"1x1 96x64\")");
        assert_eq!((map.width(), map.height()), (96, 64));
    }
    assert_eq!(h.reloads(), 0);
}

#[test]
fn every_run_gets_its_own_ctx_in_the_same_order() {
    let dir = tempfile::tempdir().unwrap();
    let h = host(
        dir.path(),
        "return { params = { width = { default = 20 }, height = { default = 16 },\n\
                             mark = { default = false } },\n\
         generate = function(map, ctx)\n\
           local keys = {}\n\
           for k, v in pairs(ctx) do keys[#keys + 1] = k end\n\
           local above = ctx.above and ctx.above.width or '-'\n\
           map:tag('seen', table.concat(keys, ',') .. ' seed=' .. ctx.seed .. ' depth=' ..\n\
             ctx.depth .. ' width=' .. ctx.params.width .. ' above=' .. above ..\n\
             ' marked=' .. tostring(ctx.marked))\n\
           if ctx.params.mark or ctx.seed == 1000 then\n\
             -- Gone, and the table grown past its size: the next run's seed still lands.\n\
             ctx.marked, ctx.seed = true, nil\n\
             for i = 1, 40 do ctx['k' .. i] = i end\n\
           end\n\
         end }\n",
    );
    // The orders a fresh `{ rng = …, seed = …, … }` per run gave: a recipe that walks `ctx`
    // keeps its maps.
    let plain = "metric,params,seed,log,regions,depth,phase,rng";
    let with_above = "metric,params,seed,log,regions,depth,phase,rng,above";
    let run = |seed: u64, sets: &[(&str, &str)], depth: u32, above: Option<&Map>| {
        let sets: Vec<(String, String)> = sets
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let params = h.resolve_params(&sets).unwrap();
        let map = h
            .generate(&Run {
                seed,
                params: &params,
                depth,
                above,
            })
            .unwrap();
        seen(&map)
    };
    let above = generate(&h, &[("width", "33")], 1, None);
    let expected = |keys: &str, rest: &str| format!("Text(\"{keys} {rest}\")");
    // Alternating depths and values: each run sees its own, in one order per table.
    for round in 0..3 {
        let seed = 7 + round;
        assert_eq!(
            run(seed, &[], 1, None),
            expected(
                plain,
                &format!("seed={seed} depth=1 width=20 above=- marked=nil")
            )
        );
        assert_eq!(
            run(seed + 100, &[("width", "40")], 2, Some(&above)),
            expected(
                with_above,
                &format!("seed={} depth=2 width=40 above=33 marked=nil", seed + 100)
            )
        );
    }
    assert_eq!(h.reloads(), 0, "refilling ctx made the state dirty");
    // A script's own write to ctx does not reach the next run, nor do the keys it took out or
    // added (the seed is written where the table put back holds it).
    run(1, &[("mark", "true")], 1, None);
    // Marked by its seed: the runs after it have its values, so only `ctx.seed` is written,
    // straight into its slot in the table put back.
    run(1000, &[], 1, None);
    for seed in [2, 3] {
        assert_eq!(
            run(seed, &[], 1, None),
            expected(
                plain,
                &format!("seed={seed} depth=1 width=20 above=- marked=nil")
            )
        );
    }
    assert_eq!(h.reloads(), 0, "ctx was put back by a reload");
    assert_eq!(h.resets(), (2, 2), "the runs that wrote ctx put it back");
}

#[test]
fn a_seed_alone_lands_after_a_run_with_a_level_above() {
    // The runs of `--levels`: a first level, a level below it (the other `ctx` table), then
    // first levels again with the same parameters, which write only `ctx.seed`.
    let dir = tempfile::tempdir().unwrap();
    let h = host(
        dir.path(),
        "return { params = { width = { default = 20 }, height = { default = 16 } },\n\
         generate = function(map, ctx)\n\
           map:tag('seen', ctx.seed .. ' ' .. ctx.depth .. ' ' .. tostring(ctx.above ~= nil))\n\
         end }\n",
    );
    let run = |seed, depth, above| seen(&common::generate_at(&h, seed, &[], depth, above).unwrap());
    assert_eq!(run(5, 1, None), "Text(\"5 1 false\")");
    let above = generate(&h, &[], 1, None);
    assert_eq!(run(6, 2, Some(&above)), "Text(\"6 2 true\")");
    for seed in [7, 8, 9] {
        assert_eq!(run(seed, 1, None), format!("Text(\"{seed} 1 false\")"));
    }
    assert_eq!(run(10, 2, Some(&above)), "Text(\"10 2 true\")");
    assert_eq!(h.reloads(), 0);
}

#[test]
fn a_parameter_of_minus_zero_is_not_the_cached_zero() {
    // `ctx.params` is cached while the values stay the same; -0.0 and 0.0 are equal as numbers
    // but not to a recipe, so a run with one after the other sees its own, as a fresh state
    // would.
    let dir = tempfile::tempdir().unwrap();
    let h = host(
        dir.path(),
        "return { params = { width = { default = 20 }, height = { default = 16 },\n\
                             x = { default = 0.5 } },\n\
         generate = function(map, ctx) map:tag('seen', tostring(1 / ctx.params.x)) end }\n",
    );
    for (x, expected) in [("0", "inf"), ("-0", "-inf"), ("0", "inf"), ("-0.0", "-inf")] {
        let map = generate(&h, &[("x", x)], 1, None);
        assert_eq!(seen(&map), format!("Text(\"{expected}\")"), "x = {x}");
    }
}
