//! The orders a rectangle list sorts in (`rooms:sort`), for its binding and its fast call.

use crate::api::decl::{arg, Decl, Owner, Ty};
use warren_core::map::{sort_rects_by_cell, sort_rects_by_key, Rect};

/// The orders `rooms:sort` takes, by index (see [`sort_rects`]).
pub const SORT_ORDERS: [&str; 3] = ["leftmost", "topmost", "largest"];

/// Sorts `rects` in order `order` of [`SORT_ORDERS`], ties kept in the list's order.
pub fn sort_rects(rects: &mut [Rect], order: usize) {
    match order {
        0 => sort_rects_by_cell(rects, |a| (a.x, a.y)),
        1 => sort_rects_by_cell(rects, |a| (a.y, a.x)),
        _ => sort_rects_by_key(rects, |a| (-(a.w * a.h), a.x, a.y)),
    }
}

/// `rects:sort(order)`, its binding's and its fast call's declaration.
pub(super) const SORT: Decl = Decl::method(
    Owner::Rects,
    "sort",
    "Sorts the list in place: by left column, by top row, or largest area first (ties by position).",
)
.args(&[arg("order", Ty::Choice(&SORT_ORDERS))]);
