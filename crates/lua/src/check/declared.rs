//! The API declarations ([`crate::api::decls`]) indexed for the checks: members by owner and
//! name, methods by name, and module tables by path. Everything declared is covered as it is
//! declared; an owner with no declarations yet is not checked at all.

use crate::api::decl::{Decl, Kind, Owner};
use std::collections::HashMap;

/// The declarations, indexed.
pub struct Declared {
    by_member: HashMap<(Owner, &'static str), &'static Decl>,
    by_owner: HashMap<Owner, Vec<&'static Decl>>,
    methods: HashMap<&'static str, Vec<&'static Decl>>,
}

impl Declared {
    /// Indexes every declaration of the API.
    pub fn new() -> Declared {
        Declared::of(crate::api::decls())
    }

    /// Indexes `decls`.
    pub fn of(decls: Vec<&'static Decl>) -> Declared {
        let mut d = Declared {
            by_member: HashMap::new(),
            by_owner: HashMap::new(),
            methods: HashMap::new(),
        };
        for decl in decls {
            d.by_member.insert((decl.owner, decl.name), decl);
            d.by_owner.entry(decl.owner).or_default().push(decl);
            if decl.kind == Kind::Method {
                d.methods.entry(decl.name).or_default().push(decl);
            }
        }
        d
    }

    /// The member `name` of `owner`.
    pub fn member(&self, owner: Owner, name: &str) -> Option<&'static Decl> {
        self.by_member.get(&(owner, name)).copied()
    }

    /// Whether `owner` has declarations (else its members are not checked).
    pub fn covers(&self, owner: Owner) -> bool {
        self.by_owner.contains_key(&owner)
    }

    /// The names of `owner`'s members, in declaration order.
    pub fn names(&self, owner: Owner) -> Vec<&'static str> {
        self.by_owner
            .get(&owner)
            .map(|v| v.iter().map(|d| d.name).collect())
            .unwrap_or_default()
    }

    /// Every method called `name`, whatever its owner.
    pub fn methods_named(&self, name: &str) -> &[&'static Decl] {
        self.methods
            .get(name)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// The module table at `path` (`warren.gen`), if an owner is that module.
    pub fn module(path: &str) -> Option<Owner> {
        Owner::ALL
            .into_iter()
            .find(|o| o.is_module() && o.prefix() == path)
    }
}

impl Default for Declared {
    fn default() -> Self {
        Declared::new()
    }
}
