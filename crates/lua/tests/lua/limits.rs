//! The `[limits]` of the region files and the host's budgets: values a region file gives become
//! the defaults, and a value above what the user allows is clamped, with a warning at its place.

use crate::common::TEST_TERRAIN as TERRAIN;
use warren_core::region::{Registry, Source};
use warren_lua::Limits;

#[test]
fn limits_from_the_regions_become_the_defaults() {
    let sources = vec![Source {
        path: "regions/a.toml".into(),
        text: format!(
            "{TERRAIN}\n[limits]\nmax_instructions = 2_000_000\nmax_memory_mib = 64\nmax_seconds = 1.5\n"
        ),
    }];
    let registry = Registry::from_sources(sources).unwrap();
    let limits = Limits::from_region(&registry.limits);
    assert_eq!(limits.instructions, 2_000_000);
    assert_eq!(limits.memory, 64 << 20);
    assert_eq!(limits.time, std::time::Duration::from_millis(1500));
    let defaults = Registry::from_sources(vec![Source {
        path: "regions/a.toml".into(),
        text: TERRAIN.into(),
    }])
    .unwrap();
    assert_eq!(Limits::from_region(&defaults.limits), Limits::default());
}

#[test]
fn limits_above_what_the_user_allows_are_clamped_at_their_place() {
    // (key = value, the budget the user allows, where the key is, what stays in force)
    let cases = [
        (
            "max_instructions = 400_000_001",
            "regions/bad.toml:3:20",
            "400000000 instructions",
        ),
        ("max_memory_mib = 513", "regions/bad.toml:3:18", "512 MiB"),
        ("max_seconds = 4.5", "regions/bad.toml:3:15", "4 s"),
    ];
    for (line, place, allowed) in cases {
        let sources = vec![
            Source {
                path: "regions/a.toml".into(),
                text: TERRAIN.into(),
            },
            Source {
                path: "regions/bad.toml".into(),
                text: format!("# raises a budget\n[limits]\n{line}\n"),
            },
        ];
        let registry = Registry::from_sources(sources).unwrap();
        let resolved = Limits::default().lowered_by(&registry);
        assert_eq!(resolved.limits, Limits::default(), "{line}");
        assert_eq!(resolved.warnings.len(), 1, "{line}");
        let w = &resolved.warnings[0];
        assert!(w.starts_with(&format!("{place}: limits.")), "{w}");
        assert!(w.contains(&format!("so {allowed} applies")), "{w}");
    }
}

/// A binding's charge (a rectangle fill, charged for its cells) and then `n` turns of a Lua
/// loop.
const CHARGE_THEN_LOOP: &str = r#"
return {
  params = {
    width = { default = 32 }, height = { default = 32 },
    n = { default = 0, min = 0, max = 100 },
  },
  generate = function(map, ctx)
    map:fill_rect({ x = 0, y = 0, w = map.width, h = map.height }, "floor")
    local sum = 0
    for i = 1, ctx.params.n do sum = sum + i end
  end,
}
"#;

#[test]
fn the_instruction_limit_is_exact_after_a_bindings_charge() {
    // Each turn of the loop after the first costs the same (its backward jump), so the least
    // budget that lets the run finish grows by that much a turn. When a binding's charge was
    // counted beside the Lua counter, the counter ran out only that charge past the limit, and
    // the instructions after it ran free (the least budget stood still).
    let dir = tempfile::tempdir().unwrap();
    let least: Vec<u64> = (1..7)
        .map(|n| {
            crate::common::least_budget(
                dir.path(),
                CHARGE_THEN_LOOP,
                &[("n", &n.to_string())],
                None,
            )
        })
        .collect();
    let steps: Vec<u64> = least.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(
        steps.iter().all(|&s| s == steps[0] && s > 0),
        "least budgets {least:?}: not one step a turn"
    );
}
