//! The fast methods' argument readers agree with their bindings' declarations
//! (`api/fast/args.rs`).

use warren_lua::api::decl::{arg, opt, Decl, Owner, Ty};
use warren_lua::api::fast::read::{agree, Read};
use warren_lua::api::{decls, gen, map, rects, rng};

/// The fast methods that answer for no declaration of warren's API, but for Lua's own
/// signature: `math.random` and the lists' `#`.
const LUA_OWN: [(Owner, &str); 2] = [(Owner::Warren, "random"), (Owner::Rects, "__len")];

#[test]
fn every_fast_method_reads_the_arguments_its_binding_declares() {
    let fast = [
        map::fast_readers(),
        gen::fast_readers(),
        rng::fast_readers(),
        rects::fast_readers(),
    ]
    .concat();
    assert!(fast.len() >= 23, "{} fast methods", fast.len());
    let declared = decls();
    for (decl, reads) in fast {
        let name = decl.call_name();
        let binding = declared
            .iter()
            .find(|d| (d.owner, d.kind, d.name) == (decl.owner, decl.kind, decl.name));
        match binding {
            // The binding's own declaration (the same const, so the same arguments).
            Some(binding) => assert_eq!(format!("{binding:?}"), format!("{decl:?}")),
            None => assert!(
                LUA_OWN.contains(&(decl.owner, decl.name)),
                "{name} has a fast path but no declaration"
            ),
        }
        assert!(
            agree(decl, reads),
            "{name} reads {reads:?}: not its declared arguments"
        );
    }
}

#[test]
fn a_reader_that_disagrees_with_its_declaration_is_told() {
    const D: Decl = Decl::method(Owner::Map, "set", "").args(&[
        arg("x", Ty::INT),
        arg("t", Ty::Terrain),
        opt("n", Ty::INT),
    ]);
    assert!(agree(&D, &[Read::Int, Read::Text, Read::Int]));
    // A reader short, or one of another type.
    assert!(!agree(&D, &[Read::Int, Read::Text]));
    assert!(!agree(&D, &[Read::Text, Read::Text, Read::Int]));
    assert!(!agree(&D, &[Read::Int, Read::Int, Read::Int]));
    assert!(!agree(&D, &[Read::Int, Read::Choice, Read::Int]));
    // Options of another class, or with a key the class does not declare (a parent's
    // key is the class's own).
    use warren_lua::api::classes::{CARVE_OPTIONS, WRITE_OPTIONS};
    const O: Decl =
        Decl::method(Owner::Map, "carve", "").args(&[opt("o", Ty::Table(&CARVE_OPTIONS))]);
    let options = |class, keys| [Read::Options { class, keys }];
    assert!(agree(&O, &options(&CARVE_OPTIONS, &["kind", "force"])));
    assert!(!agree(&O, &options(&WRITE_OPTIONS, &["force"])));
    assert!(!agree(&O, &options(&CARVE_OPTIONS, &["kinds"])));
}
