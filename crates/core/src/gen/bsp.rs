//! Binary space partitioning: a rectangle is cut in two, and each half again, until the pieces
//! are too small to cut. Two generators use the cuts:
//! - [`rooms`] ("BSP rooms"): a room of random size inside each piece, and a corridor joining
//!   the two halves of every cut, so the rooms never overlap and are all connected;
//! - [`interior`] ("BSP interior"): every piece is a room, walls one cell thick stand on the
//!   cuts, and one door through each cut joins its two halves (a building's floor plan).
//!
//! Both need a rectangular area (the whole map, a rectangle or a room): the cuts are lines
//! across it.

use super::area::Area;
use super::meter::Meter;
use super::tool_error::ToolError;
use crate::map::{
    passable, terrain_flags, Brush, DogLeg, Door, DoorState, KindName, Map, Point, Rect, Room,
};
use crate::rng::Rng;

/// The rectangle of `area` on `map`, or an error naming `what` for a mask.
pub(crate) fn rectangle(map: &Map, area: Area<'_>, what: &'static str) -> Result<Rect, ToolError> {
    if let Area::Mask(_) = area {
        return Err(ToolError::NotARectangle { what });
    }
    Ok(area.on(map)?.bounds)
}

/// A piece of the cut tree: a leaf, or a rectangle cut in two.
struct Piece {
    /// The rectangle the piece covers.
    rect: Rect,
    /// For a cut piece, the index of its second half's piece; `None` for a leaf. The first
    /// half's is the next index: the tree is kept in one vector in preorder (a cut, its first
    /// half's subtree, its second half's), so it is built without an allocation per node, and
    /// walking the vector in order visits pieces in the order the recursion over the tree did.
    second: Option<usize>,
}

/// Where [`cut`] and [`halve`] put the pieces they make, in preorder: a cut, then the pieces of its first
/// half, then those of its second, the order of the recursion (which the draws that follow
/// keep).
trait Pieces {
    /// A piece left whole.
    fn leaf(&mut self, rect: Rect);
    /// `rect` cut at `at`, before the pieces of its halves; returns what
    /// [`Pieces::second_half`] is given once the first half is done.
    fn cut(&mut self, rect: Rect, at: i32, vertical: bool) -> usize;
    /// The pieces of the first half of the cut that returned `cut` are all in; the second
    /// half's follow.
    fn second_half(&mut self, cut: usize);
}

/// The tree in one vector, for walks that follow its shape.
impl Pieces for Vec<Piece> {
    fn leaf(&mut self, rect: Rect) {
        self.push(Piece { rect, second: None });
    }

    fn cut(&mut self, rect: Rect, _: i32, _: bool) -> usize {
        self.push(Piece {
            rect,
            // Set by `second_half` once the first half's pieces are in.
            second: Some(0),
        });
        self.len() - 1
    }

    fn second_half(&mut self, cut: usize) {
        self[cut].second = Some(self.len());
    }
}

/// Cuts `rect` until no side is at least `2 × min + gap` long, giving the pieces to `pieces` in
/// preorder; each cut leaves at least `min` cells on either side of a `gap`-cell line (`gap`
/// 0: the halves touch; 1: a wall between). A piece longer one way than 5/4 of the other is cut
/// across its length; otherwise the direction is drawn. There are at most as many pieces as
/// cells: the callers charge them once the cut is done, so a meter that refuses stops the
/// phase after the cut's draws rather than among them (the same error, the same map).
fn cut(rect: Rect, min: i32, gap: i32, rng: &mut Rng, pieces: &mut impl Pieces) {
    let can_x = rect.w >= 2 * min + gap;
    let can_y = rect.h >= 2 * min + gap;
    let vertical = match (can_x, can_y) {
        (false, false) => return pieces.leaf(rect),
        (true, false) => true,
        (false, true) => false,
        (true, true) if rect.w * 4 > rect.h * 5 => true,
        (true, true) if rect.h * 4 > rect.w * 5 => false,
        (true, true) => rng.percent(50),
    };
    let (start, len) = across(rect, vertical);
    // The first cell past the first half: `min..=len - min - gap` cells go first.
    let at = start + rng.range(min as i64, (len - min - gap) as i64) as i32;
    let (a, b) = halves(rect, at, gap, vertical);
    let me = pieces.cut(rect, at, vertical);
    cut(a, min, gap, rng, pieces);
    pieces.second_half(me);
    cut(b, min, gap, rng, pieces);
}

