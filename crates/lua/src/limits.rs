//! Which budgets a generation gets. The user sets them (`--max-instructions`, `--max-memory`,
//! `--max-seconds`, else warren's defaults); a region set's `[limits]` may only lower them.
//! Region files may come from strangers, so data can never raise a limit: a value above the
//! one in force is clamped to it, with a warning that names the file, line and column.

use crate::Limits;
use std::time::Duration;
use warren_core::region::{LimitsDef, Registry};

/// The budgets the user asks for: each a command-line flag's value, or `None` for warren's
/// default.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Requested {
    /// `--max-instructions`.
    pub instructions: Option<u64>,
    /// `--max-memory`, in MiB.
    pub memory_mib: Option<u64>,
    /// `--max-seconds`.
    pub seconds: Option<f64>,
}

impl Requested {
    /// The limits the user allows: each flag given, else warren's default. `--max-seconds` must
    /// be a number of seconds in (0, 86400].
    pub fn limits(&self) -> Result<Limits, String> {
        let mut limits = Limits::default();
        if let Some(n) = self.instructions {
            limits.instructions = n;
        }
        if let Some(mib) = self.memory_mib {
            limits.memory = usize::try_from(mib)
                .ok()
                .and_then(|m| m.checked_mul(1 << 20))
                .unwrap_or(usize::MAX);
        }
        if let Some(secs) = self.seconds {
            if !(secs.is_finite() && secs > 0.0 && secs <= 86_400.0) {
                return Err(format!(
                    "--max-seconds {secs} must be a number of seconds in (0, 86400]"
                ));
            }
            limits.time = Duration::from_secs_f64(secs);
        }
        Ok(limits)
    }
}

/// The budgets of a generation and what the region files asked for in vain.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    /// The limits in force.
    pub limits: Limits,
    /// One warning per `[limits]` key above the limit the user allows, each starting with the
    /// key's `file:line:col`.
    pub warnings: Vec<String>,
}

impl Limits {
    /// Warren's defaults, lowered (never raised) by a region set's `[limits]`. (No warnings:
    /// see [`Limits::lowered_by`] for those.)
    pub fn from_region(def: &LimitsDef) -> Limits {
        lower(Limits::default(), def).0
    }

    /// These limits (what the user allows), lowered where `registry`'s `[limits]` asks for
    /// less. A key asking for more is clamped to the limit in force and reported.
    pub fn lowered_by(self, registry: &Registry) -> Resolved {
        let (limits, clamped) = lower(self, &registry.limits);
        let warnings = clamped
            .into_iter()
            .map(|c| {
                let place = registry
                    .limits_at
                    .get(c.key)
                    .map_or_else(|| "[limits]".to_string(), |p| p.to_string());
                format!(
                    "{place}: limits.{} = {} is above the limit in force ({}); region files may \
                     only lower limits, so {} applies (raise it with {})",
                    c.key, c.asked, c.allowed, c.allowed, c.flag
                )
            })
            .collect();
        Resolved { limits, warnings }
    }
}

/// A `[limits]` key that asked for more than the limit in force.
struct Clamped {
    key: &'static str,
    asked: String,
    allowed: String,
    flag: &'static str,
}

/// `ceiling` lowered by `def`, and the keys that asked for more than `ceiling`.
fn lower(ceiling: Limits, def: &LimitsDef) -> (Limits, Vec<Clamped>) {
    let mut out = ceiling;
    let mut clamped = Vec::new();
    if let Some(v) = def.max_instructions {
        let asked = v.max(0) as u64;
        if asked > ceiling.instructions {
            clamped.push(Clamped {
                key: "max_instructions",
                asked: v.to_string(),
                allowed: format!("{} instructions", ceiling.instructions),
                flag: "--max-instructions",
            });
        }
        out.instructions = asked.min(ceiling.instructions);
    }
    if let Some(v) = def.max_memory_mib {
        let asked = (v.max(0) as usize).saturating_mul(1 << 20);
        if asked > ceiling.memory {
            clamped.push(Clamped {
                key: "max_memory_mib",
                asked: v.to_string(),
                allowed: format!("{} MiB", ceiling.memory >> 20),
                flag: "--max-memory",
            });
        }
        out.memory = asked.min(ceiling.memory);
    }
    if let Some(asked) = def
        .max_seconds
        .and_then(|v| Duration::try_from_secs_f64(v).ok())
    {
        if asked > ceiling.time {
            clamped.push(Clamped {
                key: "max_seconds",
                asked: asked.as_secs_f64().to_string(),
                allowed: format!("{} s", ceiling.time.as_secs_f64()),
                flag: "--max-seconds",
            });
        }
        out.time = asked.min(ceiling.time);
    }
    (out, clamped)
}
