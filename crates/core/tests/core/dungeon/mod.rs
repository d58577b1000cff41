//! The dungeon's steps (`gen::dungeon`): panels, streamers, vaults, rooms, connections, the
//! fix-up and stairs, each on small hand-made maps.

mod connect;
mod fixup;
mod panels;
mod path;
mod rooms;
mod stairs;
mod streamer;
mod test_support;
mod vault;
