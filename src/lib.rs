//! # warren
//!
//! A host for procedural map generation: a Rust core of exact, fast primitives (priority writes,
//! tunnels, flood fill, status lists), Lua recipes that orchestrate generation phases, and TOML
//! region files that supply weights and constants.
//!
//! Data flows one way: region files → [`region::Registry`] → recipe ([`script::Host`]) →
//! primitives ([`gen`]) → [`map::Map`] → [`render`].

#![warn(missing_docs)]

pub mod batch;
pub mod check;
pub mod error;
pub mod gen;
pub mod map;
pub mod region;
pub mod render;
pub mod rng;
pub mod script;
pub mod stats;
pub mod watch;

pub use error::{Error, Result};
pub mod cli;
pub mod commands;
pub mod frames;
pub mod output;
pub mod run;

pub use run::generate;
