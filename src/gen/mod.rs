//! Pure generation primitives: no Lua, no files. Each module owns one algorithm.
pub mod town;
