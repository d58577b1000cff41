//! Declarations and option classes describe calls (`api/decl.rs`).

use warren_lua::api::decl::{
    arg, field_doc, key_opt, key_or, opt, Class, Decl, Default, Owner, Ty,
};

const PARENT: Class = Class {
    name: "warren.P",
    parent: None,
    doc: "",
    fields: &[key_opt("a", Ty::Bool, "")],
};
const CHILD: Class = Class {
    name: "warren.C",
    parent: Some(&PARENT),
    doc: "",
    fields: &[key_or("b", Ty::int(0, 9), Default::Int(3), "B.")],
};

#[test]
fn classes_inherit_keys_and_declarations_describe_calls() {
    assert_eq!(CHILD.keys(), ["b", "a"]);
    assert!(CHILD.field("a").is_some() && CHILD.field("c").is_none());
    assert_eq!(
        field_doc(CHILD.field("b").unwrap()),
        "B. Range 0..=9. Default 3."
    );
    const D: Decl = Decl::method(Owner::Map, "set", "Writes.")
        .args(&[
            arg("x", Ty::INT),
            arg("n", Ty::int(1, 5)),
            opt("opts", Ty::Table(&CHILD)),
        ])
        .returns(&["boolean"]);
    assert_eq!(D.call_name(), "map:set");
    assert_eq!(D.synopsis(), "map:set(x, n, opts?)");
    assert_eq!((D.min_args(), D.max_args()), (2, Some(3)));
    assert_eq!(D.full_doc(), "Writes. `n`: 1..=5.");
    assert_eq!(Ty::int(0, 100).describe(), "an integer in 0..=100");
    assert_eq!(Ty::Choice(&["a", "b"]).lua_type(), "\"a\"|\"b\"");
}

#[test]
fn a_number_bounded_on_one_side_says_so_instead_of_printing_the_largest_float() {
    let weight = Ty::Num {
        min: 0.0,
        max: f64::MAX,
    };
    assert_eq!(weight.range().as_deref(), Some("≥ 0"));
    assert_eq!(weight.describe(), "a finite number ≥ 0");
    let share = Ty::Num { min: 0.0, max: 1.0 };
    assert_eq!(share.range().as_deref(), Some("0..=1"));
    assert_eq!(share.describe(), "a number in 0..=1");
}
