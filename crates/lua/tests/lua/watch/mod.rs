//! Hot reload: file change batches, the hot registry, live recipes (formerly the unit tests of
//! `crates/lua/src/watch/`).

/// File change batches (`watch/changes.rs`).
mod changes;
/// A live recipe reloads what changed and keeps the rest (`watch/live.rs`).
mod live;
/// The hot registry keeps the last good one (`watch/registry.rs`).
mod registry;
