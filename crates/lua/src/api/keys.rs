//! Lua strings for the table keys bindings read and write most, created once per state.
//!
//! Looking a field up with a Rust `&str` makes Lua intern the string on every call; reusing
//! these handles keeps a binding's per-call cost to a table lookup.

use mlua::{Lua, String as LuaString};

macro_rules! keys {
    ($($name:ident),* $(,)?) => {
        /// Interned key strings, one field per key name.
        pub struct Keys {
            $(
                #[doc = concat!("The key `", stringify!($name), "`.")]
                pub $name: LuaString,
            )*
        }

        impl Keys {
            /// Creates every key in `lua`.
            pub fn new(lua: &Lua) -> mlua::Result<Keys> {
                Ok(Keys { $($name: lua.create_string(stringify!($name))?,)* })
            }
        }
    };
}

keys!(x, y, w, h);

/// The interned keys of a sandboxed state.
///
/// # Panics
/// If `lua` was not made by the sandbox (a bug in warren).
pub fn keys(lua: &Lua) -> mlua::AppDataRef<'_, Keys> {
    lua.app_data_ref::<Keys>()
        .expect("warren Lua state without interned keys")
}
