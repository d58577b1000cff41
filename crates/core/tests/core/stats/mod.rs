//! Per-map measurements: dead ends, measures, the packed planes and open bits they read.

/// Dead ends.
mod dead_ends;
/// The measurer and its built-in measures.
mod measure;
/// The open-cell bit rows.
mod open_bits;
/// Packing flag planes into bits.
mod pack;
