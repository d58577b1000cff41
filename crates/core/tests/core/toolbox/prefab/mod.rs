//! Vault templates' parts: the glyph grid and substitutions.

/// The template grid: glyphs, orientations, problems.
mod grid;
/// Substitutions in a template.
mod subst;
