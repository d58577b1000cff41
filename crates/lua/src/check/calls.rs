//! A call of a declared function or method checked against its declaration, as the runtime
//! would check it, with the runtime's words: the number of arguments, literal values of the
//! wrong type or out of the declared range or choices, terrain names no region file declares,
//! and the keys and values of a literal options table (with did-you-mean).
//!
//! Only what is certain is reported: a value the checker cannot see (a variable, a call's
//! result) passes, and so does a table whose keys are computed.

use super::finding::Finding;
use super::known::Known;
use super::syntax::{self, Pos};
use super::value::Val;
use crate::api::call::{did_you_mean, quoted};
use crate::api::classes::{CELL, RECT_LIKE};
use crate::api::decl::{Class, Decl, Owner, Ty};
use full_moon::ast::{Expression, Field, TableConstructor, UnOp};
use std::collections::HashMap;
use warren_core::map::priority;

/// One argument as the walk saw it.
#[derive(Clone, Debug)]
pub struct Passed<'t> {
    /// What is known about it.
    pub val: Val,
    /// Where it starts.
    pub at: Pos,
    /// The table constructor it is, if it is one.
    pub table: Option<&'t TableConstructor>,
}

/// The arguments of a call.
#[derive(Clone, Debug, Default)]
pub struct Args<'t> {
    /// Each argument written.
    pub passed: Vec<Passed<'t>>,
    /// Whether the last one is a call or `...`, which may stand for any number of values.
    pub open: bool,
}

/// Where a value is and how messages name it.
#[derive(Clone, Copy)]
struct Place<'p> {
    /// The value (`argument 3 (terrain)`, `opts.priority`).
    label: &'p str,
    /// The value as a table, for its keys (`opts`, `opts.style`).
    table: &'p str,
    /// Where it starts.
    at: Pos,
}

/// Checks calls against declarations.
pub struct CallCheck<'a> {
    /// The region data.
    pub known: &'a Known,
    /// What the walk computed for the values of table fields, by the value's byte offset.
    pub fields: &'a HashMap<usize, Val>,
    /// Where findings go.
    pub out: &'a mut Vec<Finding>,
}

