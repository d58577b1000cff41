//! `string.find`, `match`, `gmatch`, `gsub` and `rep` for the sandbox: Lua 5.4's behaviour
//! (same results, same error messages) with every step charged to the instruction budget and
//! every buffer counted against the memory limit. They replace the C functions in the `string`
//! table, so the method forms (`s:find(p)`) use them too.

use super::budget::{caller_location, charge, exceeded_error, Budget};
use super::fail;
use super::pattern::{find_plain, no_specials, Cap, Matcher, Stop};
use super::sandbox::state;
use mlua::{Function, Lua, MultiValue, Table, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// Instruction-equivalents charged per matcher step (a step costs about what a VM instruction
/// does).
const STEP_COST: u64 = 1;
/// Bytes copied per instruction-equivalent charged when building strings.
const BYTES_PER_STEP: u64 = 32;
/// The longest string Lua can make (`MAX_SIZE`).
const MAX_SIZE: usize = i64::MAX as usize;

/// Lua's name for the type of `v` (`luaL_typename`).
fn type_name(v: Option<&Value>) -> &'static str {
    match v {
        None => "no value",
        Some(Value::Integer(_) | Value::Number(_)) => "number",
        Some(Value::LightUserData(_) | Value::Error(_)) => "userdata",
        Some(v) => v.type_name(),
    }
}

/// `luaL_argerror`: "bad argument #n to 'name' (msg)", counting like Lua does for method
/// calls (`s:rep()` reports `self` as 'bad self') and naming the function as it was called.
fn arg_error(lua: &Lua, n: usize, fname: &str, msg: &str) -> mlua::Error {
    let (name, method) = lua
        .inspect_stack(0, |d| {
            let names = d.names();
            (
                names.name.map(|s| s.into_owned()),
                names.name_what == Some("method"),
            )
        })
        .unwrap_or((None, false));
    let name = name.unwrap_or_else(|| format!("string.{fname}"));
    if method && n == 1 {
        return fail(lua, format!("calling '{name}' on bad self ({msg})"));
    }
    let n = if method { n - 1 } else { n };
    fail(lua, format!("bad argument #{n} to '{name}' ({msg})"))
}

/// `luaL_checklstring`: a string, or a number converted to one.
fn check_str(lua: &Lua, args: &MultiValue, n: usize, fname: &str) -> mlua::Result<mlua::String> {
    let v = args.get(n - 1);
    match v {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(v @ (Value::Integer(_) | Value::Number(_))) => lua
            .coerce_string(v.clone())?
            .ok_or_else(|| arg_error(lua, n, fname, "string expected, got number")),
        _ => Err(arg_error(
            lua,
            n,
            fname,
            &format!("string expected, got {}", type_name(v)),
        )),
    }
}

/// `luaL_checkinteger`, or `default` when the argument is absent or nil (`luaL_optinteger`).
fn opt_int(
    lua: &Lua,
    args: &MultiValue,
    n: usize,
    fname: &str,
    default: Option<i64>,
) -> mlua::Result<i64> {
    let v = args.get(n - 1);
    if let (Some(d), None | Some(Value::Nil)) = (default, v) {
        return Ok(d);
    }
    let value = v.cloned().unwrap_or(Value::Nil);
    if let Some(i) = lua.coerce_integer(value.clone())? {
        return Ok(i);
    }
    let msg = if lua.coerce_number(value)?.is_some() {
        "number has no integer representation".to_string()
    } else {
        format!("number expected, got {}", type_name(v))
    };
    Err(arg_error(lua, n, fname, &msg))
}

/// `posrelatI`: a 1-based start position clipped into `1..`, as an offset (may be past the end).
fn start_offset(pos: i64, len: usize) -> usize {
    if pos > 0 {
        pos as usize - 1
    } else if pos == 0 || pos.unsigned_abs() > len as u64 {
        0
    } else {
        len - pos.unsigned_abs() as usize
    }
}

/// Turns a matcher stop into the Lua error.
fn stop_error(lua: &Lua, stop: Stop) -> mlua::Error {
    match stop {
        Stop::Error(msg) => fail(lua, *msg),
        Stop::Budget => exceeded_error(lua),
    }
}

/// Runs `f` with a charger that pays for matcher steps out of the state's budget.
fn with_charger<R>(lua: &Lua, f: impl FnOnce(&mut dyn FnMut(u64) -> Result<(), ()>) -> R) -> R {
    let budget: Rc<Budget> = state(lua).budget.clone();
    let mut pay = |n: u64| {
        budget
            .charge(n.saturating_mul(STEP_COST), || caller_location(lua))
            .map_err(|_| ())
    };
    f(&mut pay)
}

