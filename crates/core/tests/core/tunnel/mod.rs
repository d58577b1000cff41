//! The tunnel primitive (`gen::tunnel`): whole tunnels on hand-drawn maps, property tests on
//! random ones, and its steering functions.

mod doors;
mod flags;
mod forced_turns;
mod properties;
mod steer;
mod styles;
mod termination;
mod test_map;
mod validation;
