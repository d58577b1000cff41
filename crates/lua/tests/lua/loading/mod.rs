//! Loading a recipe: the lexer, refused chunks, `require`'s names, parameters and their
//! declarations (formerly the unit tests of `lex.rs`, `source.rs`, `require.rs`, `params.rs`
//! and `recipe.rs`).

/// Recipes loaded from the bytecode the host compiled (`compiled.rs`).
mod compiled;
/// The small Lua lexer (`lex.rs`).
mod lex;
/// Parameters resolved from `--set` assignments (`params.rs`).
mod params;
/// Parameter declarations' order and places (`recipe.rs`).
mod recipe;
/// Module names and the search path (`require.rs`).
mod require;
/// Chunks refused before Lua parses them (`source.rs`).
mod source;
