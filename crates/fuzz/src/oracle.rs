//! The oracles beyond "no crash": every stop within its clock budget + [`STOP_SLACK`], peak
//! resident memory within the memory limit + [`RSS_OVERHEAD`], and maps that are the same
//! bytes however the host got to them ([`fingerprint`]).

use crate::Finding;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use warren_core::map::Map;
use warren_core::render::json::{self, LevelInfo, RunInfo};
use warren_lua::{Limits, ParamValues};

/// How long after its clock budget a generation may still end (issue 38: "every stop within
/// budget + 100 ms").
pub const STOP_SLACK: Duration = Duration::from_millis(100);

/// What a finding of a late stop says.
pub const LATE: &str = "over its clock budget";

/// What the process may hold beyond the memory limit: the overhead `docs/limits.md` states
/// ("peak resident memory within `--max-memory` + 48 MiB").
pub const RSS_OVERHEAD: u64 = 48 << 20;

/// One of the kernel's memory figures for this process, in bytes (`VmRSS`, `VmHWM`, from
/// `/proc/self/status`).
pub fn status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib = line[field.len()..]
        .trim_start_matches(':')
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse::<u64>()
        .ok()?;
    Some(kib << 10)
}

/// Starts a new peak (`VmHWM`) at the current resident size: writing 5 to
/// `/proc/self/clear_refs` (Linux 4.0 and later).
pub fn reset_peak() -> std::io::Result<()> {
    std::fs::write("/proc/self/clear_refs", "5")
}

/// A generation being watched: its start, and what the process held then.
pub struct Watch {
    started: Instant,
    resident: u64,
}

impl Watch {
    /// Starts watching: a fresh peak and the clock. Panics where the kernel cannot be asked (the
    /// oracle would be silent, not passed).
    pub fn start() -> Watch {
        reset_peak().expect("warren-fuzz needs Linux's /proc/self/clear_refs to measure peaks");
        let resident = status_bytes("VmRSS").expect("warren-fuzz reads VmRSS");
        Watch {
            started: Instant::now(),
            resident,
        }
    }

    /// Checks the generation that just ended (`what`: which one) against `limits`: it ended
    /// within the clock budget + [`STOP_SLACK`], and the process's peak resident memory since
    /// [`Watch::start`] grew by at most the memory limit + [`RSS_OVERHEAD`].
    pub fn check(&self, limits: &Limits, what: &str) -> Result<(), Finding> {
        let took = self.started.elapsed();
        if took > limits.time + STOP_SLACK {
            return Err(Finding(format!(
                "{what} took {took:?}: {LATE} of {:?} + {STOP_SLACK:?}",
                limits.time
            )));
        }
        let peak = status_bytes("VmHWM").expect("warren-fuzz reads VmHWM");
        let grown = peak.saturating_sub(self.resident);
        let allowed = limits.memory as u64 + RSS_OVERHEAD;
        if grown > allowed {
            return Err(Finding(format!(
                "{what} took {} MiB more resident memory: over its limit of {} MiB + {} MiB",
                grown >> 20,
                limits.memory >> 20,
                RSS_OVERHEAD >> 20
            )));
        }
        Ok(())
    }
}

/// Everything a map says, as bytes: its JSON document (terrain, regions, rooms, corridors,
/// doors, stairs, spawns, stats, tags) followed by its debug layers. Two maps with the same
/// fingerprint write the same files.
pub fn fingerprint(map: &Map, seed: u64, params: &ParamValues) -> String {
    let params: BTreeMap<String, serde_json::Value> = warren_lua::run::params_json(params);
    let run = RunInfo {
        recipe: "fuzz",
        seed,
        params: &params,
    };
    let level = LevelInfo {
        seed,
        depth: 1,
        layer: None,
    };
    let mut out = json::to_string(&run, &[(map, level)]);
    for (name, layer) in &map.notes.layers {
        out.push_str(&format!("\nlayer {name}: {layer:?}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_figures_are_read_and_the_peak_follows_an_allocation() {
        let _alone = crate::MEASURING.lock().unwrap_or_else(|e| e.into_inner());
        let before = Watch::start();
        let rss = status_bytes("VmRSS").unwrap();
        assert!(rss > 1 << 20, "a test process holds more than 1 MiB: {rss}");
        // 200 MiB touched: the peak grows by about that, which is over a 64 MiB limit + 48.
        let block = vec![1u8; 200 << 20];
        std::hint::black_box(&block);
        drop(block);
        let small = Limits {
            instructions: 1,
            memory: 64 << 20,
            time: Duration::from_secs(60),
        };
        let err = before.check(&small, "the block").unwrap_err();
        assert!(err.0.contains("more resident memory"), "{err}");
        // A fresh peak after the block was freed: within the limit again.
        Watch::start().check(&small, "nothing").unwrap();
    }

    #[test]
    fn a_stop_past_the_clock_budget_is_a_finding() {
        let _alone = crate::MEASURING.lock().unwrap_or_else(|e| e.into_inner());
        let watch = Watch::start();
        std::thread::sleep(Duration::from_millis(130));
        let limits = Limits {
            instructions: 1,
            memory: 1 << 30,
            time: Duration::from_millis(20),
        };
        let err = watch.check(&limits, "the sleep").unwrap_err();
        assert!(err.0.contains("over its clock budget"), "{err}");
    }
}