impl CallCheck<'_> {
    /// Checks a call of `decl` at `at` (the member's name) with `args`.
    pub fn call(&mut self, decl: &'static Decl, at: Pos, args: &Args) {
        let call = decl.call_name();
        let n = args.passed.len();
        // A call or `...` last may stand for no value at all.
        let certain = if args.open { n - 1 } else { n };
        if let Some(most) = decl.max_args() {
            if certain > most {
                let s = if most == 1 { "" } else { "s" };
                self.error(
                    at,
                    format!(
                        "{call}: takes at most {most} argument{s} ({}), got {certain}",
                        decl.synopsis()
                    ),
                );
                return;
            }
        }
        for (i, a) in decl.args.iter().enumerate() {
            match args.passed.get(i) {
                Some(p) => {
                    let label = format!("argument {} ({})", i + 1, a.name);
                    let at = Place {
                        label: &label,
                        table: a.name,
                        at: p.at,
                    };
                    self.value(decl, &a.ty, &p.val, p.table, at, a.optional);
                }
                None if !a.optional && !args.open => {
                    self.error(
                        at,
                        format!(
                            "{call}: argument {} ({}) is missing: expected {} ({})",
                            i + 1,
                            a.name,
                            a.ty.describe(),
                            decl.synopsis()
                        ),
                    );
                    return;
                }
                None => {}
            }
        }
    }

    fn error(&mut self, at: Pos, message: String) {
        self.out.push(Finding::error(at, message));
    }

    /// Checks one value against its declared type.
    fn value(
        &mut self,
        decl: &'static Decl,
        ty: &Ty,
        val: &Val,
        table: Option<&TableConstructor>,
        place: Place,
        optional: bool,
    ) {
        let call = decl.call_name();
        let Place { label, at, .. } = place;
        match val {
            Val::Unknown | Val::Undeclared => return,
            Val::Nil if optional => return,
            Val::Nil => {
                let what = ty.describe();
                let synopsis = decl.synopsis();
                return self.error(
                    at,
                    format!("{call}: {label} is missing: expected {what} ({synopsis})"),
                );
            }
            _ => {}
        }
        if !fits(ty, val) {
            let message = format!(
                "{call}: {label} must be {}, got {}",
                ty.describe(),
                val.shown()
            );
            return self.error(at, message);
        }
        match (ty, val) {
            (Ty::Int { .. } | Ty::Num { .. }, Val::Num(Some((n, _)))) if !in_range(ty, *n) => {
                let message = format!(
                    "{call}: {label} must be {}, got {}",
                    ty.describe(),
                    val.shown()
                );
                self.error(at, message);
            }
            (Ty::Choice(names), Val::Str(Some(s))) if !names.contains(&s.as_str()) => {
                let message = format!(
                    "{call}: {label} = \"{s}\" is not one of {}{}",
                    quoted(names),
                    did_you_mean(s, names)
                );
                self.error(at, message);
            }
            (Ty::Terrain, Val::Str(Some(s))) => {
                if let Some(message) = unknown_terrain(self.known, s) {
                    self.error(at, format!("{call}: {message}"));
                }
            }
            (Ty::Priority, Val::Str(Some(s))) if priority::by_name(s).is_none() => {
                let names: Vec<String> = priority::NAMED
                    .iter()
                    .map(|(n, _)| n.to_ascii_lowercase())
                    .collect();
                let refs: Vec<&str> = names.iter().map(String::as_str).collect();
                let message = format!(
                    "{call}: {label} = \"{s}\" is not a priority name{} (valid: 0..=255 or {})",
                    did_you_mean(&s.to_ascii_lowercase(), &refs),
                    refs.join(", ")
                );
                self.error(at, message);
            }
            (Ty::Priority, Val::Num(Some((n, _))))
                if n.fract() != 0.0 || !(0.0..=255.0).contains(n) =>
            {
                let message = format!(
                    "{call}: {label} = {} is out of range (0..=255)",
                    val.shown()
                );
                self.error(at, message);
            }
            (Ty::Table(class), _) => {
                if let Some(t) = table {
                    self.table(decl, class, t, place.table);
                }
            }
            _ => {}
        }
    }

    /// Checks a table constructor passed where `class` is declared.
    fn table(
        &mut self,
        decl: &'static Decl,
        class: &'static Class,
        t: &TableConstructor,
        name: &str,
    ) {
        let call = decl.call_name();
        // Rectangles and cells are read by their keys (and old positional fields); other
        // classes are options tables, whose every key must be declared.
        let strict = !is_shape(class);
        let mut complete = true;
        let mut present = Vec::new();
        for field in t.fields().iter() {
            let (key, key_at, value) = match field {
                Field::NameKey { key, value, .. } => (syntax::text(key), syntax::pos(key), value),
                Field::ExpressionKey { key, value, .. } => match &**key {
                    Expression::String(k) => match syntax::string_value(k) {
                        Some(s) => (s, syntax::pos(k), value),
                        None => {
                            complete = false;
                            continue;
                        }
                    },
                    _ => {
                        complete = false;
                        continue;
                    }
                },
                _ => {
                    complete = false;
                    continue;
                }
            };
            match class.field(&key) {
                None if strict => {
                    let keys = class.keys();
                    self.error(
                        key_at,
                        format!(
                            "{call}: unknown option '{key}' in {name}{} (valid: {})",
                            did_you_mean(&key, &keys),
                            keys.join(", ")
                        ),
                    );
                }
                None => {}
                Some(f) => {
                    let val = self.field_value(value);
                    let inner = match &**value {
                        Expression::TableConstructor(t) => Some(&**t),
                        _ => None,
                    };
                    let label = format!("{name}.{key}");
                    let place = Place {
                        label: &label,
                        table: &label,
                        at: syntax::start(&**value),
                    };
                    self.value(decl, &f.ty, &val, inner, place, !f.required);
                }
            }
            present.push(key);
        }
        if complete {
            for f in class.all_fields() {
                if f.required && !present.iter().any(|k| k == f.key) {
                    self.error(
                        syntax::start(t),
                        format!("{call}: {name} needs '{}': {}", f.key, f.ty.describe()),
                    );
                }
            }
        }
    }

    /// A table field's value: what the walk computed, else what its literal says.
    fn field_value(&self, value: &Expression) -> Val {
        let offset = syntax::offset_of(value);
        self.fields
            .get(&offset)
            .cloned()
            .unwrap_or_else(|| literal(value))
    }
}

