//! Literals decoded and positions counted as Lua does (`check/syntax.rs`).

use full_moon::ast::{Expression, Stmt};
use full_moon::node::Node;
use warren_lua::check::syntax::{number_value, parse, pos, string_value};

/// The first expression of `local x = <expr>`.
fn value(src: &str) -> Expression {
    let ast = parse(&format!("local x = {src}")).unwrap();
    let Some(Stmt::LocalAssignment(l)) = ast.nodes().stmts().next() else {
        panic!("no local")
    };
    l.expressions().iter().next().unwrap().clone()
}

fn string(src: &str) -> Option<String> {
    match value(src) {
        Expression::String(t) => string_value(&t),
        other => panic!("{other} is no string"),
    }
}

fn number(src: &str) -> Option<(f64, bool)> {
    match value(src) {
        Expression::Number(t) => number_value(&t),
        other => panic!("{other} is no number"),
    }
}

#[test]
fn string_literals_are_decoded_as_lua_does() {
    assert_eq!(string(r#""a\tb\"c""#).unwrap(), "a\tb\"c");
    assert_eq!(string(r#"'\65\x42\u{263A}'"#).unwrap(), "AB☺");
    assert_eq!(string("\"a\\z   \n  b\"").unwrap(), "ab");
    assert_eq!(string("[==[\nlong ]] text]==]").unwrap(), "long ]] text");
    assert_eq!(string(r#""\q""#), None);
}

#[test]
fn number_literals_keep_integers_apart() {
    assert_eq!(number("42"), Some((42.0, true)));
    assert_eq!(number("0x10"), Some((16.0, true)));
    assert_eq!(number("2.5"), Some((2.5, false)));
    assert_eq!(number("1e3"), Some((1000.0, false)));
    assert_eq!(number("0x1p4"), None);
}

#[test]
fn positions_count_characters_from_one() {
    let ast = parse("local a = \"é\" .. b\n").unwrap();
    let cols: Vec<usize> = ast.nodes().tokens().map(|t| pos(t).col).collect();
    assert_eq!(cols, [1, 7, 9, 11, 15, 18]);
    let (at, msg) = parse("local x = \nmap:fill(\"rock\"\n").unwrap_err();
    assert_eq!(
        (at.line, msg.as_str()),
        (2, "expected `)` to close function call")
    );
}
