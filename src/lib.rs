//! # warren (the command line)
//!
//! The `warren` binary's own modules: argument definitions ([`cli`]), one module per
//! subcommand ([`commands`]), batches of many maps ([`batch`]), statistics over them
//! ([`stats`]), PNG/GIF rendering ([`render`]), step-by-step frames ([`frames`]), atomic
//! output files ([`output`]), the browser preview ([`serve`]) and how the binary takes memory
//! ([`memory`]).
//!
//! Games do not depend on this crate: they embed `warren-core` (maps and phases, no Lua) or
//! `warren-lua` (the recipe host).

#![warn(missing_docs)]

pub mod batch;
pub mod cli;
pub mod commands;
pub mod frames;
pub mod memory;
pub mod output;
pub mod render;
pub mod serve;
pub mod stats;
