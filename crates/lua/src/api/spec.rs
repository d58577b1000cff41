//! The Lua API described as data: one [`Entry`] per function, method or field and one
//! [`Class`] per options table. The entries themselves are in [`super::entries`]; `warren stubs`
//! turns them into LuaLS stubs, `warren check` reads which arguments are terrain names, and a
//! test keeps them and the registered bindings in step (every binding has an entry and every
//! entry a binding).

/// Where an entry lives in Lua.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Owner {
    /// The `warren` module (`warren.rect`, `warren.prio`, …).
    Warren,
    /// `warren.gen`: whole phases in Rust.
    Gen,
    /// The map userdata a recipe's `generate` receives.
    Map,
    /// `ctx.rng` and its streams.
    Rng,
    /// The `ctx` table.
    Ctx,
    /// Rectangles made by `warren.rect`.
    Rect,
}

impl Owner {
    /// Every owner, in stub order.
    pub const ALL: [Owner; 6] = [
        Owner::Map,
        Owner::Rng,
        Owner::Rect,
        Owner::Ctx,
        Owner::Warren,
        Owner::Gen,
    ];

    /// The LuaLS class that describes the owner.
    pub fn class(self) -> &'static str {
        match self {
            Owner::Warren => "warren",
            Owner::Gen => "warren.gen",
            Owner::Map => "warren.Map",
            Owner::Rng => "warren.Rng",
            Owner::Ctx => "warren.Ctx",
            Owner::Rect => "warren.Rect",
        }
    }
}

/// What kind of member an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Called with `:` (`map:get(x, y)`).
    Method,
    /// Called with `.` (`warren.rect(…)`, `ctx.log(…)`).
    Function,
    /// A value (`map.width`, `ctx.seed`).
    Field,
}

/// One function, method or field of the Lua API.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Where it lives.
    pub owner: Owner,
    /// Its name.
    pub name: &'static str,
    /// What kind of member it is.
    pub kind: Kind,
    /// For functions and methods `(name: type, opt?: type): ret1, ret2`; for fields the type.
    /// Types are LuaLS types; `warren.Terrain` marks a terrain name.
    pub sig: &'static str,
    /// What it does, for the stubs (one or more sentences).
    pub doc: &'static str,
}

/// A method entry.
pub const fn method(
    owner: Owner,
    name: &'static str,
    sig: &'static str,
    doc: &'static str,
) -> Entry {
    Entry {
        owner,
        name,
        kind: Kind::Method,
        sig,
        doc,
    }
}

/// A function entry.
pub const fn function(
    owner: Owner,
    name: &'static str,
    sig: &'static str,
    doc: &'static str,
) -> Entry {
    Entry {
        owner,
        name,
        kind: Kind::Function,
        sig,
        doc,
    }
}

/// A field entry.
pub const fn field(owner: Owner, name: &'static str, ty: &'static str, doc: &'static str) -> Entry {
    Entry {
        owner,
        name,
        kind: Kind::Field,
        sig: ty,
        doc,
    }
}

/// A table type (an options table, a record a function returns): LuaLS `---@class`.
#[derive(Clone, Copy, Debug)]
pub struct Class {
    /// Its LuaLS name (`warren.WriteOptions`).
    pub name: &'static str,
    /// What it is.
    pub doc: &'static str,
    /// `(name, type, doc)`; a name ending in `?` is optional.
    pub fields: &'static [(&'static str, &'static str, &'static str)],
}

/// One parameter of a signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name, without `?`.
    pub name: String,
    /// Its LuaLS type.
    pub ty: String,
    /// Whether it may be left out.
    pub optional: bool,
}

/// A parsed signature: parameters and return types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Parameters in order.
    pub params: Vec<Param>,
    /// Return types in order (empty: returns nothing).
    pub returns: Vec<String>,
}

impl Entry {
    /// The parsed signature of a function or method; `None` for fields or a malformed `sig`
    /// (the entries test rejects those).
    pub fn signature(&self) -> Option<Signature> {
        if self.kind == Kind::Field {
            return None;
        }
        let rest = self.sig.strip_prefix('(')?;
        let close = matching_paren(rest)?;
        let (inner, after) = (&rest[..close], &rest[close + 1..]);
        let params = split_top(inner)
            .into_iter()
            .map(|p| {
                let (name, ty) = p.split_once(':')?;
                let (name, optional) = match name.trim().strip_suffix('?') {
                    Some(n) => (n, true),
                    None => (name.trim(), false),
                };
                Some(Param {
                    name: name.to_string(),
                    ty: ty.trim().to_string(),
                    optional,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let returns = match after.trim().strip_prefix(':') {
            Some(r) => split_top(r),
            None if after.trim().is_empty() => Vec::new(),
            None => return None,
        };
        Some(Signature { params, returns })
    }

    /// 0-based positions of the arguments that are terrain names (as Lua passes them, without
    /// the `self` of a method).
    pub fn terrain_args(&self) -> Vec<usize> {
        self.signature()
            .map(|s| {
                s.params
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.ty.trim_end_matches('?') == "warren.Terrain")
                    .map(|(i, _)| i)
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The index of the `)` that closes an already opened `(`.
fn matching_paren(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '{' | '<' | '[' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' | '}' | '>' | ']' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Splits on commas outside brackets, trimming; an empty string gives no parts.
fn split_top(s: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | '{' | '<' | '[' => depth += 1,
            ')' | '}' | '>' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        parts.push(cur.trim().to_string());
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_parse_nested_types_and_optional_params() {
        let e = method(
            Owner::Map,
            "set",
            "(x: integer, f: fun(a: integer, b: string): boolean, t: warren.Terrain, opts?: {a: integer, b: integer}): boolean, integer",
            "",
        );
        let s = e.signature().unwrap();
        let names: Vec<&str> = s.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["x", "f", "t", "opts"]);
        assert_eq!(s.params[1].ty, "fun(a: integer, b: string): boolean");
        assert!(s.params[3].optional && !s.params[2].optional);
        assert_eq!(s.returns, ["boolean", "integer"]);
        assert_eq!(e.terrain_args(), [2]);
        assert!(method(Owner::Map, "x", "(a: integer", "")
            .signature()
            .is_none());
        assert!(method(Owner::Map, "x", "(a) nonsense", "")
            .signature()
            .is_none());
    }
}
