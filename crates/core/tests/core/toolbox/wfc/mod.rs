//! Wave function collapse: the tool (sample, patterns, collapse) and the pattern extraction.

/// Patterns cut from a sample.
mod patterns;
/// The tool: samples, their patterns, collapsing a wave over an area.
mod tool;
