//! Free names: every global a chunk reads or writes, and every member of a standard library
//! it uses, against what the sandbox provides ([`crate::surface`]).
//!
//! Stock Lua semantics, decided for a recipe and the modules it loads together (they share one
//! global table):
//! - assigning a global defines it for every function of every file of the recipe, whatever
//!   the order (`Config = {}` in a module, read in the recipe); assigning a member of a
//!   standard library (`string.split = …`, `function table.random(t) … end`) defines that
//!   member the same way;
//! - reading a global that is neither provided nor assigned anywhere is an error, except as a
//!   feature test: a name read only to see whether it exists (`unpack or table.unpack`,
//!   `if jit then`, `x == nil`, `type(x)`) may be nil, and once tested anywhere it is not
//!   reported elsewhere either (`if jit then jit.off() end`); the same holds for library
//!   members (`table.unpack or unpack`);
//! - a global that is assigned but read nowhere in the recipe's files is a warning (a typo, or
//!   a missing `local`).

use super::stock;
use super::value::Val;
use crate::api::call::did_you_mean;
use crate::api::decl::Owner;
use crate::surface;
use std::collections::BTreeSet;

/// What the files of one recipe define and test, collected before they are checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Defs {
    /// Globals assigned somewhere.
    pub globals: BTreeSet<String>,
    /// Globals read somewhere.
    pub reads: BTreeSet<String>,
    /// Globals tested for existence somewhere.
    pub tested: BTreeSet<String>,
    /// Library members assigned somewhere: (library, member).
    pub members: BTreeSet<(String, String)>,
    /// Library members tested for existence somewhere.
    pub tested_members: BTreeSet<(String, String)>,
    /// Names of methods the files define (`function C:m()`, `C.m = function(self, …)`): a
    /// method call by that name on a value of unknown type may be the recipe's own.
    pub methods: BTreeSet<String>,
}

impl Defs {
    /// Adds what `other` found.
    pub fn merge(&mut self, other: &Defs) {
        self.globals.extend(other.globals.iter().cloned());
        self.reads.extend(other.reads.iter().cloned());
        self.tested.extend(other.tested.iter().cloned());
        self.members.extend(other.members.iter().cloned());
        self.tested_members
            .extend(other.tested_members.iter().cloned());
        self.methods.extend(other.methods.iter().cloned());
    }

    /// Whether reading global `name` is fine.
    pub fn global_ok(&self, name: &str) -> bool {
        sandbox_global(name).is_some() || self.globals.contains(name) || self.tested.contains(name)
    }

    /// Whether `lib.member` is there (provided, assigned, or tested for).
    pub fn member_ok(&self, lib: &str, member: &str) -> bool {
        let key = (lib.to_string(), member.to_string());
        library(lib).is_none_or(|m| m.contains(&member))
            || self.members.contains(&key)
            || self.tested_members.contains(&key)
    }
}

/// What the sandbox's global `name` holds, or `None` when the sandbox does not provide it.
pub fn sandbox_global(name: &str) -> Option<Val> {
    if name == "_ENV" {
        // Not a global but the environment itself, in every chunk.
        return Some(Val::Table);
    }
    let name: &'static str = surface::GLOBALS.iter().find(|g| **g == name)?;
    Some(match name {
        "warren" => Val::Api(Owner::Warren),
        "_VERSION" => Val::Str(None),
        _ if library(name).is_some() => Val::Lib(name),
        "_G" => Val::Table,
        _ if stock::MEMBERS.iter().any(|(l, _)| *l == name) => Val::Table,
        _ => Val::Builtin(name),
    })
}

/// The sandbox's members of library `lib`, if the surface lists them.
pub fn library(lib: &str) -> Option<&'static [&'static str]> {
    surface::LIBRARIES
        .iter()
        .find(|(l, _)| *l == lib)
        .map(|(_, m)| *m)
}

/// What a library member holds: a number for the constants, else a function.
pub fn member_val(lib: &str, member: &str) -> Val {
    match (lib, member) {
        ("math", "pi" | "huge" | "maxinteger" | "mininteger") => Val::Num(None),
        ("utf8", "charpattern") => Val::Str(None),
        _ => Val::Function(None),
    }
}

/// The message for reading global `name`, which is not there; `near` are names it may have
/// meant besides the sandbox's (the recipe's globals and the locals in scope).
pub fn undefined_global(name: &str, near: &[&str]) -> String {
    if stock::has_global(name) {
        return format!("undefined global '{name}': warren's sandbox does not provide it");
    }
    let mut names: Vec<&str> = surface::GLOBALS.to_vec();
    names.extend_from_slice(near);
    format!("undefined global '{name}'{}", did_you_mean(name, &names))
}

/// The message for `lib.member`, which is not there.
pub fn missing_member(lib: &str, member: &str, defs: &Defs) -> String {
    if stock::has_member(lib, member) {
        return format!("{lib}.{member} is not available in warren's sandbox");
    }
    let mut names: Vec<&str> = library(lib).unwrap_or_default().to_vec();
    names.extend(
        defs.members
            .iter()
            .filter(|(l, _)| l == lib)
            .map(|(_, m)| m.as_str()),
    );
    format!(
        "{lib}.{member} does not exist{}",
        did_you_mean(member, &names)
    )
}
