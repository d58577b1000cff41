//! Region internals: resolving, explaining, schema, shapes, error text, the parse cache and
//! the build ID it is keyed by.

/// The binary's build ID, which keys the parse cache.
mod build_id;
/// The parse cache.
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
