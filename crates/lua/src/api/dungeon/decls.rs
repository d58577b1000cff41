//! The declarations of `warren.dungeon`: the tables its functions take and return, and the
//! functions themselves (implemented in `functions.rs`).

use crate::api::decl::{arg, key, key_opt, key_or, opt, Arg, Class, Decl, Default, Owner, Ty};
use crate::api::regions::{ROOM_REGION, STREAMER_REGION, VAULT_REGION};
use warren_core::gen::dungeon::StairPlacement;
use warren_core::region::schema::{
    LEVEL_HEIGHT, LEVEL_WIDTH, LIFE_PERCENT, PANEL_HEIGHT, PANEL_WIDTH, ROOM_MAX_HEIGHT,
    ROOM_MAX_WIDTH, ROOM_MIN_HEIGHT, ROOM_MIN_WIDTH, SECRET_DOOR_REVEAL_DEPTH,
    SECRET_DOOR_REVEAL_RADIUS,
};

const D: Owner = Owner::Dungeon;

/// A panel as recipes see it.
const PANEL: Class = Class {
    name: "warren.Panel",
    parent: None,
    doc: "A panel of a level: its cells (`x, y, w, h`) and its place in the panel grid (`px, py`, 0-based).",
    fields: &[
        key("x", Ty::INT, "Left column."),
        key("y", Ty::INT, "Top row."),
        key("w", Ty::INT, "Width in cells."),
        key("h", Ty::INT, "Height in cells."),
        key("px", Ty::INT, "Panel column."),
        key("py", Ty::INT, "Panel row."),
        key_opt("used", Ty::Bool, "Whether it is taken (from `level:panels()` only)."),
    ],
};

/// What `warren.dungeon.init_level` takes.
const LEVEL_OPTIONS: Class = Class {
    name: "warren.LevelOptions",
    parent: None,
    doc: "Options of `warren.dungeon.init_level`: the level's size and panel size (each default from `[dungeon]`). The level must divide evenly into at most 32×32 panels.",
    fields: &[
        key_opt("width", Ty::int(LEVEL_WIDTH.min, LEVEL_WIDTH.max), "Level width (default `[dungeon] level_width`)."),
        key_opt("height", Ty::int(LEVEL_HEIGHT.min, LEVEL_HEIGHT.max), "Level height (default `[dungeon] level_height`)."),
        key_opt("panel_width", Ty::int(PANEL_WIDTH.min, PANEL_WIDTH.max), "Panel width (default `[dungeon] panel_width`)."),
        key_opt("panel_height", Ty::int(PANEL_HEIGHT.min, PANEL_HEIGHT.max), "Panel height (default `[dungeon] panel_height`)."),
    ],
};

/// What `warren.dungeon.carry_chasms` takes.
const CHASM_OPTIONS: Class = Class {
    name: "warren.ChasmOptions",
    parent: None,
    doc: "Options of `warren.dungeon.carry_chasms`.",
    fields: &[
        key(
            "chasms",
            Ty::Strings,
            "The region names of the chasms to carry down.",
        ),
        key_or(
            "narrow",
            Ty::Bool,
            Default::Bool(false),
            "Carry only cells surrounded by chasm above, so chasms narrow.",
        ),
    ],
};

/// What `warren.dungeon.place_vault` takes.
const VAULT_OPTIONS: Class = Class {
    name: "warren.VaultOptions",
    parent: None,
    doc: "Options of `warren.dungeon.place_vault`.",
    fields: &[
        key_opt(
            "above",
            Ty::Map,
            "The level above (`ctx.above`): the vault never covers its down stairs.",
        ),
        key_opt(
            "depth",
            Ty::int(1, 1000),
            "The level's depth (default `ctx.depth`): a vault with `keep_doors = false` makes wooden doors on levels at most `[dungeon] wooden_door_depth` deep.",
        ),
    ],
};

