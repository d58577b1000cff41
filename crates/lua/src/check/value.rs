//! What the checker knows about a value: its type where it can tell (an API object, a standard
//! library, a literal), nothing otherwise. Types come from literals, from the API declarations'
//! return types, and from what a local is assigned (see [`join`]).

use crate::api::decl::{Class, Decl, Owner};

/// What is known about a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// Nothing: any value.
    Unknown,
    /// `nil`.
    Nil,
    /// A boolean, with its value when literal.
    Bool(Option<bool>),
    /// A number, with its value (and whether it is an integer) when literal.
    Num(Option<(f64, bool)>),
    /// A string, with its value when literal.
    Str(Option<String>),
    /// A table the recipe made (a constructor, `setmetatable`'s result): its members are the
    /// recipe's business.
    Table,
    /// A table of a declared class the API returned (`warren.JoinReport`).
    Record(ClassRef),
    /// A function; `Some` names a local function whose calls are all visible (its declaration's
    /// offset), so its parameters take the types of its arguments.
    Function(Option<usize>),
    /// A module table (`warren.gen`), `ctx`, or an object of an API type (a map, an rng).
    Api(Owner),
    /// An API function or method as a value (`warren.gen.scatter_rooms`, `map.set`).
    Member(DeclRef),
    /// A function of the sandbox's globals (`require`, `setmetatable`), by name.
    Builtin(&'static str),
    /// `warren.prio`.
    Prio,
    /// A standard library table (`string`, `math`, …).
    Lib(&'static str),
    /// A value from a part of the API that is not declared yet (`warren.town` before its
    /// declarations): nothing about it is checked.
    Undeclared,
    /// `ctx.params`.
    Params,
    /// `ctx.regions`.
    Regions,
    /// A section of `ctx.regions` that is a table of keys (`ctx.regions.rooms`).
    Region(String),
}

/// A declaration, equal to another of the same owner and name.
#[derive(Clone, Copy, Debug)]
pub struct DeclRef(pub &'static Decl);

impl PartialEq for DeclRef {
    fn eq(&self, other: &Self) -> bool {
        self.0.owner == other.0.owner && self.0.name == other.0.name
    }
}

/// A class, equal to another of the same name.
#[derive(Clone, Copy, Debug)]
pub struct ClassRef(pub &'static Class);

impl PartialEq for ClassRef {
    fn eq(&self, other: &Self) -> bool {
        self.0.name == other.0.name
    }
}

impl Val {
    /// The value's type as the declarations write it (`warren.Rng`, `integer[]`); unknown for
    /// types the checker does not follow.
    pub fn from_lua_type(ty: &str) -> Val {
        let ty = ty.strip_suffix('?').unwrap_or(ty);
        match ty {
            "integer" | "number" => return Val::Num(None),
            "string" => return Val::Str(None),
            "boolean" => return Val::Bool(None),
            "function" => return Val::Function(None),
            _ => {}
        }
        if let Some(owner) = Owner::ALL.into_iter().find(|o| o.class() == ty) {
            return Val::Api(owner);
        }
        if let Some(class) = crate::api::classes().into_iter().find(|c| c.name == ty) {
            return Val::Record(ClassRef(class));
        }
        if ty.ends_with("[]") || ty.starts_with("table") {
            return Val::Table;
        }
        Val::Unknown
    }

    /// The value in a message: the literal itself, else its kind (`a table`, `a map`).
    pub fn shown(&self) -> String {
        match self {
            Val::Nil => "nil".into(),
            Val::Bool(Some(b)) => b.to_string(),
            Val::Bool(None) => "a boolean".into(),
            Val::Num(Some((n, true))) => format!("{}", *n as i64),
            Val::Num(Some((n, false))) => n.to_string(),
            Val::Num(None) => "a number".into(),
            Val::Str(Some(s)) if s.chars().count() <= 40 => format!("\"{s}\""),
            Val::Str(_) => "a string".into(),
            Val::Function(_) | Val::Member(_) | Val::Builtin(_) => "a function".into(),
            Val::Api(Owner::Map) => "a map".into(),
            Val::Api(o) => format!("a {}", o.class()),
            Val::Unknown | Val::Undeclared => "a value".into(),
            Val::Table
            | Val::Record(_)
            | Val::Prio
            | Val::Lib(_)
            | Val::Params
            | Val::Regions
            | Val::Region(_) => "a table".into(),
        }
    }

    /// Whether the value is a table (or may be one).
    pub fn may_be_table(&self) -> bool {
        matches!(
            self,
            Val::Unknown
                | Val::Undeclared
                | Val::Table
                | Val::Record(_)
                | Val::Prio
                | Val::Lib(_)
                | Val::Params
                | Val::Regions
                | Val::Region(_)
                | Val::Api(Owner::Rect)
        )
    }
}

/// What a variable may hold after being assigned `a` and `b`: `nil` gives way to the other
/// (an unset local is set later), equal types stay, literals of one type lose their value, and
/// anything else is unknown.
pub fn join(a: Val, b: Val) -> Val {
    match (a, b) {
        (Val::Nil, x) | (x, Val::Nil) => x,
        (a, b) if a == b => a,
        (Val::Str(_), Val::Str(_)) => Val::Str(None),
        (Val::Num(_), Val::Num(_)) => Val::Num(None),
        (Val::Bool(_), Val::Bool(_)) => Val::Bool(None),
        (Val::Function(_), Val::Function(_)) => Val::Function(None),
        _ => Val::Unknown,
    }
}
