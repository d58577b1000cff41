//! The orders a rectangle list sorts in (`rooms:sort`), for its binding and its fast call.

use warren_core::map::Rect;

/// The orders `rooms:sort` takes, by index (see [`sort_rects`]).
pub const SORT_ORDERS: [&str; 3] = ["leftmost", "topmost", "largest"];

/// Sorts `rects` in order `order` of [`SORT_ORDERS`].
pub fn sort_rects(rects: &mut [Rect], order: usize) {
    match order {
        0 => rects.sort_by_key(|a| (a.x, a.y)),
        1 => rects.sort_by_key(|a| (a.y, a.x)),
        _ => rects.sort_by_key(|a| (-(a.w * a.h), a.x, a.y)),
    }
}
