//! Test helper: maps drawn as ASCII rows, and a plain tunnel configuration.
//!
//! | glyph | terrain        | solid | priority      | region         |
//! |-------|----------------|-------|---------------|----------------|
//! | `#`   | rock           | yes   | 0 (fresh)     | none           |
//! | `.`   | floor          | no    | ROOM_FLOOR    | `room`         |
//! | `o`   | floor          | no    | ROOM_FLOOR    | `hall`         |
//! | `W`   | room wall      | yes   | ROOM_WALL     | `room`         |
//! | `c`   | corridor wall  | yes   | CORRIDOR_WALL | `old corridor` |
//! | `,`   | corridor floor | no    | ROOM_FLOOR    | `old corridor` |
//! | `V`   | vault wall     | yes   | VAULT         | `vault`        |
//! | `X`   | map edge       | yes   | MAX           | none           |
//! | `+`   | closed door    | yes   | ROOM_WALL     | `room`         |
//!
//! A `+` is a door standing in a room wall: the cell is drawn as a closed door, keeps the wall's
//! priority and is recorded as a door.
//!
//! Tunnels dug with [`config`] use `tunnel floor` (`:`) and `tunnel wall` (`%`).

use std::sync::Arc;
use warren_core::gen::tunnel::{
    tunnel, ConstantOverrides, CorridorStyle, DoorTable, TunnelConfig, TunnelConstants,
    TunnelFlags, TunnelLevel, TunnelOutcome, TunnelRequest,
};
use warren_core::map::{
    priority as prio, AsciiCell, AsciiLegend, DoorState, Map, Point, TerrainId, TerrainTable,
};
use warren_core::rng::Rng;

pub const FLOOR: TerrainId = 1;
pub const DOOR: TerrainId = 6;
pub const TUNNEL_FLOOR: TerrainId = 7;
pub const TUNNEL_WALL: TerrainId = 8;

fn table() -> Arc<TerrainTable> {
    Arc::new(TerrainTable::plain(&[
        ("rock", '#', true),
        ("floor", '.', false),
        ("room wall", 'W', true),
        ("corridor wall", 'c', true),
        ("vault wall", 'V', true),
        ("map edge", 'X', true),
        ("door", '+', true),
        ("tunnel floor", ':', false),
        ("tunnel wall", '%', true),
        ("corridor floor", ',', false),
    ]))
}

/// What each glyph of the module table stands for.
fn legend() -> AsciiLegend {
    let cell = |terrain, priority, region| {
        AsciiCell::terrain(terrain)
            .priority(priority)
            .region(region)
    };
    AsciiLegend::new(table())
        .with('.', cell(FLOOR, prio::ROOM_FLOOR, "room"))
        .with('o', cell(FLOOR, prio::ROOM_FLOOR, "hall"))
        .with('W', cell(2, prio::ROOM_WALL, "room"))
        .with('c', cell(3, prio::CORRIDOR_WALL, "old corridor"))
        .with(',', cell(9, prio::ROOM_FLOOR, "old corridor"))
        .with('V', cell(4, prio::VAULT, "vault"))
        .with('X', AsciiCell::terrain(5).priority(prio::MAX))
        .with(
            '+',
            cell(DOOR, prio::ROOM_WALL, "room").door(DoorState::Closed),
        )
}

/// A map from rows of glyphs (see the module table). All rows must have the same length.
pub fn map_from(rows: &[&str]) -> Map {
    Map::from_ascii_with(rows, &legend()).unwrap_or_else(|e| panic!("test map: {e}"))
}

/// A corridor style drawing tunnel floor and tunnel walls.
pub fn style(name: &str, weight: f64, staple: bool) -> CorridorStyle {
    CorridorStyle {
        name: name.into(),
        weight,
        staple,
        floor: TUNNEL_FLOOR,
        walls: TUNNEL_WALL,
        constants: ConstantOverrides::default(),
    }
}

