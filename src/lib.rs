//! # warren
//!
//! A host for procedural map generation: a Rust core of exact, fast primitives (priority writes,
//! tunnels, flood fill, status lists), Lua recipes that orchestrate generation phases, and TOML
//! region files that supply weights and constants.
//!
//! Data flows one way: region files → [`region::Registry`] → recipe → primitives → [`map::Map`]
//! → renderer.

#![warn(missing_docs)]

pub mod gen;
pub mod map;
pub mod rng;
