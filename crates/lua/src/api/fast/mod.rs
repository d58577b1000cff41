//! Fast calls: the methods a recipe calls once per cell or per draw (`map:get(x, y)`,
//! `map:set(x, y, terrain)`, `rng:int(lo, hi)`, …), and the calls every recipe makes per phase
//! where mlua's callback path cost more than a small map's phase itself (`map:fill`, `map:tag`,
//! the rooms phases), as plain Lua C functions, without mlua's callback machinery. This folder
//! is the machinery ([`closures`]), the argument readers ([`args`]) and the options tables the
//! fast phases read ([`options`]);
//! the methods themselves live with their objects (`map/fast.rs`, `map/phases.rs`,
//! `rng/fast.rs`, `rng/random.rs`, `rects/fast.rs`).
//!
//! A fast method names the declaration its binding answers for (the binding's own `const`
//! [`Decl`](crate::api::decl::Decl)) and the Rust type it takes each argument as
//! (`fast_method!`); its argument reader is generated from both ([`args`]): the arity the
//! declaration allows, each argument's slot, each integer's declared range, each argument
//! read by its type's reader. A test checks that every fast method answers for its binding's
//! declaration and reads each argument as a reader of its declared type. `math.random` and the
//! lists' `#`, which have no declaration in warren's API, name Lua's own signature.
//!
//! Each is a C closure that answers the common case straight from the Lua stack, through the
//! value's own cell ([`super::shared`]), and passes every other call to the declared binding
//! with the same arguments, so checks, messages, budget charges and results are the binding's
//! own: a fast call is only ever the binding's answer, sooner.
//! - The run's map (`map::install_fast`): the closures sit in its field table, so
//!   `map:priority(x, y)` finds them before the map's methods table; they answer calls on that
//!   map only. Other maps (`ctx.above`) keep the declared bindings.
//!   The phases that take the map first sit in `warren.gen`'s table.
//! - Rngs (`rng::install_fast`) and rectangle lists (`rects::install_items`): the closures
//!   replace the declared bindings in the methods table every rng (list) shares; an rng or a
//!   list keeps a pointer to its cell as its user value (streams and lists from birth,
//!   [`new_pointing`]; other rngs from their first fast call on), and a fast call tells one by
//!   its metatable.
//! - `math.random` (`rng::random`): draws from `ctx.rng` while a generation runs.
//!
//! The cell's borrow flag is the one the bindings use, so a fast call made while a binding
//! holds the value (from a callback, an `__index`, a finalizer) takes the declared path and
//! gets the binding's "in use" error.

pub mod args;
pub mod closures;
pub mod options;
pub mod read;

pub(in crate::api) use args::fast_method;

pub(in crate::api) use closures::{
    answer, answer_with, bytes_charged, cell_at, charged, declared, install_closures,
    install_protected, metatable_of, numbered_from, push_closure, push_new_shared, Answer,
    FastMethod, CELL, FAST_ID_BASE, RECEIVER,
};
pub use closures::{keep_cell, new_pointing};