/// The first cell and the length of `rect` across which a cut runs: along x for a `vertical`
/// cut, along y for a horizontal one.
fn across(rect: Rect, vertical: bool) -> (i32, i32) {
    if vertical {
        (rect.x, rect.w)
    } else {
        (rect.y, rect.h)
    }
}

/// The two halves of `rect` on either side of a `gap`-cell line whose first cell is `at`.
fn halves(rect: Rect, at: i32, gap: i32, vertical: bool) -> (Rect, Rect) {
    if vertical {
        (
            Rect::new(rect.x, rect.y, at - rect.x, rect.h),
            Rect::new(at + gap, rect.y, rect.x2() - at - gap + 1, rect.h),
        )
    } else {
        (
            Rect::new(rect.x, rect.y, rect.w, at - rect.y),
            Rect::new(rect.x, at + gap, rect.w, rect.y2() - at - gap + 1),
        )
    }
}

/// The tutorial's BSP interior rule ([`Split::Halves`]): halves `rect` across a side a coin
/// draws, the wall in the middle, and each half again while the side just halved is still at
/// least `2 × min + gap` long; `halved` is that side's length for `rect` (`i32::MAX` for the
/// whole area). Pieces go to `pieces` in preorder, as [`cut`]'s do.
fn halve(rect: Rect, halved: i32, min: i32, gap: i32, rng: &mut Rng, pieces: &mut impl Pieces) {
    let shortest = 2 * min + gap;
    if halved < shortest {
        return pieces.leaf(rect);
    }
    let vertical = rng.percent(50);
    let (start, len) = across(rect, vertical);
    // The tutorial halves the drawn side however short it is, leaving rooms of no width when it
    // is; a piece whose drawn side is too short to halve is a room instead.
    if len < shortest {
        return pieces.leaf(rect);
    }
    let at = start + (len - gap) / 2;
    let (a, b) = halves(rect, at, gap, vertical);
    let me = pieces.cut(rect, at, vertical);
    halve(a, across(a, vertical).1, min, gap, rng, pieces);
    pieces.second_half(me);
    halve(b, across(b, vertical).1, min, gap, rng, pieces);
}

/// The most leaves [`cut`] or [`halve`] can make of `rect` with `min` and `gap`: each is at
/// least `min` a side, with a `gap`-cell line beside it.
fn leaves_at_most(rect: Rect, min: i32, gap: i32) -> usize {
    let most = |side: i32| ((side + gap) / (min + gap)).max(1) as usize;
    most(rect.w) * most(rect.h)
}

/// The leaves of a cut tree, in order.
fn leaves(tree: &[Piece]) -> impl Iterator<Item = Rect> + '_ {
    tree.iter().filter(|p| p.second.is_none()).map(|p| p.rect)
}

/// Options of [`rooms`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BspRooms {
    /// The smallest piece a cut may leave, `3..=256` (walls included: a room is at most the
    /// piece less a cell on each side).
    pub min_leaf: i32,
    /// The smallest room side, `1..=min_leaf - 2`.
    pub min_room: i32,
    /// The largest room side, at least `min_room`; `None`: as large as the piece allows. Large
    /// pieces with a small cap leave more rock between the rooms.
    pub max_room: Option<i32>,
}

impl Default for BspRooms {
    fn default() -> Self {
        BspRooms {
            min_leaf: 8,
            min_room: 3,
            max_room: None,
        }
    }
}

/// What [`rooms`] writes with.
#[derive(Clone, Copy, Debug)]
pub struct RoomBrushes<'b> {
    /// Room floors.
    pub floor: &'b Brush,
    /// Corridor floors.
    pub corridor: &'b Brush,
}

