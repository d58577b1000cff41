//! What every toolbox call reads the same way: where it works (the `rect` and `mask` options;
//! the whole map without either), how a walker moves (`connectivity`, per-terrain `costs` on
//! top of the terrains' own `move_cost` from region data), and how a core error becomes the
//! call's message.

use super::grid::LuaField;
use crate::api::call::{shown, terrain_id, Call, Opts};
use crate::api::classes::WRITE_OPTIONS;
use crate::api::decl::{key_opt, key_or, Class, Default, Field as Key, Owner, Ty};
use crate::api::meter::LuaMeter;
use crate::api::shapes;
use crate::budget::Reservation;
use crate::state::{charge, reserve};
use mlua::Value;
use warren_core::gen::area::{Area, Mask};
use warren_core::gen::field::distance::{Cost, MoveRules, MAX_COST};
use warren_core::gen::tool_error::ToolError;
use warren_core::map::{Adjacency, Map, Rect};

const RECT: Key = key_opt(
    "rect",
    Ty::Rect,
    "Work only inside this rectangle (a `warren.rect`, a room record, `{x=, y=, w=, h=}`); it must lie on the map.",
);
const MASK: Key = key_opt(
    "mask",
    Ty::Object(Owner::Field),
    "Work only on the cells where this field is finite and above 0 (such as `field:mask(lo, hi)` makes).",
);

/// Where a toolbox call works.
pub const AREA_OPTIONS: Class = Class {
    name: "warren.AreaOptions",
    parent: None,
    doc: "Where a toolbox call works: the whole map, or only inside `rect` or on the cells of `mask` (not both).",
    fields: &[RECT, MASK],
};

/// Where a toolbox call that writes works, and how it writes.
pub const AREA_WRITE_OPTIONS: Class = Class {
    name: "warren.AreaWriteOptions",
    parent: Some(&WRITE_OPTIONS),
    doc: "Where a toolbox call writes (the whole map, or only inside `rect` or on the cells of `mask`) and how.",
    fields: &[RECT, MASK],
};

/// How a walker moves, for distance maps and paths.
pub const MOVE_OPTIONS: Class = Class {
    name: "warren.MoveOptions",
    parent: Some(&AREA_OPTIONS),
    doc: "How a walker moves: its steps, and what entering each terrain costs.",
    fields: &[
        key_or(
            "connectivity",
            Ty::Choice(&Adjacency::NAMES),
            Default::Str("8"),
            "\"8\": the eight neighbours, a diagonal step costing what a straight one does (Chebyshev distances); \"4\": north, south, east and west only.",
        ),
        key_opt(
            "costs",
            Ty::AnyTable,
            "What entering a terrain costs, by terrain name: a whole number 1..=1000 (even for solid terrain), \"blocked\" or \"default\" (1 where a walker may stand, blocked elsewhere). Overrides the terrains' `move_cost` from region data.",
        ),
    ],
};

/// An area as a toolbox call received it: a mask is made from the field (its memory held by
/// the budget while the call runs).
pub enum Where {
    /// The whole map.
    Map,
    /// A rectangle.
    Rect(Rect),
    /// The cells a field marks, and the memory the mask takes.
    Mask(Mask, Reservation),
}

impl Where {
    /// The core's area.
    pub fn area(&self) -> Area<'_> {
        match self {
            Where::Map => Area::Map,
            Where::Rect(r) => Area::Rect(*r),
            Where::Mask(m, _) => Area::Mask(m),
        }
    }
}

/// The `rect` or `mask` of options whose class has [`AREA_OPTIONS`]' keys.
pub fn read(o: &Opts) -> mlua::Result<Where> {
    let c = o.call();
    let mask = o.value("mask");
    match (o.opt_table("rect")?, mask) {
        (Some(_), m) if !m.is_nil() => Err(c.fail(format!(
            "give {} `rect` or `mask`, not both",
            c.decl().args.last().map_or("opts", |a| a.name)
        ))),
        (Some(t), _) => Ok(Where::Rect(shapes::rect_from(c, &t, "opts.rect")?)),
        (None, Value::Nil) => Ok(Where::Map),
        (None, Value::UserData(ud)) if ud.is::<LuaField>() => {
            let f = LuaField::read_ud(&ud).map_err(|_| c.busy())?;
            let (w, h) = (f.field.width(), f.field.height());
            let held = reserve(c.lua(), Mask::bytes_for(w, h), &c.decl().call_name())?;
            charge(c.lua(), crate::api::cost::cell_work(w as u64 * h as u64))?;
            Ok(Where::Mask(f.field.mask(f32::MIN_POSITIVE, f32::MAX), held))
        }
        (None, _) => Err(o.bad("mask")),
    }
}

/// The move rules of options of class [`MOVE_OPTIONS`] on `map`: each terrain's `move_cost`
/// from region data, then `opts.costs`.
pub fn move_rules(o: &Opts, map: &Map) -> mlua::Result<MoveRules> {
    let c = o.call();
    let adjacency = Adjacency::from_name(Adjacency::NAMES[o.choice("connectivity")?])
        .expect("declared choices are adjacency names");
    let mut rules = MoveRules::new(adjacency);
    let terrains = map.terrains();
    for id in 0..terrains.len() {
        if let Some(cost) = terrains.get(id as u16).move_cost {
            rules = rules.with(id as u16, Cost::Units(cost));
        }
    }
    let Some(t) = o.opt_table("costs")? else {
        return Ok(rules);
    };
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair?;
        charge(c.lua(), 1)?;
        let Value::String(name) = &k else {
            return Err(c.fail(format!(
                "opts.costs keys must be terrain names, got {}",
                shown(&k)
            )));
        };
        let name = name.to_string_lossy();
        let id = terrain_id(c, map, &name)?;
        let cost = match &v {
            Value::String(s) if s.to_string_lossy() == "blocked" => Cost::Blocked,
            Value::String(s) if s.to_string_lossy() == "default" => Cost::Default,
            v => match crate::api::call::as_int(v) {
                Some(n) if (1..=MAX_COST as i64).contains(&n) => Cost::Units(n as u32),
                _ => {
                    return Err(c.fail(format!(
                        "opts.costs['{name}'] must be a whole number 1..={MAX_COST}, \"blocked\" or \"default\", got {}",
                        shown(v)
                    )))
                }
            },
        };
        rules = rules.with(id, cost);
    }
    Ok(rules)
}

/// Reserves what a search over `map` keeps while it runs (distance maps, paths, culling): a
/// cost and a distance per cell of the map padded with a ring of walls, four bytes each.
pub fn reserve_search(c: &Call, map: &Map) -> mlua::Result<Reservation> {
    let padded = (map.width() as usize + 2) * (map.height() as usize + 2);
    reserve(c.lua(), padded * 8, &c.decl().call_name())
}

/// A core error as the call's: a budget stop is the budget's error, anything else names the
/// call.
pub fn error(c: &Call, meter: &mut LuaMeter, e: ToolError) -> mlua::Error {
    match e {
        ToolError::Stopped(_) => meter.stopped(),
        e => c.fail(e),
    }
}
