//! The `warren` library's own functions called directly, without the binary: the tests that
//! were `#[cfg(test)]` modules in `src/` (the library builds once for `cargo test`), one module
//! per area of `src/` and, below it, one file per source file.

/// `src/batch/`: file names, a worker's panic, metric typos, chunks, the journal, CPU placement.
mod batch;
/// `src/frames.rs`: the file names of `--frames`.
mod frames;
/// `src/memory.rs`, `src/memory/`: huge pages held back and let go; mimalloc's size classes.
mod memory;
/// `src/output.rs`: files written atomically.
mod output;
/// `src/render/`: PNG and GIF encoding.
mod render;
/// `src/serve/`: the page's address, queries, the recipe catalog, payloads, problems, hosts.
mod serve;
/// `src/stats/`: aggregates, columns, plots, records, seed plans, the font, the table's numbers.
mod stats;
