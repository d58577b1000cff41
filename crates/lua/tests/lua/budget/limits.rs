//! Region files lower the limits in force but never raise them; the flags are checked
//! (`limits.rs`).

use std::time::Duration;
use warren_core::region::Registry;
use warren_core::region::Source;
use warren_lua::limits::Requested;
use warren_lua::Limits;

const TERRAIN: &str =
    "[[terrain]]\nname = \"rock\"\nglyph = \"#\"\ncolor = \"#000000\"\nsolid = true\n";

fn registry(limits: &str) -> Registry {
    Registry::from_sources(vec![Source {
        path: "regions/a.toml".into(),
        text: format!("{TERRAIN}[limits]\n{limits}"),
    }])
    .unwrap()
}

#[test]
fn region_files_lower_but_never_raise() {
    let r = registry("max_instructions = 2_000_000\nmax_memory_mib = 16384\nmax_seconds = 600\n");
    let got = Limits::default().lowered_by(&r);
    assert_eq!(got.limits.instructions, 2_000_000);
    assert_eq!(got.limits.memory, Limits::default().memory);
    assert_eq!(got.limits.time, Limits::default().time);
    assert_eq!(
        got.warnings,
        vec![
            "regions/a.toml:8:18: limits.max_memory_mib = 16384 is above the limit in force \
             (512 MiB); region files may only lower limits, so 512 MiB applies (raise it \
             with --max-memory)",
            "regions/a.toml:9:15: limits.max_seconds = 600 is above the limit in force (4 s); \
             region files may only lower limits, so 4 s applies (raise it with --max-seconds)",
        ]
    );
    assert_eq!(Limits::from_region(&r.limits), got.limits);
}

#[test]
fn a_raised_ceiling_lets_regions_ask_for_more_up_to_it() {
    let r = registry("max_seconds = 10\n");
    let ceiling = Requested {
        seconds: Some(20.0),
        ..Requested::default()
    }
    .limits()
    .unwrap();
    let got = ceiling.lowered_by(&r);
    assert_eq!(got.limits.time, Duration::from_secs(10));
    assert!(got.warnings.is_empty());
    let lower = Requested {
        seconds: Some(2.0),
        ..Requested::default()
    }
    .limits()
    .unwrap()
    .lowered_by(&r);
    assert_eq!(lower.limits.time, Duration::from_secs(2));
    assert_eq!(lower.warnings.len(), 1, "{:?}", lower.warnings);
    assert!(lower.warnings[0].contains("(2 s)"), "{:?}", lower.warnings);
}

#[test]
fn flags_are_checked() {
    let bad = Requested {
        seconds: Some(f64::NAN),
        ..Requested::default()
    };
    assert!(bad.limits().unwrap_err().contains("--max-seconds NaN"));
    let huge = Requested {
        memory_mib: Some(u64::MAX),
        ..Requested::default()
    };
    assert_eq!(huge.limits().unwrap().memory, usize::MAX);
}
