//! Output formats: layers, text, JSON, Tiled, LDtk.

/// JSON output.
mod json;
/// The layers a map is shown by.
mod layers;
/// LDtk output.
mod ldtk;
/// Text output.
mod text;
/// Tiled output.
mod tiled;
