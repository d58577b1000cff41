//! Error places and tracebacks (formerly the unit tests of `located.rs` and `traceback.rs`).

/// Error places: located messages and the innermost script frame (`located.rs`).
mod located;
/// Values written readably in tracebacks (`traceback.rs`).
mod traceback;
