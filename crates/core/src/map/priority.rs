//! Incursion's write priorities (seed `000`, `Defines.h:4307-4320`).
//!
//! A write of priority P to a cell succeeds unless the cell's current priority is strictly higher
//! than P, so later phases can only overwrite what matters less than they do.

/// Open rock, the lowest priority anything is written with.
pub const EMPTY: u8 = 1;
/// The walls a tunnel writes around its floor.
pub const CORRIDOR_WALL: u8 = 10;
/// Room walls.
pub const ROOM_WALL: u8 = 20;
/// Room walls carrying torches.
pub const ROOM_WALL_TORCH: u8 = 30;
/// Decorated or modified room walls.
pub const ROOM_WALL_MODIFIER: u8 = 40;
/// Pillars inside rooms.
pub const PILLARS: u8 = 50;
/// Rock streamers (veins of another rock).
pub const ROCK_STREAMER: u8 = 60;
/// Mineral deposits.
pub const DEPOSIT: u8 = 65;
/// Room and corridor floors.
pub const ROOM_FLOOR: u8 = 70;
/// Furniture standing on room floors.
pub const ROOM_FURNITURE: u8 = 80;
/// Rivers, chasms and lava.
pub const RIVER_STREAMER: u8 = 90;
/// Vaults and special rooms.
pub const VAULT: u8 = 100;
/// Features that sit on floors (stairs, altars).
pub const FEATURE_FLOOR: u8 = 110;
/// The highest priority; the map edge is written with it.
pub const MAX: u8 = 120;

/// Every named priority, lowest first, as `(lua name, value)`.
pub const NAMED: [(&str, u8); 14] = [
    ("EMPTY", EMPTY),
    ("CORRIDOR_WALL", CORRIDOR_WALL),
    ("ROOM_WALL", ROOM_WALL),
    ("ROOM_WALL_TORCH", ROOM_WALL_TORCH),
    ("ROOM_WALL_MODIFIER", ROOM_WALL_MODIFIER),
    ("PILLARS", PILLARS),
    ("ROCK_STREAMER", ROCK_STREAMER),
    ("DEPOSIT", DEPOSIT),
    ("ROOM_FLOOR", ROOM_FLOOR),
    ("ROOM_FURNITURE", ROOM_FURNITURE),
    ("RIVER_STREAMER", RIVER_STREAMER),
    ("VAULT", VAULT),
    ("FEATURE_FLOOR", FEATURE_FLOOR),
    ("MAX", MAX),
];

/// Looks a priority up by name, case-insensitively (`"room_floor"` or `"ROOM_FLOOR"`).
pub fn by_name(name: &str) -> Option<u8> {
    NAMED
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, v)| v)
}

/// Whether a write at priority `incoming` may replace a cell holding priority `current`.
#[inline]
pub fn wins(incoming: u8, current: u8) -> bool {
    current <= incoming
}
