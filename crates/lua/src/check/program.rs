//! The static checks of one recipe's files together: each file is parsed and learnt from
//! ([`walk::learn`]); what they define is pooled (they share one global table and one set of
//! standard libraries); then each is checked ([`walk::check`]).

use super::declared::Declared;
use super::finding::Finding;
use super::known::Known;
use super::names::Defs;
use super::syntax::{self, Pos};
use super::walk;
use full_moon::tokenizer::TokenType;
use std::path::PathBuf;

/// Deepest nesting of brackets and blocks analysed; Lua itself refuses more than 200 levels.
pub const MAX_DEPTH: usize = 200;
/// Longest chain of operators in one expression analysed (each is a level of the tree).
pub const MAX_CHAIN: usize = 2000;
/// Stack of the thread that parses and walks (trees are walked recursively).
const STACK_BYTES: usize = 64 << 20;

/// One file of a recipe.
#[derive(Clone, Debug)]
pub struct Source {
    /// Its path.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
    /// What it is checked against.
    pub known: Known,
}

/// What the checks made of one file.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Checked: these problems (none, hopefully).
    Checked(Vec<Finding>),
    /// It does not parse: where and why.
    Unparsed(Pos, String),
    /// Not analysed: why.
    Skipped(String),
}

/// Checks the files of one recipe together.
pub fn analyse(sources: &[Source], declared: &Declared) -> Vec<Outcome> {
    let work = || analyse_here(sources, declared);
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .name("warren-check".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, work)
        {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => analyse_here(sources, declared),
        }
    })
}

fn analyse_here(sources: &[Source], declared: &Declared) -> Vec<Outcome> {
    let parsed: Vec<Result<full_moon::ast::Ast, Outcome>> = sources
        .iter()
        .map(|s| {
            if let Some(why) = too_deep(&s.text) {
                return Err(Outcome::Skipped(why));
            }
            syntax::parse(&s.text).map_err(|(at, message)| Outcome::Unparsed(at, message))
        })
        .collect();
    let mut defs = Defs::default();
    let mut facts = Vec::new();
    for (source, ast) in sources.iter().zip(&parsed) {
        facts.push(ast.as_ref().ok().map(|ast| {
            let (f, d) = walk::learn(ast.nodes(), declared, &source.known);
            defs.merge(&d);
            f
        }));
    }
    sources
        .iter()
        .zip(parsed)
        .zip(facts)
        .map(|((source, ast), facts)| match (ast, facts) {
            (Ok(ast), Some(facts)) => Outcome::Checked(walk::check(
                ast.nodes(),
                declared,
                &source.known,
                &defs,
                &facts,
            )),
            (Err(outcome), _) => outcome,
            (Ok(_), None) => Outcome::Checked(Vec::new()),
        })
        .collect()
}

/// Why `text` is too deeply nested to analyse, if it is: more than [`MAX_DEPTH`] levels of
/// brackets and blocks, or an expression of more than [`MAX_CHAIN`] operators.
pub fn too_deep(text: &str) -> Option<String> {
    let Some(tokens) = syntax::tokens(text) else {
        // The parser reports the error.
        return None;
    };
    // One operator count per open bracket.
    let mut chains: Vec<usize> = vec![0];
    let mut depth = 0usize;
    for t in &tokens {
        let word = match t.token_type() {
            TokenType::Symbol { symbol } => symbol.to_string(),
            _ => continue,
        };
        match word.as_str() {
            "(" | "{" | "[" | "function" | "do" | "if" | "repeat" => {
                depth += 1;
                chains.push(0);
            }
            ")" | "}" | "]" | "end" | "until" => {
                depth = depth.saturating_sub(1);
                if chains.len() > 1 {
                    chains.pop();
                }
            }
            "+" | "-" | "*" | "/" | "//" | "%" | "^" | ".." | "==" | "~=" | "<" | "<=" | ">"
            | ">=" | "and" | "or" | "not" | "#" | "&" | "|" | "~" | "<<" | ">>" => {
                if let Some(c) = chains.last_mut() {
                    *c += 1;
                    if *c > MAX_CHAIN {
                        return Some(format!(
                            "an expression of more than {MAX_CHAIN} operators is too long for the static checks"
                        ));
                    }
                }
            }
            // Where one expression ends and the next begins.
            "," | ";" | "=" | "local" | "return" | "then" | "else" | "elseif" | "while" | "for"
            | "in" | "break" | "goto" | "::" => {
                if let Some(c) = chains.last_mut() {
                    *c = 0;
                }
            }
            _ => {}
        }
        if depth > MAX_DEPTH {
            let line = t.start_position().line();
            return Some(format!(
                "nested more than {MAX_DEPTH} levels deep (line {line}): too deep for the static checks (and for Lua)"
            ));
        }
    }
    None
}
