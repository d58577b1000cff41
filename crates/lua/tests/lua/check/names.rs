//! Globals and library members against the sandbox's surface (`check/names.rs`).

use warren_lua::api::decl::Owner;
use warren_lua::check::names::{missing_member, sandbox_global, undefined_global, Defs};
use warren_lua::check::value::Val;
use warren_lua::surface;

#[test]
fn the_sandbox_surface_decides_what_globals_hold() {
    assert_eq!(sandbox_global("warren"), Some(Val::Api(Owner::Warren)));
    assert_eq!(sandbox_global("string"), Some(Val::Lib("string")));
    assert_eq!(
        sandbox_global("setmetatable"),
        Some(Val::Builtin("setmetatable"))
    );
    assert_eq!(sandbox_global("_ENV"), Some(Val::Table));
    assert_eq!(sandbox_global("debug"), None);
    // Every name of the surface is a global the checks accept.
    for g in surface::GLOBALS {
        assert!(sandbox_global(g).is_some(), "{g}");
    }
}

#[test]
fn messages_tell_typos_from_what_the_sandbox_leaves_out() {
    assert_eq!(
        undefined_global("pirnt", &[]),
        "undefined global 'pirnt' (did you mean 'print'?)"
    );
    assert_eq!(
        undefined_global("conut", &["count"]),
        "undefined global 'conut' (did you mean 'count'?)"
    );
    assert!(undefined_global("debug", &[]).contains("sandbox does not provide it"));
    let mut defs = Defs::default();
    assert_eq!(
        missing_member("string", "fromat", &defs),
        "string.fromat does not exist (did you mean 'format'?)"
    );
    defs.members.insert(("string".into(), "split".into()));
    assert!(missing_member("string", "splt", &defs).ends_with("(did you mean 'split'?)"));
    assert!(defs.member_ok("string", "split") && !defs.member_ok("string", "splt"));
    assert!(missing_member("string", "dump", &defs).contains("not available"));
}
