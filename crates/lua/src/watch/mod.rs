//! Hot reload: a debounced watcher over directories ([`Changes`]) and a registry that follows
//! its region files and keeps the last good version when an edit breaks them
//! ([`HotRegistry`]). `warren watch` builds on both.

pub mod changes;
pub mod live;
pub mod registry;

pub use changes::{Batch, Changes};
pub use live::LiveRecipe;
pub use registry::{HotRegistry, RegistryUpdate};
