//! Pure generation primitives: no Lua, no files. Each module owns one algorithm.
pub mod connectivity;
pub mod doors;
pub mod dungeon;
pub mod meter;
pub mod passage;
pub mod rooms;
pub mod town;
pub mod tunnel;