/// BSP rooms: cuts the area's rectangle, puts a room in every piece (at least a cell from the
/// piece's sides, so two rooms are always two cells apart), and joins the halves of every cut
/// with a dog-leg corridor between the centres of a room drawn from each half. Rooms (kind
/// `"bsp"`) and corridors are recorded on the map. Returns the rooms, in cut order (left or top
/// first).
pub fn rooms(
    map: &mut Map,
    area: Area<'_>,
    options: &BspRooms,
    rng: &mut Rng,
    brushes: RoomBrushes<'_>,
    meter: &mut dyn Meter,
) -> Result<Vec<Rect>, ToolError> {
    let o = options;
    ToolError::check_range("bsp", "min_leaf", o.min_leaf as i64, (3, 256))?;
    let most = o.min_leaf as i64 - 2;
    ToolError::check_range("bsp", "min_room", o.min_room as i64, (1, most))?;
    if let Some(max_room) = o.max_room {
        ToolError::check_range(
            "bsp",
            "max_room",
            max_room as i64,
            (o.min_room as i64, 1 << 16),
        )?;
    }
    let rect = rectangle(map, area, "bsp rooms")?;
    // A tree has one cut fewer than leaves: room for that many pieces, so that the tree never
    // grows (each growth copied it).
    let mut tree = Vec::with_capacity(2 * leaves_at_most(rect, o.min_leaf, 0));
    cut(rect, o.min_leaf, 0, rng, &mut tree);
    meter.work(tree.len() as u64)?;
    let placed = place_rooms(&tree, o.min_room, o.max_room.unwrap_or(i32::MAX), rng);
    let kind = KindName::Fixed("bsp");
    map.notes.rooms.reserve(placed.len());
    for &r in &placed {
        meter.work((r.w * r.h) as u64)?;
        map.fill_rect(&r, brushes.floor)?;
        map.notes.push_doorless_room(r, kind.clone());
    }
    join(&tree, 0, &placed, 0, map, rng, brushes.corridor, meter)?;
    Ok(placed)
}

/// A room inside each leaf, in leaf order, its sides `min_room..=max_room`.
fn place_rooms(tree: &[Piece], min_room: i32, max_room: i32, rng: &mut Rng) -> Vec<Rect> {
    let mut out = Vec::new();
    for leaf in leaves(tree) {
        let inner = leaf.inset(1);
        if inner.w < min_room || inner.h < min_room {
            continue;
        }
        let w = rng.range(min_room as i64, inner.w.min(max_room) as i64) as i32;
        let h = rng.range(min_room as i64, inner.h.min(max_room) as i64) as i32;
        let x = rng.range(inner.x as i64, (inner.x2() - w + 1) as i64) as i32;
        let y = rng.range(inner.y as i64, (inner.y2() - h + 1) as i64) as i32;
        out.push(Rect::new(x, y, w, h));
    }
    out
}

/// Joins the halves of every cut in the subtree of piece `node`, children first. `next` is
/// the index in `rooms` of the first room of this subtree (rooms were placed in leaf order, so a
/// subtree's rooms are a run); returns the index past its last.
#[allow(clippy::too_many_arguments)]
fn join(
    tree: &[Piece],
    node: usize,
    rooms: &[Rect],
    next: usize,
    map: &mut Map,
    rng: &mut Rng,
    brush: &Brush,
    meter: &mut dyn Meter,
) -> Result<usize, ToolError> {
    let piece = &tree[node];
    let Some(second) = piece.second else {
        // A leaf holds a room unless it was too small for one.
        let holds = rooms
            .get(next)
            .is_some_and(|r| piece.rect.contains(r.center()));
        return Ok(next + holds as usize);
    };
    let middle = join(tree, node + 1, rooms, next, map, rng, brush, meter)?;
    let end = join(tree, second, rooms, middle, map, rng, brush, meter)?;
    if middle == next || end == middle {
        return Ok(end);
    }
    let from = rooms[rng.range(next as i64, middle as i64 - 1) as usize].center();
    let to = rooms[rng.range(middle as i64, end as i64 - 1) as usize].center();
    let order = if rng.percent(50) {
        DogLeg::HorizontalFirst
    } else {
        DogLeg::VerticalFirst
    };
    let mut cells = map.notes.corridor_cells(0);
    map.carve_dogleg(from, to, order, brush, &mut cells)?;
    meter.work((cells.len() + 1) as u64)?;
    map.notes.push_plain_corridor(cells);
    Ok(end)
}

/// Options of [`interior`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BspInterior {
    /// The smallest room side a cut may leave, `2..=256`.
    pub min_room: i32,
    /// How the pieces are cut.
    pub split: Split,
}

impl Default for BspInterior {
    fn default() -> Self {
        BspInterior {
            min_room: 4,
            split: Split::Longer,
        }
    }
}

