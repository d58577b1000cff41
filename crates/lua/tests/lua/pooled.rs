//! Streams and rectangle lists a run made are handed out again by the next run (the state's
//! pools): no script can tell. Every map of a host that reuses its state equals a fresh host's,
//! object ids, draws, list contents, the order of tables keyed by those objects and the
//! instructions counted (`os.clock()`) included, also after a run that failed, after one that
//! kept a stream past its end, and with garbage earlier runs left for the collector.

use warren_lua::Limits;

use crate::common;

/// Makes a different number of streams and lists each run (on the main thread and in a
/// coroutine), uses them as table keys, and tags what a script can see of them.
const MAKER: &str = r##"
local warren = require "warren"
return {
  name = "maker",
  params = { width = { default = 40, min = 16 }, height = { default = 30, min = 16 } },
  generate = function(map, ctx)
    map:fill("rock wall")
    local seen, keyed = {}, {}
    local function show(v, what) seen[#seen + 1] = tostring(v) .. what; keyed[v] = #seen end
    local n = ctx.seed % 4 + 1
    for i = 1, n do
      local s = ctx.rng:stream("s" .. i)
      show(s, "=" .. s:int(1, 1000000))
    end
    local made = coroutine.wrap(function() return ctx.rng:stream("co") end)()
    show(made, "=" .. made:int(1, 1000000))
    for i = 1, 4 - n do
      local rooms = warren.gen.scatter_rooms(map, ctx.rng:stream("r" .. i), {
        attempts = 4 + i, min_size = 3, max_size = 6,
      })
      local cells = {}
      for _, r in ipairs(rooms:list()) do cells[#cells + 1] = r.x .. "," .. r.y .. "," .. r.w end
      show(rooms, "#" .. #rooms .. ":" .. table.concat(cells, ";"))
    end
    local order = {}
    for v, k in pairs(keyed) do order[#order + 1] = tostring(v) .. "@" .. k end
    map:tag("seen", table.concat(seen, " "))
    map:tag("order", table.concat(order, " "))
    map:tag("clock", ("%.9f"):format(os.clock()))
    if ctx.seed % 5 == 3 then error("a failing run") end
  end,
}
"##;

/// The tags of `seed`'s map, or the error's message.
fn outcome(h: &warren_lua::Host, seed: u64) -> String {
    match common::generate_at(h, seed, &[], 1, None) {
        Ok(map) => format!("{:?}", map.notes.tags),
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn streams_and_lists_a_run_hands_out_again_look_new() {
    let dir = tempfile::tempdir().unwrap();
    let reused = common::host_for(dir.path(), "maker", MAKER, Limits::default());
    let seeds: Vec<u64> = (0..16).chain([7, 2, 3, 3, 9, 0]).collect();
    for &seed in &seeds {
        let fresh = common::host_for(dir.path(), "maker", MAKER, Limits::default());
        assert_eq!(
            outcome(&reused, seed),
            outcome(&fresh, seed),
            "seed {seed}: a reused state's map differs from a fresh one's"
        );
    }
    assert_eq!(reused.reloads(), 0, "the recipe keeps no state");
}

#[test]
fn a_stream_kept_past_its_run_is_never_handed_out_again() {
    // Keeping a stream writes to the recipe's own table, which the run's end puts back as it
    // was: no later run can reach the kept stream, and every run draws as a fresh state's.
    let keeper = r#"
local kept = {}
return {
  name = "keeper",
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    local s = ctx.rng:stream("fresh")
    kept[#kept + 1] = ctx.rng:stream("kept")
    local draws = {}
    for _, k in ipairs(kept) do draws[#draws + 1] = tostring(k) .. "=" .. k:int(1, 1000000) end
    map:tag("draws", tostring(s) .. "=" .. s:int(1, 1000000) .. " " .. table.concat(draws, " "))
  end,
}
"#;
    let dir = tempfile::tempdir().unwrap();
    let reused = common::host_for(dir.path(), "keeper", keeper, Limits::default());
    for seed in [1, 2, 2, 3] {
        let fresh = common::host_for(dir.path(), "keeper", keeper, Limits::default());
        assert_eq!(outcome(&reused, seed), outcome(&fresh, seed), "seed {seed}");
    }
    assert_eq!(
        reused.reloads(),
        0,
        "a table write was put back by a reload"
    );
    assert_eq!(
        reused.resets(),
        (4, 4),
        "every run put the recipe's table back"
    );
}

#[test]
fn a_run_counts_the_same_instructions_whatever_garbage_earlier_runs_left() {
    // More streams than the pools keep: an earlier run's extra ones are garbage the collector
    // finalizes during a later run of a reused state, and never in a fresh one. A loop limited
    // by os.clock() (which counts instructions) must turn as often either way.
    let src = r#"
return {
  name = "garbage",
  params = { width = { default = 16 }, height = { default = 16 } },
  generate = function(map, ctx)
    for i = 1, 200 do local s = ctx.rng:stream("g" .. i) end
    local junk = {}
    for i = 1, 3000 do junk[i] = { i } end
    local n = 0
    repeat n = n + 1 until os.clock() > 0.0005
    map:tag("turns", tostring(n))
    map:tag("clock", ("%.9f"):format(os.clock()))
  end,
}
"#;
    let dir = tempfile::tempdir().unwrap();
    let reused = common::host_for(dir.path(), "garbage", src, Limits::default());
    for seed in 0..12u64 {
        let fresh = common::host_for(dir.path(), "garbage", src, Limits::default());
        assert_eq!(
            outcome(&reused, seed),
            outcome(&fresh, seed),
            "seed {seed}: a reused state counted differently"
        );
    }
}

#[test]
fn each_run_after_the_first_is_handed_what_the_last_one_made() {
    // Two streams and one list a run, all on the main thread: every run after the first gets
    // all three from the pools (the reuse is what spares making, collecting and finalizing a
    // userdata; nothing else shows it).
    let src = r#"
local warren = require "warren"
return {
  name = "three",
  params = { width = { default = 24 }, height = { default = 16 } },
  generate = function(map, ctx)
    local rooms = warren.gen.scatter_rooms(map, ctx.rng:stream("rooms"), {
      attempts = 4, min_size = 3, max_size = 5,
    })
    map:tag("draw", ctx.rng:stream("more"):int(1, 6) + #rooms)
  end,
}
"#;
    let dir = tempfile::tempdir().unwrap();
    let host = common::host_for(dir.path(), "three", src, Limits::default());
    for seed in 0..5u64 {
        common::generate_at(&host, seed, &[], 1, None).expect("the recipe runs");
    }
    assert_eq!(
        host.handed_out_again(),
        3 * 4,
        "runs 2 to 5 each reuse three"
    );
    assert_eq!(host.reloads(), 0);
}
