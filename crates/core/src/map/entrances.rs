//! Where a level and its rooms are entered, as exports tell a game: the doors of a room (its
//! door features and every opening a corridor or another room makes in the ring around it),
//! the region a room belongs to, and the cell a player enters the level on. Derived from the
//! finished map: nothing here writes a cell.

use super::{Map, Point, Rect, Room, TagValue};

impl Map {
    /// Every cell `room` is entered through, in this order:
    /// - its doors ([`Annotations::doors_of`](super::Annotations::doors_of): those recorded
    ///   with it or, for a room without any, the map's doors within two cells of it);
    /// - then, for a room without recorded doors, one cell for each opening that no door
    ///   serves: a run of passable cells along one side of the ring just outside its rectangle
    ///   (corners excluded; sides top, right, bottom, left; the run's middle cell). A run
    ///   serves as an opening unless a door stands within one cell of it.
    ///
    /// A room whose doors were recorded (`map:add_door(x, y, room)`, TownMaze) keeps exactly
    /// those: its builder knew them.
    pub fn room_doors(&self, room: &Room) -> Vec<Point> {
        let mut doors = self.notes.doors_of(room);
        if !room.doors.is_empty() {
            return doors;
        }
        let features = doors.clone();
        for side in ring_sides(room.rect) {
            let mut run: Vec<Point> = Vec::new();
            for p in side.into_iter().map(Some).chain([None]) {
                match p {
                    Some(p) if self.is_passable(p).unwrap_or(false) => run.push(p),
                    _ => {
                        let served = run
                            .iter()
                            .any(|c| features.iter().any(|d| d.chebyshev(*c) <= 1));
                        if !run.is_empty() && !served {
                            doors.push(run[run.len() / 2]);
                        }
                        run.clear();
                    }
                }
            }
        }
        doors
    }

    /// The name of the region most of `room`'s cells (on the map) belong to, ties going to the
    /// region named first; `None` when none of them is in a region.
    pub fn room_region(&self, room: &Room) -> Option<&str> {
        let mut counts = vec![0u32; self.region_names().len()];
        for p in room.rect.cells() {
            if let Ok(r) = self.region_at(p) {
                counts[r as usize] += 1;
            }
        }
        let (best, &n) = counts
            .iter()
            .enumerate()
            .skip(1)
            .max_by(|(i, a), (j, b)| a.cmp(b).then(j.cmp(i)))?;
        (n > 0).then(|| self.region_name(best as u16))
    }

    /// The cell a player enters the level on, the first of:
    /// 1. the recipe's start: the tags `start_x` and `start_y` (set by
    ///    `warren.gen.start_and_stairs`, or by a recipe with `map:tag`), when they name a cell
    ///    of the map;
    /// 2. the first up stairs;
    /// 3. the standable cell (passable, no door) nearest the centre of the first room that has
    ///    one, ties in reading order;
    /// 4. the first standable cell in reading order.
    ///
    /// `None` only for a level with no standable cell.
    pub fn entry(&self) -> Option<Point> {
        let tag = |name: &str| match self.notes.tags.get(name) {
            Some(&TagValue::Int(v)) => i32::try_from(v).ok(),
            _ => None,
        };
        if let (Some(x), Some(y)) = (tag("start_x"), tag("start_y")) {
            if self.in_bounds(Point::new(x, y)) {
                return Some(Point::new(x, y));
            }
        }
        if let Some(&up) = self.notes.stairs.up.first() {
            return Some(up);
        }
        let standable =
            |p: Point| self.is_passable(p).unwrap_or(false) && !self.is_door(p).unwrap_or(true);
        let in_room = self.notes.rooms.iter().find_map(|room| {
            let centre = room.rect.center();
            room.rect
                .cells()
                .filter(|&p| standable(p))
                .min_by_key(|&p| p.dist2(centre))
        });
        in_room.or_else(|| {
            (0..self.len())
                .map(|i| self.point(i))
                .find(|&p| standable(p))
        })
    }
}

/// The four sides of the ring just outside `rect`, corners excluded: top and bottom left to
/// right, right and left top to bottom, in the order top, right, bottom, left.
fn ring_sides(rect: Rect) -> [Vec<Point>; 4] {
    if rect.is_empty() {
        return Default::default();
    }
    let (x1, y1, x2, y2) = (rect.x, rect.y, rect.x2(), rect.y2());
    [
        (x1..=x2).map(|x| Point::new(x, y1 - 1)).collect(),
        (y1..=y2).map(|y| Point::new(x2 + 1, y)).collect(),
        (x1..=x2).map(|x| Point::new(x, y2 + 1)).collect(),
        (y1..=y2).map(|y| Point::new(x1 - 1, y)).collect(),
    ]
}