/// Whether `class` is a rectangle or a cell (or extends one): read by key, extra keys ignored.
fn is_shape(class: &Class) -> bool {
    let mut c = Some(class);
    while let Some(k) = c {
        if k.name == RECT_LIKE.name || k.name == CELL.name {
            return true;
        }
        c = k.parent;
    }
    false
}

/// Whether number `n` is in the range of `ty` (an integer in range for [`Ty::Int`]).
fn in_range(ty: &Ty, n: f64) -> bool {
    match ty {
        Ty::Int { min, max } => n.fract() == 0.0 && n >= *min as f64 && n <= *max as f64,
        Ty::Num { min, max } => n >= *min && n <= *max,
        _ => true,
    }
}

/// Whether a value of what `val` says can be of type `ty` at all.
fn fits(ty: &Ty, val: &Val) -> bool {
    let userdata = |o: &Owner| !o.is_module() && *o != Owner::Rect;
    match ty {
        Ty::Any => true,
        Ty::Int { .. } | Ty::Num { .. } => matches!(val, Val::Num(_)),
        Ty::Bool => matches!(val, Val::Bool(_)),
        Ty::Str | Ty::Choice(_) | Ty::Terrain => matches!(val, Val::Str(_)),
        Ty::Priority => matches!(val, Val::Num(_) | Val::Str(_)),
        Ty::Map => *val == Val::Api(Owner::Map),
        Ty::Rng => *val == Val::Api(Owner::Rng),
        Ty::Object(o) => *val == Val::Api(*o),
        Ty::Function => matches!(val, Val::Function(_) | Val::Member(_) | Val::Builtin(_)),
        Ty::Rects | Ty::List => val.may_be_table() || *val == Val::Api(Owner::Rects),
        Ty::Rect
        | Ty::Cell
        | Ty::Cells
        | Ty::Strings
        | Ty::AnyTable
        | Ty::Table(_)
        | Ty::TableList(_) => val.may_be_table() || matches!(val, Val::Api(o) if !userdata(o)),
    }
}

/// The message for terrain `name` when no region file declares it.
pub fn unknown_terrain(known: &Known, name: &str) -> Option<String> {
    let terrains = known.terrains.as_ref()?;
    if terrains.contains(name) {
        return None;
    }
    let names: Vec<&str> = terrains.iter().map(String::as_str).collect();
    Some(format!(
        "unknown terrain '{name}'{} (known: {})",
        did_you_mean(name, &names),
        quoted(&names)
    ))
}

/// What a literal expression is, without looking anything up.
pub fn literal(e: &Expression) -> Val {
    match e {
        Expression::String(t) => Val::Str(syntax::string_value(t)),
        Expression::Number(t) => Val::Num(syntax::number_value(t)),
        Expression::Symbol(t) => match syntax::text(t).as_str() {
            "nil" => Val::Nil,
            "true" => Val::Bool(Some(true)),
            "false" => Val::Bool(Some(false)),
            _ => Val::Unknown,
        },
        Expression::TableConstructor(_) => Val::Table,
        Expression::Function(_) => Val::Function(None),
        Expression::Parentheses { expression, .. } => literal(expression),
        Expression::UnaryOperator {
            unop: UnOp::Minus(_),
            expression,
        } => match literal(expression) {
            Val::Num(Some((n, int))) => Val::Num(Some((-n, int))),
            _ => Val::Num(None),
        },
        _ => Val::Unknown,
    }
}
