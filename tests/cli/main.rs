//! The `warren` package's tests, one binary (`cargo test --test cli`): the real binary run as a
//! user runs it, one module per command or concern. Tests of the Lua host and the shipped
//! recipes live in `crates/lua/tests/lua/`, of the core in `crates/core/tests/core/`;
//! `tests/README.md` says where a new test goes.

mod common;

/// No crate's modules reach each other in a circle.
mod architecture;
/// `warren batch` and `warren stats merge`: same seeds, same statistics, any jobs or shards.
mod batch;
/// `warren batch` held to its memory and signal limits.
mod batch_limits;
/// Big maps in about 5 bytes a cell (the process's peak memory).
mod big_maps;
/// `warren serve` in headless Chromium.
mod browser;
/// `warren check` over fixtures with seeded mistakes.
mod check;
/// `warren run`: formats, determinism across processes, exit codes, atomic output.
mod cli;
/// `warren run scripts/dungeon.lua`: five levels whose stairs line up.
mod cli_dungeon;
/// Stock Lua's `io`, `package.path`, `loadfile`/`dofile` as a recipe run by the binary sees them.
mod compat;
/// The k-th map of a batch equals a fresh `warren run --seed k`.
mod determinism;
/// The documentation: every page linked, every command documented, every example run.
mod docs;
/// The exit without the libraries' handlers loses no output.
mod exit;
/// The JSON document and the Tiled export, read back.
mod export;
/// The first ten minutes: terminal width, finding regions, command-line conventions.
mod first_run;
/// `--frames` and `--layer`.
mod frames;
/// Limits that hold for every command: outputs never on inputs, capped messages, budgets.
mod hardening;
/// Transparent huge pages held back through a batch's start-up.
mod huge_pages;
/// Every crate's tests are one binary naming every file (`tests/README.md`).
mod layout;
/// The library's functions called directly (its former unit tests), one module per `src/` area.
mod library;
/// Lua errors as the binary prints them: line, traceback, odd error values.
mod lua_errors;
/// One memory account per generation (`--max-memory`).
mod memory;
/// `--max-memory` against the process's peak resident memory, hostile recipes.
mod memory_rss;
/// A modder's mistakes in region files: one error each, located, in plain words.
mod modders;
/// Memory a map frees is kept for the next (page faults of a batch).
mod page_reuse;
/// `scripts/townmaze.lua` through the binary: parameters, checks, TownMaze's promises.
mod recipe_townmaze;
/// `warren serve` over plain HTTP: exports, bad requests, live reloads.
mod serve;
/// Vault templates through the binary: the recipe, located `[[prefab]]` mistakes, bad tags.
mod vaults;
/// `warren watch` driven through real file edits.
mod watch;