/// One staple style, no chance turns, no stubbornness, long segments, one big panel.
pub fn config() -> TunnelConfig {
    TunnelConfig {
        styles: vec![style("tunnel", 1.0, true)],
        default_style: 0,
        constants: TunnelConstants {
            turn_chance: 0,
            stubborn_corridor: 0,
            segment_minlen: 100,
            segment_maxlen: 100,
        },
        panel_width: 100,
        panel_height: 100,
        doors: DoorTable::uniform(DOOR),
    }
}

/// A request with the given flags.
pub fn request(start: (i32, i32), dest: (i32, i32), flags: TunnelFlags) -> TunnelRequest {
    TunnelRequest::new(
        Point::new(start.0, start.1),
        Point::new(dest.0, dest.1),
        flags,
    )
}

/// Flags from names (test shorthand).
pub fn flags(names: &[&str]) -> TunnelFlags {
    TunnelFlags::from_names(names).expect("known flag names")
}

/// Shorthand for [`Point::new`].
pub const P: fn(i32, i32) -> Point = Point::new;

/// `h` rows of `w` rock cells.
pub fn blank(w: usize, h: usize) -> Vec<String> {
    vec!["#".repeat(w); h]
}

/// Borrowed rows for [`map_from`].
pub fn rows(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Paints `glyph` over the rectangle `x0..=x1, y0..=y1` of `rows`.
pub fn paint(rows: &mut [String], x0: usize, y0: usize, x1: usize, y1: usize, glyph: char) {
    for row in rows.iter_mut().take(y1 + 1).skip(y0) {
        let mut cells: Vec<char> = row.chars().collect();
        for c in cells.iter_mut().take(x1 + 1).skip(x0) {
            *c = glyph;
        }
        *row = cells.into_iter().collect();
    }
}

/// A walled room with floor `x0..=x1, y0..=y1`.
pub fn room(rows: &mut [String], x0: usize, y0: usize, x1: usize, y1: usize) {
    paint(rows, x0 - 1, y0 - 1, x1 + 1, y1 + 1, 'W');
    paint(rows, x0, y0, x1, y1, '.');
}

/// Digs one tunnel on a fresh level with `Rng::new(seed)`.
pub fn dig(map: &mut Map, cfg: &TunnelConfig, req: &TunnelRequest, seed: u64) -> TunnelOutcome {
    let mut level = TunnelLevel::default();
    tunnel(map, cfg, &mut level, req, &mut Rng::new(seed)).expect("valid tunnel")
}

/// An old corridor (x = 6..8) between the start and a walled room (floor x = 11..12).
pub const DOOR_MAP: [&str; 11] = [
    "XXXXXXXXXXXXXXXX",
    "X#####c,c######X",
    "X#####c,c######X",
    "X#####c,c#WWWW#X",
    "X#####c,c#W..W#X",
    "X#####c,c#W..W#X",
    "X#####c,c#W..W#X",
    "X#####c,c#WWWW#X",
    "X#####c,c######X",
    "X#####c,c######X",
    "XXXXXXXXXXXXXXXX",
];

/// A non-staple style that turns at every step, at random.
pub fn twisty() -> CorridorStyle {
    let mut s = style("twisty", 1.0, false);
    s.constants = ConstantOverrides {
        turn_chance: Some(100),
        stubborn_corridor: Some(100),
        segment_minlen: Some(0),
        segment_maxlen: Some(2),
    };
    s
}

/// Two rooms on a row, 8 cells of rock apart.
pub fn two_rooms() -> Map {
    let mut g = blank(24, 10);
    room(&mut g, 2, 3, 5, 6);
    room(&mut g, 15, 3, 19, 6);
    map_from(&rows(&g))
}

/// Five rooms in a row, one per 10-wide panel.
pub fn five_rooms() -> (Map, TunnelConfig) {
    let mut g = blank(52, 10);
    for i in 0..5 {
        room(&mut g, 3 + 10 * i, 3, 6 + 10 * i, 6);
    }
    let mut cfg = config();
    cfg.panel_width = 10;
    (map_from(&rows(&g)), cfg)
}
