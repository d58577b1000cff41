//! Parameters resolved from `--set` assignments: types, ranges, unknown keys (`params.rs`).

use warren_lua::params::{resolve, split_assignment};
use warren_lua::{ParamSpec, ParamValue};

fn spec(name: &str, default: ParamValue, min: Option<f64>, max: Option<f64>) -> ParamSpec {
    ParamSpec {
        name: name.into(),
        default,
        min,
        max,
        choices: vec![],
        doc: String::new(),
    }
}

#[test]
fn resolves_types_ranges_and_unknown_keys() {
    let mut s = vec![
        spec("width", ParamValue::Int(80), Some(10.0), Some(200.0)),
        spec("spawns", ParamValue::Bool(false), None, None),
        spec("mode", ParamValue::Text("a".into()), None, None),
    ];
    s[2].choices = vec!["a".into(), "b".into()];
    let v = resolve(&s, &[("width".into(), "99".into())]).unwrap();
    assert_eq!(v["width"], ParamValue::Int(99));
    assert_eq!(v["spawns"], ParamValue::Bool(false));
    let e = resolve(&s, &[("widht".into(), "1".into())]).unwrap_err();
    assert_eq!(
        e,
        "unknown parameter 'widht'; did you mean 'width'? (valid: width, spawns, mode)"
    );
    let e = resolve(&s, &[("width".into(), "5".into())]).unwrap_err();
    assert_eq!(e, "width = 5 is out of range (10..=200)");
    let e = resolve(&s, &[("width".into(), "wide".into())]).unwrap_err();
    assert!(e.contains("not an integer"), "{e}");
    let e = resolve(&s, &[("mode".into(), "c".into())]).unwrap_err();
    assert_eq!(e, "mode = 'c' is not one of its choices: 'a', 'b'");
    assert!(resolve(&s, &[("spawns".into(), "yes".into())]).is_ok());
    assert!(resolve(&s, &[("spawns".into(), "maybe".into())]).is_err());
}

#[test]
fn split_assignment_requires_a_key() {
    assert_eq!(
        split_assignment("a=b=c").unwrap(),
        ("a".into(), "b=c".into())
    );
    assert!(split_assignment("=3").is_err());
    assert!(split_assignment("abc").is_err());
}
