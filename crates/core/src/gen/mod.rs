//! Pure generation primitives: no Lua, no files. Each module owns one algorithm.
//!
//! The designer's toolbox — [`field`] (float grids: [`field::noise`], [`field::distance`],
//! [`field::fov`]), [`path`], [`cellular`], [`drunkard`], [`bsp`], [`maze`], [`dla`],
//! [`voronoi`], [`loops`], [`lakes`], [`prefab`] (vault templates) and [`wfc`] — shares one
//! shape: each works on an [`area::Area`] (the whole map, a rectangle or room, or a mask),
//! writes through priority writes with the brushes it is given, draws from the [`crate::rng::Rng`]
//! it is given, reports its work to a [`meter::Meter`], and fails with a
//! [`tool_error::ToolError`] that names the bad value and its range.
pub mod area;
pub mod bsp;
pub mod cellular;
pub mod connectivity;
pub mod dla;
pub mod doors;
pub mod drunkard;
pub mod dungeon;
pub mod field;
pub mod lakes;
pub mod loops;
pub mod maze;
pub mod meter;
pub mod passage;
pub mod path;
pub mod prefab;
pub mod rooms;
pub mod tool_error;
pub mod town;
pub mod tunnel;
pub mod voronoi;
pub mod wfc;