/// How [`interior`] cuts its pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Split {
    /// Across the longer side (a coin decides when neither side is 5/4 of the other), at a
    /// drawn place, until no side can be cut: rooms of like sides, `min_room` to about twice
    /// that.
    #[default]
    Longer,
    /// The Rust roguelike tutorial's rule (and the `mapgen` crate's): each piece halved across
    /// a side a coin draws, and its halves again while the side just halved can be halved once
    /// more: long strips of rooms, one side `min_room` to `2 × min_room`, the other often many
    /// times that. Where the tutorial differs: it halves a side too short to halve (rooms of
    /// no width), where warren leaves the piece whole; on an odd side it puts the wall a cell
    /// off the middle and leaves the side's last line as wall too, where warren's wall is in the
    /// middle; and it decides whether to halve both halves again from its own half's length,
    /// so it may halve a first half a cell shorter than the rule allows.
    Halves,
}

impl Split {
    /// Every rule's name, as recipes spell it.
    pub const NAMES: [&'static str; 2] = ["longer", "halves"];

    /// The rule named `name` (one of [`Split::NAMES`]).
    pub fn from_name(name: &str) -> Option<Split> {
        Some(match name {
            "longer" => Split::Longer,
            "halves" => Split::Halves,
            _ => return None,
        })
    }
}

/// What [`interior`] writes with.
#[derive(Clone, Copy, Debug)]
pub struct InteriorBrushes<'b> {
    /// Room floors.
    pub floor: &'b Brush,
    /// The walls on the cuts.
    pub wall: &'b Brush,
    /// The door through each cut; `None`: the floor brush, and no door is recorded.
    pub door: Option<&'b Brush>,
}

/// BSP interior: cuts the area's rectangle with one-cell walls by `options.split`'s rule,
/// fills each piece with floor (a room of kind `"interior"`), and opens one door through
/// each cut at a cell with floor on both sides, so every room is reached and there is exactly one
/// way between any two (the doors form a tree). The area's own border is left alone: put the
/// area inside walls. Returns the rooms in cut order.
pub fn interior(
    map: &mut Map,
    area: Area<'_>,
    options: &BspInterior,
    rng: &mut Rng,
    brushes: InteriorBrushes<'_>,
    meter: &mut dyn Meter,
) -> Result<Vec<Rect>, ToolError> {
    ToolError::check_range(
        "bsp interior",
        "min_room",
        options.min_room as i64,
        (2, 256),
    )?;
    let rect = rectangle(map, area, "bsp interior")?;
    // Room for as many rooms as the cut can make, so that the lists never grow (each growth
    // copied them).
    let rooms = leaves_at_most(rect, options.min_room, 1);
    let mut plan = Plan {
        width: map.width() as usize,
        rooms: Vec::with_capacity(rooms),
        walls: Vec::with_capacity(rooms - 1),
    };
    match options.split {
        Split::Longer => cut(rect, options.min_room, 1, rng, &mut plan),
        Split::Halves => halve(rect, i32::MAX, options.min_room, 1, rng, &mut plan),
    }
    // The pieces, and the cells written.
    meter.work((plan.rooms.len() + plan.walls.len()) as u64 + (rect.w * rect.h) as u64)?;
    map.fill_rect(&rect, brushes.wall)?;
    // Every cell off the cuts' lines is in a room: the floor is written over the whole
    // rectangle at once, through a mask of those cells (or, with plain brushes, over all of it
    // and the walls again after), rather than room by room (rows of a few cells each, where a
    // write's cost is its setup). Each cell ends as the wall and then the floor leave it,
    // room by room. The mask is made true everywhere in one write: only the rectangle's cells
    // are asked (by the floor's write, and for the walls' sides), and the walk that takes the
    // walls off it lists the doors' cells on the way (see `Listed`).
    let mut in_room = vec![true; plan.width * (rect.y2() as usize + 1)];
    let listed = Listed::take_walls(&plan.walls, &mut in_room);
    // Each wall written again is a block write, whose setup costs about what the mask costs on
    // 64 cells: worth it for few long walls (the halves rule's strips), not for many short
    // ones (the default rule's: 13–25% slower that way).
    let few_walls = plan.walls.len() * 64 <= (rect.w * rect.h) as usize;
    let floored_rooms = if few_walls && walls_over_floor(brushes) {
        // The same cells as below, written faster: the floor over the whole rectangle in one
        // block, then the wall again on each cut.
        let floored = map.fill_rect(&rect, brushes.floor)?;
        for wall in &plan.walls {
            map.fill_rect(&wall.rect(), brushes.wall)?;
        }
        floored == (rect.w * rect.h) as usize
    } else {
        map.write_rect_where(&rect, brushes.floor, |i| in_room[i])? == plan.room_cells()
    };
    let kind = KindName::Fixed("interior");
    // Each room built in its place in the list: one built aside and copied in is read back in
    // pieces wider than its fields' writes, which the processor cannot forward (4–5% of a map).
    map.notes.rooms.extend(plan.rooms.iter().map(|&rect| Room {
        rect,
        kind: kind.clone(),
        doors: Vec::new(),
    }));
    // The lists are what reading the map gives when every room cell is passable after the
    // floor's write and no wall's end is: the plain case. Off it (priorities, the map's edge,
    // unusual terrains, doors standing) the map is read, wall by wall.
    let plain = floored_rooms
        && floors_open(map, brushes.floor)
        && ends_closed(&plan.walls, map.flag_cells());
    // Parents before children, as the cuts were made.
    let (mut read, mut start) = (Vec::new(), 0);
    for (&wall, &count) in plan.walls.iter().zip(&listed.counts) {
        let cells = if plain {
            &listed.cells[start..start + count as usize]
        } else {
            open_cells(wall, map.flag_cells(), &mut read)
        };
        start += wall.len;
        open_door(wall, cells, map, rng, brushes, meter)?;
    }
    Ok(plan.rooms)
}

