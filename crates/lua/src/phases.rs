//! `ctx.phase(name)`: wall-clock time per generation phase.
//!
//! A recipe calls `ctx.phase("rooms")` when its rooms phase ends; the clock adds the time since
//! the previous mark (or since the generation started) to that name. Timing varies from run to
//! run, so it never reaches the map, its annotations or `warren run`'s JSON: only
//! [`Host::phases`](super::Host::phases) reports it (for `warren batch`).

use std::time::{Duration, Instant};

/// Phase times of the latest generation. Names are kept between generations so that marking a
/// phase does not allocate once the name has been seen.
#[derive(Debug)]
pub struct PhaseClock {
    started: Instant,
    total: Duration,
    last: Instant,
    names: Vec<String>,
    times: Vec<Option<Duration>>,
}

impl Default for PhaseClock {
    fn default() -> Self {
        let now = Instant::now();
        PhaseClock {
            started: now,
            total: Duration::ZERO,
            last: now,
            names: Vec::new(),
            times: Vec::new(),
        }
    }
}

impl PhaseClock {
    /// Forgets the previous generation's times and starts timing from now, which it returns.
    pub fn start(&mut self) -> Instant {
        self.times.iter_mut().for_each(|t| *t = None);
        self.started = Instant::now();
        self.total = Duration::ZERO;
        self.last = self.started;
        self.started
    }

    /// Ends the generation: its whole time is [`Self::total`].
    pub fn stop(&mut self) {
        self.total = self.started.elapsed();
    }

    /// The latest generation's whole time, from [`Self::start`] to [`Self::stop`].
    pub fn total(&self) -> Duration {
        self.total
    }

    /// Ends phase `name`: adds the time since the previous mark to it (repeated names add up).
    pub fn mark(&mut self, name: &[u8]) {
        let now = Instant::now();
        let spent = now - self.last;
        self.last = now;
        let i = match self.names.iter().position(|n| n.as_bytes() == name) {
            Some(i) => i,
            None => {
                self.names.push(String::from_utf8_lossy(name).into_owned());
                self.times.push(None);
                self.names.len() - 1
            }
        };
        self.times[i] = Some(self.times[i].unwrap_or_default() + spent);
    }

    /// The phases marked during the latest generation with their times, in the order their names
    /// were first seen.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Duration)> {
        self.names
            .iter()
            .zip(&self.times)
            .filter_map(|(n, t)| t.map(|t| (n.as_str(), t)))
    }
}
