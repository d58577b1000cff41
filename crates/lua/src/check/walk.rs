//! The walk over one file's parse tree. It keeps Lua's scopes (locals, parameters, `for`
//! variables, nested functions, blocks), follows what each value is ([`Val`]), and applies every
//! rule where it belongs: free names and library members ([`names`]), members and calls of the
//! API ([`Declared`], [`calls`]), and the run's data ([`data`]).
//!
//! A file is walked several times. The learning walks ([`Pass::Learn`]) find what every local
//! is assigned, how every local function is called and what the file defines; they repeat
//! until that stops changing (at most [`LEARN_ROUNDS`] times), so types flow through helper
//! functions (`local function carve(map, rng)` called with the recipe's map and a stream). The
//! checking walk ([`Pass::Check`]) then reports, with what was learnt:
//! - a local's type is what all its assignments agree on, wherever it is read;
//! - a local function's parameter is what all its calls pass, if the function is only ever
//!   called (never stored or passed on);
//! - a function called `generate` gets the map and `ctx` as its first two parameters, and a
//!   parameter named `ctx` of unknown type is taken to be `ctx`, as every recipe names it;
//! - a method call on a value of unknown type is checked against the API's methods of that
//!   name only when one owner declares it (with every declaring owner's arity otherwise), and
//!   not at all when the recipe defines a method of that name itself; what it finds is an error
//!   only when the receiver bears the name recipes give such a value (`map`, `rng`), a note
//!   otherwise;
//! - a stock library member the sandbox leaves out is an error where it is called or indexed,
//!   and a note where it is only read (`pcall(string.dump, f)` runs: the value is nil);
//! - a call of a seeding function (`randomseed`, `setSeed`) with `os.time()` or `os.clock()`
//!   is a warning: warren's clocks start from the map's seed;
//! - what is wrong in a branch that never runs (`if false then`, a local that is always nil)
//!   is a note.

use super::calls::{self, Args, CallCheck, Passed};
use super::data;
use super::declared::Declared;
use super::finding::{Finding, Severity};
use super::known::Known;
use super::names::{self, Defs};
use super::stock;
use super::syntax::{self, Pos};
use super::value::{join, DeclRef, Val};
use crate::api::decl::{Decl, Kind, Owner, Ty};
use full_moon::ast::{
    Assignment, Block, Call, Expression, Field, FunctionArgs, FunctionBody, FunctionCall,
    FunctionDeclaration, Index, LastStmt, LocalAssignment, MethodCall, Parameter, Prefix, Stmt,
    Suffix, TableConstructor, UnOp, Var,
};
use full_moon::tokenizer::TokenReference;
use std::collections::{HashMap, HashSet};
use warren_core::map::priority;

/// The most learning walks of one file.
pub const LEARN_ROUNDS: usize = 4;

/// Which walk this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Learning what locals hold and what the file defines; reports nothing.
    Learn,
    /// Reporting, with what the learning walks found.
    Check,
}

/// What the walks of one file learn about its locals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// What every assignment of each local agrees on, by the local's declaration offset.
    assigned: HashMap<usize, Val>,
    /// What every call of each local function passes, argument by argument.
    args: HashMap<usize, Vec<Val>>,
    /// Local functions used other than by calling them.
    escaped: HashSet<usize>,
}

/// How a member that is read is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    /// Tested for existence (`if string.pack then`, `table.unpack or unpack`).
    Tested,
    /// Taken as a value (`local f = string.dump`, `pcall(string.dump, f)`).
    Read,
    /// Called or indexed at once (`string.dump(f)`, `string.x.y`).
    Used,
}

/// How a function's parameters get their types.
#[derive(Clone, Copy, Debug)]
enum FnKind {
    /// A recipe's `generate(map, ctx)`.
    Generate,
    /// A method (`function t:m()`): `self`, declared at this offset, is the recipe's table.
    Method(usize),
    /// A local function, typed by its calls.
    Local(usize),
    /// Any other function.
    Plain,
}

/// One walk over a file.
struct Walker<'a> {
    pass: Pass,
    declared: &'a Declared,
    known: &'a Known,
    /// What the recipe's files define (complete when checking).
    defs: &'a Defs,
    /// What the previous walk learnt.
    prev: &'a Facts,
    /// What this walk learns.
    facts: Facts,
    /// What this walk finds the file defines and tests.
    learned: Defs,
    findings: Vec<Finding>,
    /// Locals in scope, innermost scope last: name and declaration offset.
    scopes: Vec<Vec<(String, usize)>>,
    /// What each table field's value is, by the value's byte offset.
    fields: HashMap<usize, Val>,
}

/// Learns what a file's locals hold and what it defines.
pub fn learn(block: &Block, declared: &Declared, known: &Known) -> (Facts, Defs) {
    let none = Defs::default();
    let mut prev = Facts::default();
    let mut defs = Defs::default();
    for _ in 0..LEARN_ROUNDS {
        let mut w = Walker::new(Pass::Learn, declared, known, &none, &prev);
        w.stmts(block);
        defs.merge(&w.learned);
        let facts = w.facts;
        if facts == prev {
            break;
        }
        prev = facts;
    }
    (prev, defs)
}

/// Every problem in a file, given what was learnt about it and what the recipe's files define.
pub fn check(
    block: &Block,
    declared: &Declared,
    known: &Known,
    defs: &Defs,
    facts: &Facts,
) -> Vec<Finding> {
    let mut w = Walker::new(Pass::Check, declared, known, defs, facts);
    w.stmts(block);
    let mut out = w.findings;
    out.sort();
    out.dedup();
    out
}