/// What `warren.dungeon.place_vault` returns.
const PLACED_VAULT: Class = Class {
    name: "warren.PlacedVault",
    parent: None,
    doc: "A placed vault: its cells and the panels it took.",
    fields: &[
        key("x", Ty::INT, "Left column."),
        key("y", Ty::INT, "Top row."),
        key("w", Ty::INT, "Width."),
        key("h", Ty::INT, "Height."),
        key("panels", Ty::TableList(&PANEL), "The panels it took."),
    ],
};

/// Room sizes.
const ROOM_LIMITS: Class = Class {
    name: "warren.RoomLimits",
    parent: None,
    doc: "Room sizes, walls included, and the lifecave fill (each default from `[dungeon]`), and the level's depth.",
    fields: &[
        key_opt(
            "min_width",
            Ty::int(ROOM_MIN_WIDTH.min, ROOM_MIN_WIDTH.max),
            "Narrowest room (default `[dungeon] room_min_width`); at most the panel width less 2.",
        ),
        key_opt(
            "max_width",
            Ty::int(ROOM_MAX_WIDTH.min, ROOM_MAX_WIDTH.max),
            "Widest room (default `[dungeon] room_max_width`).",
        ),
        key_opt(
            "min_height",
            Ty::int(ROOM_MIN_HEIGHT.min, ROOM_MIN_HEIGHT.max),
            "Shortest room (default `[dungeon] room_min_height`).",
        ),
        key_opt(
            "max_height",
            Ty::int(ROOM_MAX_HEIGHT.min, ROOM_MAX_HEIGHT.max),
            "Tallest room (default `[dungeon] room_max_height`).",
        ),
        key_opt(
            "life_percent",
            Ty::int(LIFE_PERCENT.min, LIFE_PERCENT.max),
            "Percent of a lifecave's cells that start as wall (default `[dungeon] life_percent`).",
        ),
        key_or(
            "depth",
            Ty::int(1, 1000),
            Default::Int(1),
            "The level's depth: a maze deeper than 3 gets `min(7, depth - 3)` secret doors, and on levels at most `[dungeon] wooden_door_depth` deep a room's door that is not wooden becomes `[dungeon] wooden_door` (unless the region keeps its doors).",
        ),
    ],
};

/// A room the rooms phases drew.
const DRAWN_ROOM: Class = Class {
    name: "warren.DrawnRoom",
    parent: None,
    doc: "A room drawn in a panel: its floor's bounding box, kind and region.",
    fields: &[
        key("x", Ty::INT, "Left column of the floor."),
        key("y", Ty::INT, "Top row of the floor."),
        key("w", Ty::INT, "Floor width."),
        key("h", Ty::INT, "Floor height."),
        key(
            "kind",
            Ty::Str,
            "The kind drawn (a lifecave that grew no floor is drawn as `normal`).",
        ),
        key("region", Ty::Str, "The room region's name."),
    ],
};

/// What `warren.dungeon.connect_panels` takes.
const CONNECT_PANELS_OPTIONS: Class = Class {
    name: "warren.ConnectPanelsOptions",
    parent: None,
    doc: "Options of `warren.dungeon.connect_panels`.",
    fields: &[key_opt(
        "flags",
        Ty::Strings,
        "Tunnel flags (Incursion uses `direct` and `wander`).",
    )],
};

/// What `warren.dungeon.place_up_stairs` takes.
const UP_STAIRS_OPTIONS: Class = Class {
    name: "warren.UpStairsOptions",
    parent: None,
    doc: "Options of `warren.dungeon.place_up_stairs`.",
    fields: &[
        key_opt("terrain", Ty::Terrain, "Stairs terrain (default `[dungeon] up_stairs`)."),
        key_opt("walls", Ty::Terrain, "Walls around stairs cut into rock (default: the walls of the level's corridor region)."),
    ],
};

