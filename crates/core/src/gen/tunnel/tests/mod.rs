//! Behaviour of the whole primitive on hand-drawn maps, and property tests on random ones.

mod doors;
mod flags;
mod forced_turns;
mod properties;
mod styles;
mod termination;
mod validation;
