//! # warren-core
//!
//! The part of warren a game can embed without Lua or a command line: the map model with
//! Incursion's priority writes ([`map`]), every generation phase the Lua API offers as plain
//! Rust ([`gen`]: tunnels, connectivity and fix-up, rooms and corridors, Incursion levels,
//! TownMaze and status lists, and the designer's toolbox: fields, noise, distance maps, field of
//! view, paths, cellular automata, drunkard's walks, BSP, mazes, diffusion-limited aggregation,
//! Voronoi regions and Brogue's loops and lakes), the typed region registry ([`region`]), seeded
//! randomness ([`rng`]), text and JSON output ([`render`]) and per-map measurements ([`stats`]).
//!
//! Data flows one way: region files → [`region::Registry`] → phases ([`gen`]) →
//! [`map::Map`] → [`render`].

#![warn(missing_docs)]

pub mod cache;
pub mod gen;
pub mod input;
pub mod map;
pub mod message;
pub mod region;
pub mod render;
pub mod rng;
pub mod stats;