/// What `warren.dungeon.place_down_stairs` takes.
const DOWN_STAIRS_OPTIONS: Class = Class {
    name: "warren.DownStairsOptions",
    parent: None,
    doc: "Options of `warren.dungeon.place_down_stairs`.",
    fields: &[
        key_opt(
            "terrain",
            Ty::Terrain,
            "Stairs terrain (default `[dungeon] down_stairs`).",
        ),
        key_or("count", Ty::int(0, 1000), Default::Int(1), "How many."),
        key_opt(
            "avoid",
            Ty::Strings,
            "Terrain names stairs never stand on (water, chasms, lava).",
        ),
        key_or(
            "place",
            Ty::Choice(&StairPlacement::NAMES),
            Default::Str("rooms"),
            "`rooms`: on the floor of recorded rooms (vaults aside) while any is left; `anywhere`: on any open floor, corridors included (Incursion's rule).",
        ),
    ],
};

/// What `warren.dungeon.finish_doors` takes.
const FINISH_DOORS_OPTIONS: Class = Class {
    name: "warren.FinishDoorsOptions",
    parent: None,
    doc: "Options of `warren.dungeon.finish_doors`.",
    fields: &[
        key_or("depth", Ty::int(1, 1000), Default::Int(1), "The level's depth."),
        key_opt(
            "reveal_depth",
            Ty::int(SECRET_DOOR_REVEAL_DEPTH.min, SECRET_DOOR_REVEAL_DEPTH.max),
            "On levels at most this deep no secret door stays within `reveal_radius` of the up stairs; they become closed doors (default `[dungeon] secret_door_reveal_depth`).",
        ),
        key_opt(
            "reveal_radius",
            Ty::int(SECRET_DOOR_REVEAL_RADIUS.min, SECRET_DOOR_REVEAL_RADIUS.max),
            "Distance from the up stairs (the longer axis plus half the shorter) of `reveal_depth` (default `[dungeon] secret_door_reveal_radius`).",
        ),
    ],
};

/// What `warren.dungeon.finish_doors` returns.
const DOOR_COUNTS: Class = Class {
    name: "warren.DoorCounts",
    parent: None,
    doc: "How many doors ended in each state.",
    fields: &[
        key("closed", Ty::INT, "Closed doors."),
        key("open", Ty::INT, "Open doors."),
        key("locked", Ty::INT, "Locked doors."),
        key("secret", Ty::INT, "Secret doors."),
        key("broken", Ty::INT, "Broken doors (empty doorways)."),
    ],
};

/// The classes of `warren.dungeon` (for the stubs).
pub const CLASSES: &[&Class] = &[
    &PANEL,
    &LEVEL_OPTIONS,
    &CHASM_OPTIONS,
    &VAULT_OPTIONS,
    &PLACED_VAULT,
    &ROOM_LIMITS,
    &DRAWN_ROOM,
    &CONNECT_PANELS_OPTIONS,
    &UP_STAIRS_OPTIONS,
    &DOWN_STAIRS_OPTIONS,
    &FINISH_DOORS_OPTIONS,
    &DOOR_COUNTS,
];

const MAP: Arg = arg("map", Ty::Map);
const RNG: Arg = arg("rng", Ty::Rng);
const ABOVE: Arg = arg("above", Ty::Map);
const LEVEL: Arg = arg("level", Ty::Object(Owner::Level));

pub(super) const INIT_LEVEL: Decl = Decl::function(
    D,
    "init_level",
    "Step 1: makes the map a fresh level of rock (the regions' `[map] fill`) inside an edge that nothing overwrites, cut into panels; returns the level's panel grid.",
)
.args(&[MAP, opt("opts", Ty::Table(&LEVEL_OPTIONS))])
.returns(&["warren.Level"]);

pub(super) const DRAW_STREAMER: Decl = Decl::function(
    D,
    "draw_streamer",
    "Step 2: draws one river, chasm, lava flow or rock vein across the level; returns the cells given its terrain.",
)
.args(&[MAP, RNG, arg("streamer", Ty::Table(&STREAMER_REGION))])
.returns(&["integer"]);

