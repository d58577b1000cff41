//! Pure generation primitives: no Lua, no files. Each module owns one algorithm.
pub mod area;
pub mod bsp;
pub mod cellular;
pub mod connectivity;
pub mod doors;
pub mod drunkard;
pub mod dungeon;
pub mod field;
pub mod maze;
pub mod meter;
pub mod passage;
pub mod path;
pub mod rooms;
pub mod tool_error;
pub mod town;
pub mod tunnel;
