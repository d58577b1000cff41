//! The small Lua lexer: tokens with their positions (`lex.rs`).

use warren_lua::lex::{tokens, Tok};

fn toks(src: &str) -> Vec<Tok> {
    tokens(src).into_iter().map(|t| t.tok).collect()
}

#[test]
fn names_strings_and_punctuation_with_positions() {
    let t = tokens("map:set(1, 2, \"rock wall\")\n  x = 'a\\'b'");
    assert_eq!(t[0].tok, Tok::Name("map".into()));
    assert_eq!(t[1].tok, Tok::Punct(':'));
    assert_eq!(t[6].tok, Tok::Str("rock wall".into()));
    assert_eq!((t[6].line, t[6].col), (1, 15));
    let last = t.last().unwrap();
    assert_eq!(
        (last.tok.clone(), last.line, last.col),
        (Tok::Str("a'b".into()), 2, 7)
    );
}

#[test]
fn comments_numbers_and_long_strings() {
    assert_eq!(
        toks("-- map:set(\"x\")\n--[[ a\nb ]] f(1.5e+3, [==[\nlong]]str]==])"),
        vec![
            Tok::Name("f".into()),
            Tok::Punct('('),
            Tok::Punct(','),
            Tok::Str("long]]str".into()),
            Tok::Punct(')'),
        ]
    );
    let t = tokens("--[[\n\n]] x");
    assert_eq!(t[0].line, 3);
    assert_eq!(
        toks("a .. b"),
        vec![
            Tok::Name("a".into()),
            Tok::Punct('~'),
            Tok::Name("b".into())
        ]
    );
}