/// Whether writing the floor over the whole cut rectangle and then the wall again on each cut
/// leaves what the wall and then the floor through the rooms' mask leave: both brushes plain
/// (every cell written but for the edge rule, the priority and region planes untouched), and
/// the wall written wherever the floor is (forced, or the floor not).
fn walls_over_floor(brushes: InteriorBrushes<'_>) -> bool {
    let plain = |b: &Brush| b.priority.is_none() && b.region.is_none();
    let (floor, wall) = (brushes.floor, brushes.wall);
    plain(floor) && plain(wall) && (wall.force || !floor.force)
}

/// Whether a cell `brush` writes is passable: its terrain is neither solid nor a hazard.
fn floors_open(map: &Map, brush: &Brush) -> bool {
    passable(terrain_flags(map.terrains().get(brush.terrain)))
}

/// Whether the cells at both ends of every wall are impassable on the map's `flags`. A wall's
/// side cell lies in its piece, where only the walls after it in preorder stand (those
/// cutting parts of the piece); those along it stand at least `min_room ≥ 2` cells off it, so
/// the only wall cells beside it are the ends of walls across it.
fn ends_closed(walls: &[Wall], flags: &[u8]) -> bool {
    walls
        .iter()
        .all(|w| !passable(flags[w.first]) && !passable(flags[w.first + (w.len - 1) * w.step]))
}

/// Each wall's cells with a room cell on both sides, by `k`, listed from the plan alone.
struct Listed {
    /// Each wall's cells, in a run as long as the wall, the walls' runs in preorder; the
    /// wall's listed cells open its run.
    cells: Vec<u16>,
    /// How many cells each wall lists, in preorder.
    counts: Vec<u32>,
}

impl Listed {
    /// Lists the walls' cells and takes the walls off `in_room` (the rooms' mask, true for
    /// every cell of the cut rectangle before). The walls are walked last to first: a wall's
    /// side cells lie in its piece, which only later walls cut, so the mask is as it ends up
    /// there when the wall is reached (see [`ends_closed`]). One walk along each wall does
    /// both, and lists the cells without a branch: each `k` is stored in the next free slot,
    /// and the slot kept only if `k` qualifies.
    fn take_walls(walls: &[Wall], in_room: &mut [bool]) -> Listed {
        let total = walls.iter().map(|w| w.len).sum();
        let mut cells = vec![0; total];
        let mut counts = vec![0; walls.len()];
        let mut end = total;
        for (w, count) in walls.iter().zip(&mut counts).rev() {
            let run = &mut cells[end - w.len..end];
            let mut n = 0;
            // The wall's ends checked once, rather than each cell three times (the checks were
            // 4% of a 256×256 map).
            let last = w.first + (w.len - 1) * w.step;
            assert!(w.first >= w.side && last + w.side < in_room.len());
            for (k, i) in (w.first..).step_by(w.step).take(w.len).enumerate() {
                // SAFETY: `i` runs from `first` to `last`, whose sides were checked above; `n`
                // is at most `k`, below `len`, the run's length.
                unsafe {
                    // A map's side is at most 2^16 cells: `k` fits 16 bits.
                    *run.get_unchecked_mut(n) = k as u16;
                    let open =
                        *in_room.get_unchecked(i - w.side) & *in_room.get_unchecked(i + w.side);
                    n += open as usize;
                    *in_room.get_unchecked_mut(i) = false;
                }
            }
            *count = n as u32;
            end -= w.len;
        }
        Listed { cells, counts }
    }
}

