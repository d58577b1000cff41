//! Turning `map:snapshot` on for a [`Host`]: snapshots kept and collected after the run, or
//! streamed to a [`SnapshotSink`](crate::SnapshotSink) as the recipe takes them.

use super::api::map::debug::{SharedSink, Snapshot, Snapshots};
use super::Host;

impl Host {
    /// Keeps (`true`) or ignores (`false`, the default) the recipe's `map:snapshot` calls in
    /// later generations. Ends streaming ([`Host::stream_snapshots`]).
    pub fn record_snapshots(&self, on: bool) {
        self.set_snapshot_sink(None);
        self.install_snapshots(on);
    }

    /// Streams the recipe's snapshots in later generations to `sink` (each call starts a new
    /// count of [`MAX_SNAPSHOTS`](crate::api::map::debug::MAX_SNAPSHOTS)), instead of keeping
    /// them: nothing is collected by [`Host::take_snapshots`] and no copy of the map is held.
    /// [`Host::record_snapshots`] ends it.
    pub fn stream_snapshots(&self, sink: SharedSink) {
        self.set_snapshot_sink(Some(sink));
        self.install_snapshots(true);
    }

    /// Turns snapshots on or off in the Lua state, with the sink set on the host: also called
    /// when a dirty state is loaded again.
    pub(crate) fn install_snapshots(&self, on: bool) {
        self.note_snapshots(on);
        let lua = self.lua();
        crate::state::state(&lua).snapshots.set(on);
        lua.set_app_data(Snapshots {
            sink: self.snapshot_sink(),
            ..Snapshots::default()
        });
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