/// Pushes the captures of a match as Lua values.
fn push_caps(lua: &Lua, src: &[u8], caps: &[Cap], out: &mut MultiValue) -> mlua::Result<()> {
    for cap in caps {
        out.push_back(cap_value(lua, src, *cap)?);
    }
    Ok(())
}

fn cap_value(lua: &Lua, src: &[u8], cap: Cap) -> mlua::Result<Value> {
    Ok(match cap {
        Cap::Text(s, e) => Value::String(lua.create_string(&src[s..e])?),
        Cap::Position(p) => Value::Integer(p as i64),
    })
}

/// `string.find` (`find = true`) and `string.match`.
fn find_aux(lua: &Lua, args: MultiValue, find: bool) -> mlua::Result<MultiValue> {
    let fname = if find { "find" } else { "match" };
    let s = check_str(lua, &args, 1, fname)?;
    let p = check_str(lua, &args, 2, fname)?;
    let (src, pat) = (s.as_bytes(), p.as_bytes());
    let init = start_offset(opt_int(lua, &args, 3, fname, Some(1))?, src.len());
    let mut out = MultiValue::new();
    if init > src.len() {
        out.push_back(Value::Nil);
        return Ok(out);
    }
    let plain = find
        && args
            .get(3)
            .is_some_and(|v| v.as_boolean() != Some(false) && !v.is_nil());
    if find && (plain || no_specials(&pat)) {
        let found = with_charger(lua, |pay| find_plain(&src[init..], &pat, pay))
            .map_err(|e| stop_error(lua, e))?;
        match found {
            Some(at) => {
                out.push_back(Value::Integer((init + at + 1) as i64));
                out.push_back(Value::Integer((init + at + pat.len()) as i64));
            }
            None => out.push_back(Value::Nil),
        }
        return Ok(out);
    }
    let (anchor, pat) = match pat.split_first() {
        Some((b'^', rest)) => (true, rest),
        _ => (false, &pat[..]),
    };
    let found = with_charger(lua, |pay| -> Result<_, Stop> {
        let mut m = Matcher::new(&src, pat, pay);
        let mut s1 = init;
        loop {
            if let Some(e) = m.try_at(s1)? {
                let caps = m.captures(s1, e, !find)?;
                m.settle()?;
                return Ok(Some((s1, e, caps)));
            }
            s1 += 1;
            if anchor || s1 > src.len() {
                m.settle()?;
                return Ok(None);
            }
        }
    })
    .map_err(|e| stop_error(lua, e))?;
    match found {
        Some((s1, e, caps)) => {
            if find {
                out.push_back(Value::Integer(s1 as i64 + 1));
                out.push_back(Value::Integer(e as i64));
            }
            push_caps(lua, &src, &caps, &mut out)?;
        }
        None => out.push_back(Value::Nil),
    }
    Ok(out)
}

/// `string.gmatch(s, pattern [, init])`: an iterator over the matches.
fn gmatch(lua: &Lua, args: MultiValue) -> mlua::Result<Function> {
    let s = check_str(lua, &args, 1, "gmatch")?;
    let p = check_str(lua, &args, 2, "gmatch")?;
    let len = s.as_bytes().len();
    let init = start_offset(opt_int(lua, &args, 3, "gmatch", Some(1))?, len).min(len + 1);
    // (next start, end of the last match)
    let at = RefCell::new((init, None::<usize>));
    lua.create_function(move |lua, ()| {
        let (src, pat) = (s.as_bytes(), p.as_bytes());
        let (start, last) = *at.borrow();
        let found = with_charger(lua, |pay| -> Result<_, Stop> {
            let mut m = Matcher::new(&src, &pat, pay);
            for s1 in start..=src.len() {
                if let Some(e) = m.try_at(s1)? {
                    if Some(e) != last {
                        let caps = m.captures(s1, e, true)?;
                        m.settle()?;
                        return Ok(Some((e, caps)));
                    }
                }
            }
            m.settle()?;
            Ok(None)
        })
        .map_err(|e| stop_error(lua, e))?;
        let mut out = MultiValue::new();
        if let Some((e, caps)) = found {
            *at.borrow_mut() = (e, Some(e));
            push_caps(lua, &src, &caps, &mut out)?;
        }
        Ok(out)
    })
}

/// A string being built in Rust memory, counted against the memory limit as it grows and
/// charged per byte copied.
struct Buffer<'l> {
    lua: &'l Lua,
    budget: Rc<Budget>,
    bytes: Vec<u8>,
    reserved: usize,
}

