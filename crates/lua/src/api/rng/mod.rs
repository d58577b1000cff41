//! `ctx.rng` and its streams, the run's seeded generators: their methods ([`draws`]),
//! `math.random` ([`random`]), and the fast paths of the calls made once per draw
//! (`fast.rs`, and `math.random`'s own in [`random`]).

pub mod draws;
mod fast;
pub mod random;

pub use draws::{weight_problem, METHODS};
pub use fast::install as install_fast;

/// The declarations and argument readers of the rngs' fast methods and `math.random`, for the
/// test that keeps them in step (`tests/lua/api/fast_args.rs`).
pub fn fast_readers() -> Vec<(
    &'static crate::api::decl::Decl,
    &'static [crate::api::fast::args::Read],
)> {
    fast::METHODS
        .iter()
        .chain([&random::RANDOM])
        .map(|m| (m.decl, m.reads))
        .collect()
}

use crate::api::decl::Owner;
use crate::api::shared::Shared;
use mlua::{MetaMethod, UserData, UserDataFields, UserDataMethods};
use warren_core::rng::Rng;

/// A random number generator as a Lua userdata.
pub type LuaRng = Shared<Rng>;

impl UserData for LuaRng {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // What `tostring(rng)` shows (mlua would name the Rust type, `Shared<Rng>`).
        fields.add_meta_field(MetaMethod::Type, Owner::Rng.type_name());
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        draws::register(methods);
    }
}