impl<'a> Walker<'a> {
    fn new(
        pass: Pass,
        declared: &'a Declared,
        known: &'a Known,
        defs: &'a Defs,
        prev: &'a Facts,
    ) -> Walker<'a> {
        Walker {
            pass,
            declared,
            known,
            defs,
            prev,
            facts: Facts::default(),
            learned: Defs::default(),
            findings: Vec::new(),
            scopes: vec![Vec::new()],
            fields: HashMap::new(),
        }
    }

    fn error(&mut self, at: Pos, message: String) {
        if self.pass == Pass::Check {
            self.findings.push(Finding::error(at, message));
        }
    }

    fn warning(&mut self, at: Pos, message: String) {
        if self.pass == Pass::Check {
            self.findings.push(Finding::warning(at, message));
        }
    }

    fn note(&mut self, at: Pos, message: String) {
        if self.pass == Pass::Check {
            self.findings.push(Finding::note(at, message));
        }
    }

    /// Runs `f`, turning the errors it finds into notes ending with `why`: what it checks
    /// cannot be proved to fail.
    fn uncertain<T>(&mut self, why: &str, f: impl FnOnce(&mut Self) -> T) -> T {
        let from = self.findings.len();
        let out = f(self);
        for finding in &mut self.findings[from..] {
            if finding.severity == Severity::Error {
                finding.severity = Severity::Note;
                finding.message.push_str(why);
            }
        }
        out
    }

    // Scopes.

    fn lookup(&self, name: &str) -> Option<usize> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, id)| *id)
    }

    /// Names of the locals in scope.
    fn visible(&self) -> Vec<String> {
        self.scopes
            .iter()
            .flatten()
            .map(|(n, _)| n.clone())
            .collect()
    }

    fn declare(&mut self, tok: &TokenReference, val: Val) {
        self.declare_as(syntax::text(tok), syntax::offset(tok), val);
    }

    fn declare_as(&mut self, name: String, id: usize, val: Val) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name, id));
        }
        self.assign(id, val);
    }

    /// Records that local `id` is assigned `val`.
    fn assign(&mut self, id: usize, val: Val) {
        let joined = match self.facts.assigned.remove(&id) {
            None => val,
            Some(Val::Function(Some(f))) if val != Val::Function(Some(f)) => {
                // A local function replaced: its calls no longer tell its parameters.
                self.facts.escaped.insert(f);
                join(Val::Function(Some(f)), val)
            }
            Some(old) => join(old, val),
        };
        self.facts.assigned.insert(id, joined);
    }

    /// What local `id` holds: as assigned so far while learning, as every assignment agrees
    /// when checking.
    fn local(&self, id: usize) -> Val {
        let facts = match self.pass {
            Pass::Learn => &self.facts,
            Pass::Check => self.prev,
        };
        facts.assigned.get(&id).cloned().unwrap_or(Val::Unknown)
    }

    fn scoped(&mut self, f: impl FnOnce(&mut Self)) {
        self.scopes.push(Vec::new());
        f(self);
        self.scopes.pop();
    }

    // Statements.

    fn stmts(&mut self, b: &Block) {
        for s in b.stmts() {
            self.stmt(s);
        }
        if let Some(LastStmt::Return(r)) = b.last_stmt() {
            for e in r.returns().iter() {
                self.expr(e, false);
            }
        }
    }

    fn block(&mut self, b: &Block) {
        self.scoped(|w| w.stmts(b));
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::LocalAssignment(l) => self.local_assignment(l),
            Stmt::Assignment(a) => self.assignment(a),
            Stmt::FunctionCall(c) => {
                self.function_call(c);
            }
            Stmt::FunctionDeclaration(f) => self.function_declaration(f),
            Stmt::LocalFunction(f) => {
                let id = syntax::offset(f.name());
                let name = syntax::text(f.name());
                let kind = if name == "generate" {
                    FnKind::Generate
                } else {
                    FnKind::Local(id)
                };
                self.declare_as(name, id, Val::Function(Some(id)));
                self.function(f.body(), kind);
            }
            Stmt::Do(d) => self.block(d.block()),
            Stmt::While(w) => {
                self.expr(w.condition(), true);
                self.block(w.block());
            }
            Stmt::Repeat(r) => self.scoped(|w| {
                // The condition sees the body's locals.
                w.stmts(r.block());
                w.expr(r.until(), true);
            }),
            Stmt::If(i) => {
                let condition = self.expr(i.condition(), true);
                if matches!(condition, Val::Nil | Val::Bool(Some(false))) {
                    // `if false then … end`: what is wrong there never fails.
                    self.uncertain(" (in a branch that never runs)", |w| w.block(i.block()));
                } else {
                    self.block(i.block());
                }
                for e in i.else_if().into_iter().flatten() {
                    self.expr(e.condition(), true);
                    self.block(e.block());
                }
                if let Some(b) = i.else_block() {
                    self.block(b);
                }
            }
            Stmt::NumericFor(f) => {
                self.expr(f.start(), false);
                self.expr(f.end(), false);
                if let Some(step) = f.step() {
                    self.expr(step, false);
                }
                self.scoped(|w| {
                    w.declare(f.index_variable(), Val::Num(None));
                    w.block(f.block());
                });
            }
            Stmt::GenericFor(f) => {
                for e in f.expressions().iter() {
                    self.expr(e, false);
                }
                self.scoped(|w| {
                    for n in f.names().iter() {
                        w.declare(n, Val::Unknown);
                    }
                    w.block(f.block());
                });
            }
            // goto and labels name no values.
            _ => {}
        }
    }

    fn local_assignment(&mut self, l: &LocalAssignment) {
        let names: Vec<&TokenReference> = l.names().iter().collect();
        let exprs: Vec<&Expression> = l.expressions().iter().collect();
        let mut vals = Vec::new();
        let mut open = false;
        for (i, e) in exprs.iter().enumerate() {
            match (e, names.get(i)) {
                (Expression::Function(f), Some(name)) => {
                    let id = syntax::offset(name);
                    let kind = if syntax::text(name) == "generate" {
                        FnKind::Generate
                    } else {
                        FnKind::Local(id)
                    };
                    self.function(f.body(), kind);
                    vals.push(Val::Function(Some(id)));
                }
                _ if i + 1 == exprs.len() => {
                    let (v, o) = self.values(e);
                    vals.extend(v);
                    open = o;
                }
                _ => vals.push(self.expr(e, false)),
            }
        }
        for (i, name) in names.iter().enumerate() {
            let val = match vals.get(i) {
                Some(v) => v.clone(),
                None if open => Val::Unknown,
                None => Val::Nil,
            };
            self.declare(name, val);
        }
    }

    fn assignment(&mut self, a: &Assignment) {
        let targets: Vec<&Var> = a.variables().iter().collect();
        let exprs: Vec<&Expression> = a.expressions().iter().collect();
        let mut vals = Vec::new();
        let mut open = false;
        for (i, e) in exprs.iter().enumerate() {
            match e {
                Expression::Function(f) => {
                    let generate = targets.get(i).is_some_and(|t| target_name(t) == "generate");
                    let kind = if generate {
                        FnKind::Generate
                    } else {
                        FnKind::Plain
                    };
                    self.function(f.body(), kind);
                    vals.push(Val::Function(None));
                }
                _ if i + 1 == exprs.len() => {
                    let (v, o) = self.values(e);
                    vals.extend(v);
                    open = o;
                }
                _ => vals.push(self.expr(e, false)),
            }
        }
        for (i, target) in targets.iter().enumerate() {
            let val = match vals.get(i) {
                Some(v) => v.clone(),
                None if open => Val::Unknown,
                None => Val::Nil,
            };
            let method = exprs.get(i).is_some_and(|e| takes_self(e));
            self.assign_to(target, val, method);
        }
    }

    /// An assignment to `target`; `method` when the value is a function taking `self`.
    fn assign_to(&mut self, target: &Var, val: Val, method: bool) {
        match target {
            Var::Name(tok) => self.assign_name(tok, val),
            Var::Expression(ve) => {
                let suffixes: Vec<&Suffix> = ve.suffixes().collect();
                let Some((last, before)) = suffixes.split_last() else {
                    return;
                };
                let base = first(self.chain(ve.prefix(), before, false).0);
                match last {
                    Suffix::Index(Index::Dot { name, .. }) => {
                        self.define_member(&base, &syntax::text(name), method);
                    }
                    Suffix::Index(Index::Brackets { expression, .. }) => {
                        if let Val::Str(Some(key)) = self.expr(expression, false) {
                            self.define_member(&base, &key, method);
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// `name = …` for a local or a global.
    fn assign_name(&mut self, tok: &TokenReference, val: Val) {
        let name = syntax::text(tok);
        if let Some(id) = self.lookup(&name) {
            self.assign(id, val);
            return;
        }
        match self.pass {
            Pass::Learn => {
                self.learned.globals.insert(name);
            }
            Pass::Check => {
                if names::sandbox_global(&name).is_none() && !self.defs.reads.contains(&name) {
                    self.warning(
                        syntax::pos(tok),
                        format!(
                            "global '{name}' is assigned but never read (a typo, or a missing `local`?)"
                        ),
                    );
                }
            }
        }
    }

    /// `base.name = …` (or `function base.name() … end`).
    fn define_member(&mut self, base: &Val, name: &str, method: bool) {
        if self.pass != Pass::Learn {
            return;
        }
        if let Val::Lib(lib) = base {
            self.learned
                .members
                .insert((lib.to_string(), name.to_string()));
        }
        if method {
            self.learned.methods.insert(name.to_string());
        }
    }

    fn function_declaration(&mut self, f: &FunctionDeclaration) {
        let fname = f.name();
        let names: Vec<&TokenReference> = fname.names().iter().collect();
        let method = fname.method_name();
        let body = f.body();
        let kind = match method {
            Some(m) => FnKind::Method(syntax::offset(m)),
            None if names.last().is_some_and(|n| syntax::text(n) == "generate") => FnKind::Generate,
            None => FnKind::Plain,
        };
        match (names.as_slice(), method) {
            ([only], None) => self.assign_name(only, Val::Function(None)),
            ([first, rest @ ..], _) => {
                // `function a.b.c()` reads a and a.b and defines c; `function a.b:c()` reads
                // a.b and defines the method c.
                let (path, member) = match method {
                    Some(m) => (rest, syntax::text(m)),
                    None => match rest.split_last() {
                        Some((last, path)) => (path, syntax::text(last)),
                        None => (rest, String::new()),
                    },
                };
                let mut base = self.name_read(first, false, false);
                for n in path {
                    base = self.member(&base, &syntax::text(n), syntax::pos(n), Use::Used);
                }
                let is_method = method.is_some() || body_takes_self(body);
                self.define_member(&base, &member, is_method);
            }
            _ => {}
        }
        self.function(body, kind);
    }

    /// A function's parameters and body.
    fn function(&mut self, body: &FunctionBody, kind: FnKind) {
        let inferred = match kind {
            FnKind::Local(id) if !self.prev.escaped.contains(&id) => {
                self.prev.args.get(&id).cloned()
            }
            _ => None,
        };
        self.scoped(|w| {
            if let FnKind::Method(id) = kind {
                w.declare_as("self".into(), id, Val::Table);
            }
            for (i, p) in body.parameters().iter().enumerate() {
                let Parameter::Name(tok) = p else {
                    continue;
                };
                let name = syntax::text(tok);
                let mut val = match kind {
                    FnKind::Generate if i == 0 => Val::Api(Owner::Map),
                    FnKind::Generate if i == 1 => Val::Api(Owner::Ctx),
                    _ => inferred
                        .as_ref()
                        .and_then(|a| a.get(i).cloned())
                        .unwrap_or(Val::Unknown),
                };
                if val == Val::Unknown && name == "ctx" {
                    val = Val::Api(Owner::Ctx);
                }
                if val == Val::Unknown && name == "self" {
                    val = Val::Table;
                }
                w.declare(tok, val);
            }
            w.stmts(body.block());
        });
    }

    // Expressions.

    /// What `e` is; `test` when it is only tested for truth (`if x`, `x or y`, `x == nil`).
    fn expr(&mut self, e: &Expression, test: bool) -> Val {
        match e {
            Expression::BinaryOperator { lhs, binop, rhs } => {
                match syntax::text(binop.token()).as_str() {
                    "and" => {
                        self.expr(lhs, true);
                        self.expr(rhs, test)
                    }
                    "or" => {
                        let l = self.expr(lhs, true);
                        let r = self.expr(rhs, test);
                        join(l, r)
                    }
                    op @ ("==" | "~=" | "<" | ">" | "<=" | ">=") => {
                        let nil_test = matches!(op, "==" | "~=") && (is_nil(lhs) || is_nil(rhs));
                        self.expr(lhs, nil_test);
                        self.expr(rhs, nil_test);
                        Val::Bool(None)
                    }
                    op => {
                        self.expr(lhs, false);
                        self.expr(rhs, false);
                        if op == ".." {
                            Val::Str(None)
                        } else {
                            Val::Num(None)
                        }
                    }
                }
            }
            Expression::UnaryOperator { unop, expression } => match unop {
                UnOp::Not(_) => {
                    self.expr(expression, true);
                    Val::Bool(None)
                }
                UnOp::Minus(_) => match self.expr(expression, false) {
                    Val::Num(Some((n, int))) => Val::Num(Some((-n, int))),
                    _ => Val::Num(None),
                },
                _ => {
                    self.expr(expression, false);
                    Val::Num(None)
                }
            },
            Expression::Parentheses { expression, .. } => self.expr(expression, test),
            Expression::Function(f) => {
                self.function(f.body(), FnKind::Plain);
                Val::Function(None)
            }
            Expression::FunctionCall(c) => first(self.function_call(c).0),
            Expression::TableConstructor(t) => {
                self.table(t, false);
                Val::Table
            }
            Expression::Var(v) => match v {
                Var::Name(tok) => self.name_read(tok, test, false),
                Var::Expression(ve) => {
                    let suffixes: Vec<&Suffix> = ve.suffixes().collect();
                    first(self.chain(ve.prefix(), &suffixes, test).0)
                }
                _ => Val::Unknown,
            },
            _ => calls::literal(e),
        }
    }

    /// The values of `e` where several may be used (the last of a list): every return value of
    /// a call; and whether there may be more (a call, `...`).
    fn values(&mut self, e: &Expression) -> (Vec<Val>, bool) {
        match e {
            Expression::FunctionCall(c) => (self.function_call(c).0, true),
            Expression::Symbol(t) if syntax::text(t) == "..." => (Vec::new(), true),
            _ => (vec![self.expr(e, false)], false),
        }
    }

    /// Reads the name `tok`; `called` when the read is called at once (`f(…)`).
    fn name_read(&mut self, tok: &TokenReference, test: bool, called: bool) -> Val {
        let name = syntax::text(tok);
        if let Some(id) = self.lookup(&name) {
            let val = self.local(id);
            if let Val::Function(Some(f)) = val {
                if !called {
                    self.facts.escaped.insert(f);
                }
            }
            return val;
        }
        if self.pass == Pass::Learn {
            if test {
                self.learned.tested.insert(name.clone());
            }
            self.learned.reads.insert(name.clone());
        }
        if let Some(val) = names::sandbox_global(&name) {
            return val;
        }
        if !test && !self.defs.global_ok(&name) {
            let mut near = self.visible();
            near.extend(self.defs.globals.iter().cloned());
            let near: Vec<&str> = near.iter().map(String::as_str).collect();
            self.error(syntax::pos(tok), names::undefined_global(&name, &near));
        }
        Val::Unknown
    }

    /// `prefix` followed by `suffixes` (indexes and calls): the values of the last step (all
    /// of them for a call), and whether a call's values may be more.
    fn chain(&mut self, prefix: &Prefix, suffixes: &[&Suffix], test: bool) -> (Vec<Val>, bool) {
        let called = matches!(suffixes.first(), Some(Suffix::Call(Call::AnonymousCall(_))));
        let mut cur = match prefix {
            Prefix::Name(tok) => self.name_read(tok, test && suffixes.is_empty(), called),
            Prefix::Expression(e) => self.expr(e, false),
            _ => Val::Unknown,
        };
        let mut at = syntax::start(prefix);
        let mut out = (vec![cur.clone()], false);
        // The name the next call calls, as written (`setSeed` in `RNG.setSeed(…)`).
        let mut callee = match prefix {
            Prefix::Name(tok) => Some(syntax::text(tok)),
            _ => None,
        };
        for (i, s) in suffixes.iter().enumerate() {
            let last = i + 1 == suffixes.len();
            let how = match (last, test) {
                (false, _) => Use::Used,
                (true, true) => Use::Tested,
                (true, false) => Use::Read,
            };
            match s {
                Suffix::Index(Index::Dot { name, .. }) => {
                    callee = Some(syntax::text(name));
                    at = syntax::pos(name);
                    cur = self.member(&cur, &syntax::text(name), at, how);
                    out = (vec![cur.clone()], false);
                }
                Suffix::Index(Index::Brackets { expression, .. }) => {
                    callee = None;
                    cur = match self.expr(expression, false) {
                        Val::Str(Some(key)) => {
                            at = syntax::start(&**expression);
                            self.member(&cur, &key, at, how)
                        }
                        _ if cur == Val::Undeclared => Val::Undeclared,
                        _ if cur == Val::Api(Owner::Rects) => Val::Table,
                        _ => Val::Unknown,
                    };
                    out = (vec![cur.clone()], false);
                }
                Suffix::Call(call) => {
                    let (called, passed): (Option<String>, Option<&FunctionArgs>) = match call {
                        Call::AnonymousCall(args) => (callee.take(), Some(&**args)),
                        Call::MethodCall(m) => (Some(syntax::text(m.name())), Some(m.args())),
                        _ => (None, None),
                    };
                    if let (Some(called), Some(passed)) = (called, passed) {
                        self.seeded_from_the_clock(&called, passed);
                    }
                    let values = match call {
                        Call::AnonymousCall(args) => self.call(cur, at, args),
                        Call::MethodCall(m) => {
                            // The receiver's name, when it is a plain name (`map:set(…)`).
                            let named = match prefix {
                                Prefix::Name(tok) if i == 0 => Some(syntax::text(tok)),
                                _ => None,
                            };
                            self.method_call(cur, m, named.as_deref())
                        }
                        _ => Vec::new(),
                    };
                    cur = first(values.clone());
                    out = (values, true);
                }
                _ => {}
            }
        }
        out
    }

    /// A warning when `name` looks like a seeding function (`randomseed`, `setSeed`) and an
    /// argument reads the clock: the library would make one map for every seed in stock Lua's
    /// eyes, and in warren the clock starts from the map's seed.
    fn seeded_from_the_clock(&mut self, name: &str, args: &FunctionArgs) {
        if !name.to_ascii_lowercase().contains("seed") {
            return;
        }
        let FunctionArgs::Parentheses { arguments, .. } = args else {
            return;
        };
        if let Some(e) = arguments.iter().find(|e| reads_clock(e)) {
            self.warning(
                syntax::start(e),
                format!(
                    "{name} is seeded from the clock: in warren os.time() starts from the map's \
                     seed and os.clock() from 0, so this gives the same map for a seed every \
                     time and a different one for every seed; pass ctx.seed to say so"
                ),
            );
        }
    }

    fn function_call(&mut self, c: &FunctionCall) -> (Vec<Val>, bool) {
        let suffixes: Vec<&Suffix> = c.suffixes().collect();
        self.chain(c.prefix(), &suffixes, false)
    }

    /// Reads member `name` of `base` (at `at`), used as `how` says.
    fn member(&mut self, base: &Val, name: &str, at: Pos, how: Use) -> Val {
        match base {
            Val::Api(owner) => self.api_member(*owner, name, at),
            Val::Undeclared => Val::Undeclared,
            Val::Prio => {
                if !priority::NAMED.iter().any(|(n, _)| *n == name) {
                    let names: Vec<&str> = priority::NAMED.iter().map(|(n, _)| *n).collect();
                    self.error(
                        at,
                        format!(
                            "warren.prio.{name} does not exist{} (warren.prio has: {})",
                            crate::api::call::did_you_mean(name, &names),
                            names.join(", ")
                        ),
                    );
                }
                Val::Num(None)
            }
            Val::Lib(lib) => {
                if self.pass == Pass::Learn && how == Use::Tested {
                    self.learned
                        .tested_members
                        .insert((lib.to_string(), name.to_string()));
                }
                if how != Use::Tested && !self.defs.member_ok(lib, name) {
                    let message = names::missing_member(lib, name, self.defs);
                    if how == Use::Read && stock::has_member(lib, name) {
                        // Stock Lua has it, so the code is right elsewhere; here it is nil,
                        // which fails only where it is called (`pcall(string.dump, f)` does
                        // not fail).
                        self.note(at, format!("{message}: it is nil here"));
                    } else {
                        self.error(at, message);
                    }
                }
                names::member_val(lib, name)
            }
            Val::Params => {
                if let Some(message) = data::param(self.known, name) {
                    self.error(at, message);
                }
                Val::Unknown
            }
            Val::Regions => {
                let (message, val) = data::section(self.known, name);
                if let Some(m) = message {
                    self.error(at, m);
                }
                val
            }
            Val::Region(section) => {
                let (message, val) = data::key(self.known, section, name);
                if let Some(m) = message {
                    self.error(at, m);
                }
                val
            }
            Val::Record(class) => match class.0.field(name) {
                Some(f) => of_ty(&f.ty),
                None => {
                    let keys = class.0.keys();
                    self.error(
                        at,
                        format!(
                            "{} has no key '{name}'{} (keys: {})",
                            class.0.name,
                            crate::api::call::did_you_mean(name, &keys),
                            keys.join(", ")
                        ),
                    );
                    Val::Unknown
                }
            },
            _ => Val::Unknown,
        }
    }

    /// Member `name` of an API module or object.
    fn api_member(&mut self, owner: Owner, name: &str, at: Pos) -> Val {
        if !self.declared.covers(owner) {
            return Val::Undeclared;
        }
        let Some(d) = self.declared.member(owner, name) else {
            let names = self.declared.names(owner);
            let hint = crate::api::call::did_you_mean(name, &names);
            let prefix = owner.prefix();
            let message = if owner == Owner::Ctx {
                format!(
                    "ctx has no field '{name}'{hint} (fields: {})",
                    names.join(", ")
                )
            } else if owner.is_module() {
                format!(
                    "{prefix}.{name} does not exist{hint} ({prefix} has: {})",
                    names.join(", ")
                )
            } else {
                format!("{prefix} has no field or method '{name}'{hint}")
            };
            self.error(at, message);
            return Val::Unknown;
        };
        if d.kind != Kind::Field {
            return Val::Member(DeclRef(d));
        }
        match (owner, name) {
            (Owner::Ctx, "params") => Val::Params,
            (Owner::Ctx, "regions") => Val::Regions,
            (Owner::Warren, "prio") => Val::Prio,
            (Owner::Warren, _) => match Declared::module(&format!("warren.{name}")) {
                Some(module) => Val::Api(module),
                None => returned(d).into_iter().next().unwrap_or(Val::Unknown),
            },
            _ => returned(d).into_iter().next().unwrap_or(Val::Unknown),
        }
    }

    /// The arguments of a call, walked; `decl` is the callee's declaration if known (its
    /// options tables are checked against their classes, not by the generic terrain rule).
    fn args<'t>(
        &mut self,
        fa: &'t FunctionArgs,
        decl: Option<&'static Decl>,
        test: bool,
    ) -> Args<'t> {
        let class_table = |i: usize| {
            decl.and_then(|d| d.args.get(i))
                .is_some_and(|a| matches!(a.ty, Ty::Table(_)))
        };
        let mut args = Args::default();
        match fa {
            FunctionArgs::Parentheses { arguments, .. } => {
                let list: Vec<&Expression> = arguments.iter().collect();
                for (i, e) in list.iter().enumerate() {
                    let at = syntax::start(*e);
                    let (val, table) = match e {
                        Expression::TableConstructor(t) => {
                            self.table(t, class_table(i));
                            (Val::Table, Some(&**t))
                        }
                        _ if test => (self.expr(e, true), None),
                        _ if i + 1 == list.len() => {
                            let (vals, open) = self.values(e);
                            args.open = open;
                            (first(vals), None)
                        }
                        _ => (self.expr(e, false), None),
                    };
                    args.passed.push(Passed { val, at, table });
                }
            }
            FunctionArgs::String(s) => args.passed.push(Passed {
                val: Val::Str(syntax::string_value(s)),
                at: syntax::pos(s),
                table: None,
            }),
            FunctionArgs::TableConstructor(t) => {
                self.table(t, class_table(0));
                args.passed.push(Passed {
                    val: Val::Table,
                    at: syntax::start(&**t),
                    table: Some(&**t),
                });
            }
            _ => {}
        }
        args
    }

    /// Checks a call of `decl` (in the checking walk).
    fn check_call(&mut self, decl: &'static Decl, at: Pos, args: &Args) {
        if self.pass == Pass::Check {
            CallCheck {
                known: self.known,
                fields: &self.fields,
                out: &mut self.findings,
            }
            .call(decl, at, args);
        }
    }

    /// `callee(args)`; `at` is where the callee's name is.
    fn call(&mut self, callee: Val, at: Pos, fa: &FunctionArgs) -> Vec<Val> {
        match callee {
            Val::Member(DeclRef(d)) => match d.kind {
                Kind::Function => {
                    let args = self.args(fa, Some(d), false);
                    self.check_call(d, at, &args);
                    returned(d)
                }
                Kind::Method => {
                    let mut args = self.args(fa, None, false);
                    let receiver = args.passed.first().map(|p| p.val.clone());
                    match receiver {
                        Some(Val::Unknown) => {
                            args.passed.remove(0);
                            self.check_call(d, at, &args);
                            returned(d)
                        }
                        Some(r) if r == Val::Api(d.owner) => {
                            args.passed.remove(0);
                            self.check_call(d, at, &args);
                            returned(d)
                        }
                        r => {
                            let on = r.map_or("nothing".into(), |v| v.shown());
                            self.error(
                                at,
                                format!(
                                    "{}: called on {on} instead of a {} (call it with a colon: {})",
                                    d.call_name(),
                                    d.owner.class(),
                                    d.synopsis()
                                ),
                            );
                            Vec::new()
                        }
                    }
                }
                Kind::Field => {
                    self.args(fa, None, false);
                    let message = format!("{} is a field, not a function", d.synopsis());
                    self.error(at, message);
                    Vec::new()
                }
            },
            Val::Function(Some(id)) => {
                let args = self.args(fa, None, false);
                if self.pass == Pass::Learn {
                    self.called_with(id, &args);
                }
                Vec::new()
            }
            Val::Builtin(name) => {
                let args = self.args(fa, None, name == "type");
                builtin(name, &args)
            }
            Val::Undeclared => {
                self.args(fa, None, false);
                vec![Val::Undeclared]
            }
            v @ (Val::Num(_) | Val::Str(_) | Val::Bool(_)) => {
                self.args(fa, None, false);
                self.error(at, format!("attempt to call {}", v.shown()));
                Vec::new()
            }
            _ => {
                self.args(fa, None, false);
                Vec::new()
            }
        }
    }

    /// Records a call of local function `id` with `args`.
    fn called_with(&mut self, id: usize, args: &Args) {
        let mut vals: Vec<Val> = args.passed.iter().map(|p| p.val.clone()).collect();
        if args.open {
            if let Some(last) = vals.last_mut() {
                *last = Val::Unknown;
            }
        }
        match self.facts.args.get_mut(&id) {
            None => {
                self.facts.args.insert(id, vals);
            }
            Some(known) => {
                let n = known.len().max(vals.len());
                let missing = if args.open { Val::Unknown } else { Val::Nil };
                known.resize(n, Val::Nil);
                for (i, k) in known.iter_mut().enumerate() {
                    let v = vals.get(i).cloned().unwrap_or_else(|| missing.clone());
                    *k = join(std::mem::replace(k, Val::Unknown), v);
                }
            }
        }
    }

    /// `recv:name(args)`.
    /// `recv:name(args)`; `named` is the receiver's name when it is a plain name.
    fn method_call(&mut self, recv: Val, m: &MethodCall, named: Option<&str>) -> Vec<Val> {
        let name = syntax::text(m.name());
        let at = syntax::pos(m.name());
        match &recv {
            Val::Api(owner) if self.declared.covers(*owner) => {
                match self.declared.member(*owner, &name) {
                    Some(d) if d.kind == Kind::Method => {
                        let args = self.args(m.args(), Some(d), false);
                        self.check_call(d, at, &args);
                        returned(d)
                    }
                    Some(d) => {
                        self.args(m.args(), None, false);
                        let message = match d.kind {
                            Kind::Field => format!("{} is a field, not a method", d.synopsis()),
                            _ => format!(
                                "{} is a function, not a method: call it with a dot",
                                d.synopsis()
                            ),
                        };
                        self.error(at, message);
                        Vec::new()
                    }
                    None => {
                        self.args(m.args(), None, false);
                        let names = self.declared.names(*owner);
                        let hint = crate::api::call::did_you_mean(&name, &names);
                        let message = format!("{} has no method '{name}'{hint}", owner.prefix());
                        self.error(at, message);
                        Vec::new()
                    }
                }
            }
            Val::Str(_) => {
                self.args(m.args(), None, false);
                if !self.defs.member_ok("string", &name) {
                    let message = names::missing_member("string", &name, self.defs);
                    self.error(at, message);
                }
                Vec::new()
            }
            Val::Unknown | Val::Nil | Val::Num(_) | Val::Bool(_) => {
                self.unknown_method(&name, at, m, named)
            }
            Val::Undeclared => {
                self.args(m.args(), None, false);
                vec![Val::Undeclared]
            }
            _ => {
                self.args(m.args(), None, false);
                Vec::new()
            }
        }
    }

    /// `x:name(args)` on a value of unknown type: checked only against the API's methods of
    /// that name, and only when the recipe defines no method of that name. What it finds is an
    /// error when the receiver has the name every recipe gives such a value (`map`, `rng`,
    /// `rects`: a helper module's `function M.carve(map, rng)`), and a note otherwise (a
    /// library's `x:get()` may be anything).
    fn unknown_method(
        &mut self,
        name: &str,
        at: Pos,
        m: &MethodCall,
        named: Option<&str>,
    ) -> Vec<Val> {
        let candidates = self.declared.methods_named(name);
        if candidates.is_empty() || self.defs.methods.contains(name) {
            self.args(m.args(), None, false);
            return Vec::new();
        }
        let conventional = |d: &&Decl| named == Some(d.owner.prefix());
        if let [only] = candidates {
            let check = |w: &mut Self| {
                let args = w.args(m.args(), Some(only), false);
                w.check_call(only, at, &args);
                returned(only)
            };
            if conventional(only) {
                return check(self);
            }
            let why = format!(
                " (if the receiver is a {}: the checks cannot tell what it is)",
                only.owner.class()
            );
            return self.uncertain(&why, check);
        }
        let args = self.args(m.args(), None, false);
        let n = args.passed.len();
        let certain = if args.open { n - 1 } else { n };
        let fits = |d: &&Decl| {
            d.max_args().is_none_or(|most| certain <= most) && (args.open || d.min_args() <= n)
        };
        if !candidates.iter().any(fits) {
            let s = if n == 1 { "" } else { "s" };
            let list: Vec<String> = candidates.iter().map(|d| d.synopsis()).collect();
            let message = format!(
                ":{name} called with {n} argument{s}, which no method of that name takes ({})",
                list.join(", ")
            );
            if candidates.iter().any(conventional) {
                self.error(at, message);
            } else {
                self.note(
                    at,
                    format!(
                        "{message} (if the receiver is a warren object: the checks cannot tell \
                         what it is)"
                    ),
                );
            }
        }
        Vec::new()
    }

    /// A table constructor; `checked` when a declared class checks its keys.
    fn table(&mut self, t: &TableConstructor, checked: bool) {
        for field in t.fields().iter() {
            let (key, value) = match field {
                Field::NameKey { key, value, .. } => (Some(syntax::text(key)), &**value),
                Field::ExpressionKey { key, value, .. } => match self.expr(key, false) {
                    Val::Str(Some(k)) => (Some(k), &**value),
                    _ => (None, &**value),
                },
                Field::NoKey(e) => (None, e),
                _ => continue,
            };
            let val = match value {
                Expression::Function(f) => {
                    let kind = if key.as_deref() == Some("generate") {
                        FnKind::Generate
                    } else {
                        FnKind::Plain
                    };
                    if let (Some(k), true) = (&key, body_takes_self(f.body())) {
                        if self.pass == Pass::Learn {
                            self.learned.methods.insert(k.clone());
                        }
                    }
                    self.function(f.body(), kind);
                    Val::Function(None)
                }
                Expression::TableConstructor(inner) => {
                    self.table(inner, checked);
                    Val::Table
                }
                _ => self.expr(value, false),
            };
            if !checked && key.as_deref() == Some("terrain") {
                if let Val::Str(Some(name)) = &val {
                    if let Some(message) = calls::unknown_terrain(self.known, name) {
                        self.error(syntax::start(value), format!("terrain option: {message}"));
                    }
                }
            }
            self.fields.insert(syntax::offset_of(value), val);
        }
    }
}

/// The first of `values`, or unknown.
fn first(values: Vec<Val>) -> Val {
    values.into_iter().next().unwrap_or(Val::Unknown)
}

/// What a declared member returns.
fn returned(d: &Decl) -> Vec<Val> {
    d.returns.iter().map(|t| Val::from_lua_type(t)).collect()
}

/// What a value of a declared type is.
fn of_ty(ty: &Ty) -> Val {
    match ty {
        Ty::Int { .. } | Ty::Num { .. } => Val::Num(None),
        Ty::Bool => Val::Bool(None),
        Ty::Str | Ty::Choice(_) | Ty::Terrain => Val::Str(None),
        Ty::Map => Val::Api(Owner::Map),
        Ty::Rng => Val::Api(Owner::Rng),
        Ty::Object(o) => Val::Api(*o),
        Ty::Table(c) => Val::Record(super::value::ClassRef(c)),
        Ty::Function => Val::Function(None),
        Ty::Priority | Ty::Any => Val::Unknown,
        Ty::Rect
        | Ty::Rects
        | Ty::Cell
        | Ty::Cells
        | Ty::Strings
        | Ty::List
        | Ty::AnyTable
        | Ty::TableList(_) => Val::Table,
    }
}

/// What a call of a sandbox function returns, where it matters.
fn builtin(name: &str, args: &Args) -> Vec<Val> {
    let arg = |i: usize| args.passed.get(i).map(|p| &p.val);
    match name {
        "require" => match arg(0) {
            Some(Val::Str(Some(m))) if m == "warren" => vec![Val::Api(Owner::Warren)],
            _ => Vec::new(),
        },
        "setmetatable" => vec![Val::Table],
        "tostring" | "type" => vec![Val::Str(None)],
        "tonumber" | "rawlen" => vec![Val::Num(None)],
        _ => Vec::new(),
    }
}

/// Whether `e` is the literal `nil`.
/// Whether `e` reads the clock: `os.time()` or `os.clock()`, maybe inside arithmetic.
fn reads_clock(e: &Expression) -> bool {
    match e {
        Expression::FunctionCall(c) => {
            let suffixes: Vec<&Suffix> = c.suffixes().collect();
            matches!(c.prefix(), Prefix::Name(os) if syntax::text(os) == "os")
                && matches!(
                    suffixes.as_slice(),
                    [Suffix::Index(Index::Dot { name, .. }), Suffix::Call(Call::AnonymousCall(_))]
                        if matches!(syntax::text(name).as_str(), "time" | "clock")
                )
        }
        Expression::BinaryOperator { lhs, rhs, .. } => reads_clock(lhs) || reads_clock(rhs),
        Expression::UnaryOperator { expression, .. }
        | Expression::Parentheses { expression, .. } => reads_clock(expression),
        _ => false,
    }
}

fn is_nil(e: &Expression) -> bool {
    matches!(e, Expression::Symbol(t) if syntax::text(t) == "nil")
}

/// The name an assignment target ends in (`generate` in `recipe.generate = …`).
fn target_name(v: &Var) -> String {
    match v {
        Var::Name(t) => syntax::text(t),
        Var::Expression(ve) => match ve.suffixes().last() {
            Some(Suffix::Index(Index::Dot { name, .. })) => syntax::text(name),
            _ => String::new(),
        },
        _ => String::new(),
    }
}

/// Whether `e` is a function whose first parameter is `self`.
fn takes_self(e: &Expression) -> bool {
    matches!(e, Expression::Function(f) if body_takes_self(f.body()))
}

fn body_takes_self(body: &FunctionBody) -> bool {
    matches!(body.parameters().iter().next(), Some(Parameter::Name(t)) if syntax::text(t) == "self")
}
