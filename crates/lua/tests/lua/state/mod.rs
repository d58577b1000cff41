//! The Lua state's parts: the prelude, frozen and read-only tables, `ctx.regions` built on the
//! stack, the FFI's constants (formerly the unit tests of `sandbox.rs`, `readonly.rs`,
//! `stack_ser.rs` and `ffi.rs`).

/// The collector held while the host builds a state, then settled (`sandbox.rs`, `lgc.c`).
mod collector;
/// The FFI's constants are the patched Lua's (`ffi.rs`).
mod ffi;
/// The prelude compiled by the build is the one the host parses (`sandbox.rs`).
mod prelude;
/// Frozen and read-only tables (`readonly.rs`).
mod readonly;
/// `ctx.regions` built on the Lua stack, as mlua's serializer and a freeze built it (`stack_ser.rs`).
mod stack_ser;