impl<'l> Buffer<'l> {
    fn new(lua: &'l Lua) -> Self {
        Buffer {
            lua,
            budget: state(lua).budget.clone(),
            bytes: Vec::new(),
            reserved: 0,
        }
    }

    /// Makes room for `more` bytes, counting them before they are allocated.
    fn reserve(&mut self, more: usize) -> mlua::Result<()> {
        let need = self.bytes.len().saturating_add(more);
        self.budget
            .check_string(need, || caller_location(self.lua))
            .map_err(|_| exceeded_error(self.lua))?;
        if need > self.reserved {
            let grow = (need - self.reserved).max(self.reserved);
            self.budget
                .charge_bytes(grow, || caller_location(self.lua))
                .map_err(|_| exceeded_error(self.lua))?;
            self.reserved += grow;
            self.bytes.reserve_exact(self.reserved - self.bytes.len());
        }
        Ok(())
    }

    fn push(&mut self, data: &[u8]) -> mlua::Result<()> {
        self.reserve(data.len())?;
        charge(self.lua, 1 + data.len() as u64 / BYTES_PER_STEP)?;
        self.bytes.extend_from_slice(data);
        Ok(())
    }

    fn finish(self) -> mlua::Result<mlua::String> {
        self.lua.create_string(&self.bytes)
    }
}

impl Drop for Buffer<'_> {
    fn drop(&mut self) {
        self.budget.release_bytes(self.reserved);
    }
}

/// What `gsub` replaces matches with.
enum Replacement {
    Text(mlua::String),
    Table(Table),
    Function(Function),
}

/// Appends the replacement string `repl` for a match `src[s..e]` (`add_s`).
fn add_text(
    lua: &Lua,
    buf: &mut Buffer,
    m: &Matcher,
    src: &[u8],
    (s, e): (usize, usize),
    repl: &[u8],
) -> mlua::Result<()> {
    let mut rest = repl;
    while let Some(i) = rest.iter().position(|&c| c == b'%') {
        buf.push(&rest[..i])?;
        let c = rest.get(i + 1).copied().unwrap_or(0);
        match c {
            b'%' => buf.push(b"%")?,
            b'0' => buf.push(&src[s..e])?,
            b'1'..=b'9' => match m
                .capture((c - b'1') as usize, s, e)
                .map_err(|e| stop_error(lua, e))?
            {
                Cap::Text(cs, ce) => buf.push(&src[cs..ce])?,
                Cap::Position(p) => buf.push(p.to_string().as_bytes())?,
            },
            _ => return Err(fail(lua, "invalid use of '%' in replacement string")),
        }
        rest = rest.get(i + 2..).unwrap_or(&[]);
    }
    buf.push(rest)
}

/// Appends the replacement for one match (`add_value`); returns whether the text changed.
fn add_value(
    lua: &Lua,
    buf: &mut Buffer,
    m: &Matcher,
    src: &[u8],
    (s, e): (usize, usize),
    repl: &Replacement,
) -> mlua::Result<bool> {
    let value = match repl {
        Replacement::Text(r) => {
            add_text(lua, buf, m, src, (s, e), &r.as_bytes())?;
            return Ok(true);
        }
        Replacement::Function(f) => {
            let caps = m.captures(s, e, true).map_err(|x| stop_error(lua, x))?;
            let mut args = MultiValue::new();
            push_caps(lua, src, &caps, &mut args)?;
            f.call::<Value>(args)?
        }
        Replacement::Table(t) => {
            let first = m.capture(0, s, e).map_err(|x| stop_error(lua, x))?;
            t.get::<Value>(cap_value(lua, src, first)?)?
        }
    };
    match value {
        Value::Nil | Value::Boolean(false) => {
            buf.push(&src[s..e])?;
            Ok(false)
        }
        v @ (Value::String(_) | Value::Integer(_) | Value::Number(_)) => {
            let text = lua.coerce_string(v)?.unwrap_or(lua.create_string("")?);
            buf.push(&text.as_bytes())?;
            Ok(true)
        }
        other => Err(fail(
            lua,
            format!("invalid replacement value (a {})", type_name(Some(&other))),
        )),
    }
}

