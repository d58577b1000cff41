//! `warren::render` (src/render/): pictures encoded.

/// `gif.rs`: frames as one looping GIF.
mod gif;
/// `lzw.rs`: the GIF frames' LZW compressor.
mod lzw;
/// `png.rs`: views stacked and drawn as PNG.
mod png;
