//! Turning `map:snapshot` on for a [`Host`] and collecting what it recorded.

use super::api::map::debug::{Snapshot, Snapshots};
use super::Host;

impl Host {
    /// Keeps (`true`) or ignores (`false`, the default) the recipe's `map:snapshot` calls in
    /// later generations.
    pub fn record_snapshots(&self, on: bool) {
        self.note_snapshots(on);
        let lua = self.lua();
        crate::state::state(&lua).snapshots.set(on);
        if lua.app_data_ref::<Snapshots>().is_none() {
            lua.set_app_data(Snapshots::default());
        }
    }

    /// The snapshots recorded since the last call, oldest first.
    pub fn take_snapshots(&self) -> Vec<Snapshot> {
        let lua = self.lua();
        let frames = lua
            .app_data_mut::<Snapshots>()
            .map(|mut s| std::mem::take(&mut s.frames));
        frames.unwrap_or_default()
    }
}
