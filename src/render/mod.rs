//! Renderers: turn a map (through a [`View`]) into text, ANSI colour, JSON or PNG.
//!
//! A renderer never calls Lua and never reads files; it sees only the finished map.

pub mod gif;
pub mod json;
pub mod layers;
pub mod png;
pub mod text;
pub mod view;

pub use layers::LayerChoice;
pub use view::View;

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One line per row, glyphs from the terrain table.
    Ascii,
    /// The same with 24-bit colour escapes.
    Ansi,
    /// The JSON object of the output contract.
    Json,
    /// One coloured square per cell.
    Png,
}

impl Format {
    /// Every format's name.
    pub const NAMES: [&'static str; 4] = ["ascii", "ansi", "json", "png"];

    /// Parses a format name.
    pub fn from_name(name: &str) -> Option<Format> {
        match name {
            "ascii" => Some(Format::Ascii),
            "ansi" => Some(Format::Ansi),
            "json" => Some(Format::Json),
            "png" => Some(Format::Png),
            _ => None,
        }
    }

    /// The format a file name suggests (`.png`, `.json`, `.txt`).
    pub fn from_extension(path: &std::path::Path) -> Option<Format> {
        match path.extension()?.to_str()? {
            "png" => Some(Format::Png),
            "json" => Some(Format::Json),
            "txt" | "map" => Some(Format::Ascii),
            "ans" => Some(Format::Ansi),
            _ => None,
        }
    }
}