/// `string.gsub(s, pattern, repl [, n])`.
fn gsub(lua: &Lua, args: MultiValue) -> mlua::Result<(Value, i64)> {
    let s = check_str(lua, &args, 1, "gsub")?;
    let p = check_str(lua, &args, 2, "gsub")?;
    let src_len = s.as_bytes().len();
    let max_s = opt_int(lua, &args, 4, "gsub", Some(src_len as i64 + 1))?;
    let repl = match args.get(2) {
        Some(Value::String(r)) => Replacement::Text(r.clone()),
        Some(v @ (Value::Integer(_) | Value::Number(_))) => Replacement::Text(
            lua.coerce_string(v.clone())?
                .unwrap_or(lua.create_string("")?),
        ),
        Some(Value::Table(t)) => Replacement::Table(t.clone()),
        Some(Value::Function(f)) => Replacement::Function(f.clone()),
        other => {
            return Err(arg_error(
                lua,
                3,
                "gsub",
                &format!("string/function/table expected, got {}", type_name(other)),
            ))
        }
    };
    let (src, pat) = (s.as_bytes(), p.as_bytes());
    let (anchor, pat) = match pat.split_first() {
        Some((b'^', rest)) => (true, rest),
        _ => (false, &pat[..]),
    };
    let mut buf = Buffer::new(lua);
    let mut n = 0i64;
    let mut changed = false;
    let mut at = 0;
    let mut last = None;
    let budget = state(lua).budget.clone();
    let mut pay = |k: u64| {
        budget
            .charge(k.saturating_mul(STEP_COST), || caller_location(lua))
            .map_err(|_| ())
    };
    let mut m = Matcher::new(&src, pat, &mut pay);
    while n < max_s {
        let e = m.try_at(at).map_err(|x| stop_error(lua, x))?;
        match e {
            Some(e) if Some(e) != last => {
                n += 1;
                changed |= add_value(lua, &mut buf, &m, &src, (at, e), &repl)?;
                at = e;
                last = Some(e);
            }
            _ if at < src.len() => {
                buf.push(&src[at..at + 1])?;
                at += 1;
            }
            _ => break,
        }
        if anchor {
            break;
        }
    }
    m.settle().map_err(|x| stop_error(lua, x))?;
    if !changed {
        return Ok((Value::String(s.clone()), n));
    }
    buf.push(&src[at..])?;
    Ok((Value::String(buf.finish()?), n))
}

/// `string.rep(s, n [, sep])`. Lua's C version loops `n` times even when the result is empty
/// (`("").rep("", 1 << 62)` never returns); this one does not, and counts the result against
/// the memory limit before building it.
fn rep(lua: &Lua, args: MultiValue) -> mlua::Result<mlua::String> {
    let s = check_str(lua, &args, 1, "rep")?;
    let n = opt_int(lua, &args, 2, "rep", None)?;
    let sep = match args.get(2) {
        None | Some(Value::Nil) => lua.create_string("")?,
        Some(_) => check_str(lua, &args, 3, "rep")?,
    };
    let (unit, sep) = (s.as_bytes(), sep.as_bytes());
    if n <= 0 || unit.len() + sep.len() == 0 {
        return lua.create_string("");
    }
    let n = n as usize;
    let Some(total) = (unit.len() + sep.len())
        .checked_mul(n)
        .filter(|&t| t <= MAX_SIZE)
        .map(|t| t - sep.len())
    else {
        return Err(fail(lua, "resulting string too large"));
    };
    let mut piece = unit.to_vec();
    piece.extend_from_slice(&sep);
    let full = piece.len() * n;
    let mut buf = Buffer::new(lua);
    buf.reserve(full)?;
    charge(lua, 1 + full as u64 / BYTES_PER_STEP)?;
    buf.bytes.extend_from_slice(&piece);
    while buf.bytes.len() < full {
        let take = (full - buf.bytes.len()).min(buf.bytes.len());
        buf.bytes.extend_from_within(..take);
    }
    buf.bytes.truncate(total);
    buf.finish()
}

