//! The analysis's values: declared types and joins (`check/value.rs`).

use warren_lua::api::decl::Owner;
use warren_lua::check::value::{join, Val};

#[test]
fn declared_types_become_values() {
    assert_eq!(Val::from_lua_type("warren.Rng"), Val::Api(Owner::Rng));
    assert_eq!(Val::from_lua_type("warren.Map?"), Val::Api(Owner::Map));
    assert_eq!(Val::from_lua_type("integer?"), Val::Num(None));
    assert!(
        matches!(Val::from_lua_type("warren.JoinReport"), Val::Record(c) if c.0.name == "warren.JoinReport")
    );
    assert_eq!(Val::from_lua_type("warren.Cell[]"), Val::Table);
    assert_eq!(Val::from_lua_type("any"), Val::Unknown);
}

#[test]
fn joins_keep_what_every_assignment_agrees_on() {
    let s = |v: &str| Val::Str(Some(v.into()));
    assert_eq!(join(Val::Nil, Val::Api(Owner::Map)), Val::Api(Owner::Map));
    assert_eq!(join(s("a"), s("a")), s("a"));
    assert_eq!(join(s("a"), s("b")), Val::Str(None));
    assert_eq!(join(Val::Api(Owner::Rng), Val::Table), Val::Unknown);
    assert_eq!(
        join(Val::Function(Some(3)), Val::Function(None)),
        Val::Function(None)
    );
}