pub(super) const CARRY_CHASMS: Decl = Decl::function(
    D,
    "carry_chasms",
    "Step 2: continues the chasms of the level above on this level (levels of different sizes are centred); returns the cells written.",
)
.args(&[MAP, ABOVE, arg("opts", Ty::Table(&CHASM_OPTIONS))])
.returns(&["integer"]);

pub(super) const PLACE_VAULT: Decl = Decl::function(
    D,
    "place_vault",
    "Step 3: places a vault in a block of free panels (taking them), at VAULT priority, flipped at random; returns where, or nil when it does not fit.",
)
.args(&[
    MAP,
    RNG,
    LEVEL,
    arg("vault", Ty::Table(&VAULT_REGION)),
    opt("opts", Ty::Table(&VAULT_OPTIONS)),
])
.returns(&["warren.PlacedVault?"]);

pub(super) const DRAW_ROOM: Decl = Decl::function(
    D,
    "draw_room",
    "Step 4 for one panel: draws a room of the region's kind inside `panel` and records it.",
)
.args(&[
    MAP,
    RNG,
    arg("panel", Ty::Rect),
    arg("room", Ty::Table(&ROOM_REGION)),
    opt("limits", Ty::Table(&ROOM_LIMITS)),
])
.returns(&["warren.DrawnRoom"]);

pub(super) const DRAW_ROOMS: Decl = Decl::function(
    D,
    "draw_rooms",
    "Step 4: a room in every free panel, each of a region drawn by weight from `rooms`, none again while another with a weight is unused on the level (Incursion's `usedInThisLevel`); returns the rooms in order.",
)
.args(&[
    MAP,
    RNG,
    LEVEL,
    arg("rooms", Ty::TableList(&ROOM_REGION)),
    opt("limits", Ty::Table(&ROOM_LIMITS)),
])
.returns(&["warren.DrawnRoom[]"]);

pub(super) const CONNECT_PANELS: Decl = Decl::function(
    D,
    "connect_panels",
    "Step 5: a tunnel between the closest edge cells of every two neighbouring panels; returns how many were dug.",
)
.args(&[
    MAP,
    RNG,
    LEVEL,
    arg("tunnels", Ty::Object(Owner::Tunnels)),
    opt("opts", Ty::Table(&CONNECT_PANELS_OPTIONS)),
])
.returns(&["integer"]);

pub(super) const PLACE_UP_STAIRS: Decl = Decl::function(
    D,
    "place_up_stairs",
    "Step 6: up stairs exactly under the level above's down stairs (a pocket in rock gets walls; the fix-up joins it); returns the cells.",
)
.args(&[MAP, ABOVE, opt("opts", Ty::Table(&UP_STAIRS_OPTIONS))])
.returns(&["warren.Cell[]"]);

pub(super) const PLACE_DOWN_STAIRS: Decl = Decl::function(
    D,
    "place_down_stairs",
    "Step 6: down stairs on open floor of priority at most ROOM_FLOOR (no door, no hazard), in rooms unless `opts.place` is `anywhere`, not two in one room or region while another is free; returns the cells.",
)
.args(&[MAP, RNG, opt("opts", Ty::Table(&DOWN_STAIRS_OPTIONS))])
.returns(&["warren.Cell[]"]);

pub(super) const FINISH_DOORS: Decl = Decl::function(
    D,
    "finish_doors",
    "Step 7, Incursion's last door pass: a door on stairs is dropped, touching doors go in pairs, a door not between two walls is broken, the rest closed, open, locked or secret by their kind's weights (a maze's secret doors stay secret; near shallow up stairs none does), and each is drawn in its state; returns how many of each state.",
)
.args(&[MAP, RNG, opt("opts", Ty::Table(&FINISH_DOORS_OPTIONS))])
.returns(&["warren.DoorCounts"]);