/// Puts the functions into `string` (the real library table, which the string metatable's
/// `__index` also points to).
pub fn install(lua: &Lua, string: &Table) -> mlua::Result<()> {
    string.raw_set(
        "find",
        lua.create_function(|lua, a: MultiValue| find_aux(lua, a, true))?,
    )?;
    string.raw_set(
        "match",
        lua.create_function(|lua, a: MultiValue| find_aux(lua, a, false))?,
    )?;
    string.raw_set("gmatch", lua.create_function(gmatch)?)?;
    string.raw_set("gsub", lua.create_function(gsub)?)?;
    string.raw_set("rep", lua.create_function(rep)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::sandbox::new_state;
    use crate::Limits;
    use mlua::Lua;
    use proptest::prelude::*;

    /// Calls `call` (a Lua expression over `S`, `P`, `A`, `B`) under pcall and renders every
    /// result as text, so the two implementations can be compared.
    fn render(lua: &Lua, call: &str, s: &[u8], p: &[u8], a: &str, b: &str) -> String {
        let chunk = format!(
            "local S, P, A, B = ...
             local function show(...)
               local out = {{ tostring(select('#', ...)) }}
               for i = 1, select('#', ...) do
                 local v = select(i, ...)
                 out[#out + 1] = (math.type(v) or type(v)) .. ':' .. tostring(v)
               end
               return table.concat(out, '|')
             end
             return show(pcall(function() return {call} end))"
        );
        let s = lua.create_string(s).unwrap();
        let p = lua.create_string(p).unwrap();
        let a: mlua::Value = lua.load(a).eval().unwrap();
        let b: mlua::Value = lua.load(b).eval().unwrap();
        lua.load(chunk.as_str())
            .call::<String>((s, p, a, b))
            .unwrap_or_else(|e| format!("harness error: {e}"))
    }

    const CALLS: &[&str] = &[
        "string.find(S, P, A, B)",
        "string.find(S, P)",
        "S:find(P, A)",
        "string.match(S, P, A)",
        "S:match(P)",
        "(function() local r = {} for x, y in string.gmatch(S, P, A) do r[#r + 1] = tostring(x) .. ',' .. tostring(y) if #r > 40 then break end end return table.concat(r, ';') end)()",
        "string.gsub(S, P, '<%0|%1>')",
        "string.gsub(S, P, '%%', A)",
        "string.gsub(S, P, function(...) return select('#', ...) .. ':' .. tostring((...)) end)",
        "string.gsub(S, P, function(x) if x == 'a' then return false end return 7 end, A)",
        "string.gsub(S, P, { a = 'A', ['1'] = 1.5, b = true })",
        "string.gsub(S, P, B)",
    ];

    fn atom() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "a", "b", "x", ".", "%a", "%d", "%s", "%w", "%p", "%x", "%A", "%S", "%%", "%(", "%]",
            "[ab]", "[^a]", "[a-c]", "[%a_]", "[]a]", "[a-]", "%b()", "%bab", "%f[%w]", "%f[%s]",
            "(", ")", "()", "%1", "%2", "%0", "^", "$", "*", "+", "-", "?", "%", "[", "%f", "%b",
            "%z", "(a)", "(.-)",
        ])
    }

    fn pattern() -> impl Strategy<Value = Vec<u8>> {
        (any::<bool>(), prop::collection::vec(atom(), 0..8)).prop_map(|(anchor, atoms)| {
            let mut p = if anchor { b"^".to_vec() } else { Vec::new() };
            for a in atoms {
                p.extend_from_slice(a.as_bytes());
            }
            p
        })
    }

    fn subject() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(prop::sample::select(b"aabbx ()_1%-.\0".to_vec()), 0..12)
    }

    fn extra() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "nil", "1", "2", "-1", "-3", "0", "7", "100", "-100", "true", "false", "'2'", "1.5",
            "'x'", "{}", "'%1'", "'%'", "'%2'", "'<%0>'",
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn patterns_behave_exactly_like_lua(
            s in subject(),
            p in pattern(),
            a in extra(),
            b in extra(),
        ) {
            let plain = Lua::new();
            let (sandbox, _) = new_state(Vec::new(), Limits::default()).unwrap();
            for call in CALLS {
                let theirs = render(&plain, call, &s, &p, a, b);
                let ours = render(&sandbox, call, &s, &p, a, b);
                prop_assert_eq!(
                    &ours, &theirs,
                    "{} with S = {:?}, P = {:?}, A = {}, B = {}",
                    call, String::from_utf8_lossy(&s), String::from_utf8_lossy(&p), a, b
                );
            }
        }
    }

    #[test]
    fn rep_matches_lua_and_refuses_empty_loops() {
        let plain = Lua::new();
        let (sandbox, _) = new_state(Vec::new(), Limits::default()).unwrap();
        for call in [
            "string.rep(S, 3)",
            "string.rep(S, 3, P)",
            "string.rep(S, 0, P)",
            "string.rep(S, -5)",
            "string.rep(S, 1, P)",
            "string.rep(S, A)",
            "string.rep(S)",
            "string.rep(S, 2.5)",
            "string.rep(12, 2, 3)",
            "S:rep(2)",
            "S:rep()",
            "string.rep(nil, 2)",
        ] {
            for (s, p) in [(&b"ab"[..], &b", "[..]), (b"", b""), (b"x", b"")] {
                assert_eq!(
                    render(&sandbox, call, s, p, "'2'", "nil"),
                    render(&plain, call, s, p, "'2'", "nil"),
                    "{call} {s:?} {p:?}"
                );
            }
        }
        let huge = render(&sandbox, "string.rep('', 1 << 62)", b"", b"", "nil", "nil");
        assert_eq!(huge, "2|boolean:true|string:");
    }
}
