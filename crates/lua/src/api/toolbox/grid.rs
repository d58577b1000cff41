//! The field object's value: a [`Field`] and the memory it holds, as a Lua userdata
//! ([`LuaField`]; its methods are in `field`).

use crate::api::call::Call;
use crate::api::shared::Shared;
use crate::budget::Reservation;
use crate::state::{charge, reserve};
use mlua::Value;
use warren_core::gen::field::Field;
use warren_core::map::Map;

/// A field and the memory it holds.
pub struct FieldData {
    /// The values.
    pub field: Field,
    _charge: Reservation,
}

/// A field as a Lua userdata.
pub type LuaField = Shared<FieldData>;

/// Makes a field of `map`'s size with every cell `value`, its memory charged first.
pub fn make(c: &Call, map: &Map, value: f32) -> mlua::Result<FieldData> {
    let (w, h) = (map.width(), map.height());
    let charge_ = reserve(c.lua(), Field::bytes_for(w, h), &c.decl().call_name())?;
    charge(c.lua(), crate::api::cost::cell_work(map.len() as u64))?;
    Ok(FieldData {
        field: Field::new(w, h, value),
        _charge: charge_,
    })
}

/// Wraps a field the core made (its memory charged by the caller through `held`).
pub fn wrap(field: Field, held: Reservation) -> FieldData {
    FieldData {
        field,
        _charge: held,
    }
}

/// The memory a field of `map`'s size takes, reserved before a core call makes one.
pub fn reserve_for(c: &Call, map: &Map) -> mlua::Result<Reservation> {
    reserve(
        c.lua(),
        Field::bytes_for(map.width(), map.height()),
        &c.decl().call_name(),
    )
}

/// Argument `i` as a number a field may hold or be cut at: any number but NaN, `math.huge` and
/// `-math.huge` included (unreached cells of a distance map hold `math.huge`).
pub fn any_number(c: &Call, i: usize, v: &Value) -> mlua::Result<f32> {
    match v {
        Value::Integer(n) => Ok(*n as f32),
        Value::Number(n) if !n.is_nan() => Ok(*n as f32),
        Value::Nil if c.decl().args.get(i).is_some_and(|a| a.optional) => Ok(0.0),
        _ => Err(c.bad(i, v)),
    }
}
