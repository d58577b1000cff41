//! Region internals: resolving, explaining, schema, shapes, error text, the registry cache and
//! the build ID it is keyed by.

/// The binary's build ID, which keys the cache.
mod build_id;
/// The registry cache.
mod cache;
/// Errors and their text.
mod error;
/// `explain`: a region's keys and where each value came from.
mod explain;
/// Resolving a region's values.
mod resolve;
/// The region schema: key ranges and documented defaults.
mod schema;
/// Sections' shapes, their doc comments and the registry data.
mod shape;
