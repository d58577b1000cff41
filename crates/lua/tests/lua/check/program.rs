//! Nesting beyond Lua's limits is refused, long chains within them walked (`check/program.rs`).

use warren_lua::check::declared::Declared;
use warren_lua::check::known::Known;
use warren_lua::check::program::{analyse, too_deep, Outcome, Source, MAX_CHAIN};

#[test]
fn nesting_beyond_luas_limits_is_not_walked() {
    let deep = format!("local x = {}1{}", "(".repeat(300), ")".repeat(300));
    assert!(too_deep(&deep)
        .unwrap()
        .contains("nested more than 200 levels"));
    let long = format!("local x = 1{}", " + 1".repeat(MAX_CHAIN + 1));
    assert!(too_deep(&long).unwrap().contains("operators"));
    let fine = format!(
        "local x = 1{}\nlocal y = f(1, 2) + g(3)",
        " + 1".repeat(500)
    );
    assert_eq!(too_deep(&fine), None);
    assert_eq!(too_deep("if a then elseif b then else end"), None);
}

#[test]
fn long_chains_within_the_limit_are_walked_without_overflow() {
    let text = format!(
        "local t = {{}}\nlocal x = 1{}\nlocal s = 'a'{}\nreturn x, s",
        " + t.n".repeat(MAX_CHAIN - 10),
        " .. 'b'".repeat(MAX_CHAIN - 10)
    );
    let src = Source {
        path: "chain.lua".into(),
        text,
        known: Known::default(),
    };
    let out = analyse(&[src], &Declared::new());
    assert_eq!(out, vec![Outcome::Checked(Vec::new())]);
}
