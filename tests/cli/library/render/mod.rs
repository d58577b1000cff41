//! `warren::render` (src/render/): pictures encoded.

/// `gif.rs`: frames as one looping GIF.
mod gif;
/// `png.rs`: views stacked and drawn as PNG.
mod png;
