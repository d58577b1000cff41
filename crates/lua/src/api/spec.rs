//! The shape of the legacy class descriptions in [`super::entries`].

/// A table type (an options table, a record a function returns): LuaLS `---@class`.
#[derive(Clone, Copy, Debug)]
pub struct Class {
    /// Its LuaLS name (`warren.WriteOptions`).
    pub name: &'static str,
    /// What it is.
    pub doc: &'static str,
    /// `(name, type, doc)`; a name ending in `?` is optional.
    pub fields: &'static [(&'static str, &'static str, &'static str)],
}