/// BSP interior's pieces apart, each list in preorder: the rooms (the leaves) and the walls
/// (the cuts). Its walks need no more of the tree's shape.
struct Plan {
    /// The map's width, which the walls' cell indices are in.
    width: usize,
    /// The rooms, in cut order.
    rooms: Vec<Rect>,
    /// The walls, in cut order (parents before children).
    walls: Vec<Wall>,
}

impl Plan {
    /// The number of cells in the rooms.
    fn room_cells(&self) -> usize {
        self.rooms.iter().map(|r| (r.w * r.h) as usize).sum()
    }
}

/// A cut's wall: `len` cells by index from `first`, `step` apart (a column's or a row's), each
/// with the cells `side` before and after it on either side of the wall. One shape for both
/// directions, so the walks along walls do not branch on it.
#[derive(Clone, Copy)]
struct Wall {
    first: usize,
    len: usize,
    step: usize,
    side: usize,
    /// The first cell, and the step to the next, as points: where a door goes is worked out
    /// without a division.
    at: Point,
    dir: Point,
}

impl Wall {
    /// The wall's cells as a rectangle one cell wide.
    fn rect(&self) -> Rect {
        let len = self.len as i32 - 1;
        Rect::new(
            self.at.x,
            self.at.y,
            1 + len * self.dir.x,
            1 + len * self.dir.y,
        )
    }
}

impl Pieces for Plan {
    fn leaf(&mut self, rect: Rect) {
        self.rooms.push(rect);
    }

    fn cut(&mut self, piece: Rect, at: i32, vertical: bool) -> usize {
        let (x, y, len, step, side) = if vertical {
            (at, piece.y, piece.h, self.width, 1)
        } else {
            (piece.x, at, piece.w, 1, self.width)
        };
        self.walls.push(Wall {
            first: x as usize + y as usize * self.width,
            len: len as usize,
            step,
            side,
            at: Point::new(x, y),
            dir: Point::new(!vertical as i32, vertical as i32),
        });
        // No second-half notice is needed: the lists keep the order.
        0
    }

    fn second_half(&mut self, _: usize) {}
}

/// Lists the cells of `wall` (by `k`) with a passable cell on both sides, read off the map's
/// `flags`, at the start of `cells` (a buffer kept from cut to cut, as long as the longest cut
/// yet); returns them.
fn open_cells<'c>(wall: Wall, flags: &[u8], cells: &'c mut Vec<u16>) -> &'c [u16] {
    // One walk along the wall without a branch, as in `Listed::take_walls`.
    if cells.len() < wall.len {
        cells.resize(wall.len, 0);
    }
    let mut count = 0;
    for (k, i) in (wall.first..).step_by(wall.step).take(wall.len).enumerate() {
        cells[count] = k as u16;
        count += (passable(flags[i - wall.side]) & passable(flags[i + wall.side])) as usize;
    }
    &cells[..count]
}

/// One door through `wall`, at a cell drawn among `cells` (by `k`: those with room floor, a
/// cell the floor brush made passable, on both sides).
fn open_door(
    wall: Wall,
    cells: &[u16],
    map: &mut Map,
    rng: &mut Rng,
    brushes: InteriorBrushes<'_>,
    meter: &mut dyn Meter,
) -> Result<(), ToolError> {
    meter.work(cells.len() as u64 + 1)?;
    // The cut's first row (or column) always qualifies in the plain case: the walls of either
    // half stand at least `min_room ≥ 2` cells from its sides, and no wall of a half lies
    // beside the cut.
    let drawn = rng.below(cells.len() as u64) as usize;
    let Some(&k) = cells.get(drawn) else {
        return Ok(());
    };
    let k = k as i32;
    let p = Point::new(wall.at.x + k * wall.dir.x, wall.at.y + k * wall.dir.y);
    match brushes.door {
        Some(door) => {
            map.write(p, door)?;
            map.add_door(Door::new(p, DoorState::Closed))?;
        }
        None => {
            map.write(p, brushes.floor)?;
        }
    }
    Ok(())
}
