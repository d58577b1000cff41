//! Loading a recipe file: it must return `{ name, params, generate }`, and its declared
//! parameters must be well formed (every recipe declares at least `width` and `height`).

use super::lex::{tokens, Tok, Token};
use super::located::{located_message, message, starts_located};
use super::params::{ParamSpec, ParamValue};
use super::require::read_script;
use super::{Error, Result};
use mlua::{Function, Lua, Value};
use std::path::{Path, PathBuf};

/// What a recipe declares about itself.
#[derive(Clone, Debug)]
pub struct Recipe {
    /// `name` from the recipe table.
    pub name: String,
    /// `description` from the recipe table (may be empty).
    pub description: String,
    /// Declared parameters, sorted by name.
    pub params: Vec<ParamSpec>,
    /// The file it was loaded from.
    pub path: PathBuf,
    /// The recipe file's text as it was loaded, where [`Recipe::declared_at`] finds the
    /// declarations: only messages need them, so the text is tokenized only for a message.
    source: String,
    /// The parameter names in the order the recipe declares them: the order their declaration
    /// tables were made in, which is the order they are written in, even across modules (a
    /// recipe that copies a library's parameters and adds its own lists the library's first).
    pub declaration_order: Vec<String>,
}

impl Recipe {
    /// Where parameter `name` is declared (`file:line`), for messages about its value; `None`
    /// when the recipe declares no such parameter.
    pub fn declared_at(&self, name: &str) -> Option<String> {
        self.params
            .iter()
            .any(|p| p.name == name)
            .then(|| places(&self.path, &self.source).key(name))
    }
}

/// The places of the recipe at `path`, whose text is `source`.
fn places<'a>(path: &'a Path, source: &str) -> Places<'a> {
    Places {
        path,
        tokens: tokens(source),
    }
}

/// The keys a recipe table may have.
const RECIPE_KEYS: [&str; 4] = ["name", "description", "params", "generate"];
/// The keys a parameter declaration may have.
const PARAM_KEYS: [&str; 5] = ["default", "min", "max", "choices", "doc"];

/// Where the recipe's declarations are, found in its tokens: recipes are data-like tables, so
/// the first `key = …` of a name is the declaration a designer would look at.
struct Places<'a> {
    path: &'a Path,
    tokens: Vec<Token>,
}

impl Places<'_> {
    /// `file:line` of the first `key = …` (or `["key"] = …`) at or after token `from`.
    fn key_from(&self, key: &str, from: usize) -> Option<String> {
        let t = &self.tokens;
        let is = |i: usize, c: char| t.get(i).is_some_and(|x| x.tok == Tok::Punct(c));
        (from..t.len())
            .find(|&i| match &t[i].tok {
                Tok::Name(n) => n == key && is(i + 1, '=') && !is(i + 2, '='),
                Tok::Str(s) => {
                    s == key && i > 0 && is(i - 1, '[') && is(i + 1, ']') && is(i + 2, '=')
                }
                Tok::Punct(_) => false,
            })
            .map(|i| format!("{}:{}", self.path.display(), t[i].line))
    }

    /// `file:line` of the declaration of `key` (a recipe field or a parameter).
    fn key(&self, key: &str) -> String {
        let params = self.key_index("params").unwrap_or(0);
        self.key_from(key, params)
            .or_else(|| self.key_from(key, 0))
            .unwrap_or_else(|| self.returned())
    }

    fn key_index(&self, key: &str) -> Option<usize> {
        let t = &self.tokens;
        (0..t.len()).find(|&i| {
            t[i].tok == Tok::Name(key.into())
                && t.get(i + 1).is_some_and(|x| x.tok == Tok::Punct('='))
        })
    }

    /// `file:line` of the chunk's top-level `return` (what the recipe returns), else of its
    /// last line (where it ended without returning anything).
    fn returned(&self) -> String {
        let mut depth = 0i32;
        let mut line = None;
        for tok in &self.tokens {
            let Tok::Name(n) = &tok.tok else { continue };
            match n.as_str() {
                "function" | "do" | "if" | "repeat" => depth += 1,
                "end" | "until" => depth -= 1,
                "return" if depth == 0 => line = Some(tok.line),
                _ => {}
            }
        }
        let last = self.tokens.last().map_or(1, |t| t.line);
        format!("{}:{}", self.path.display(), line.unwrap_or(last))
    }
}

/// A recipe file read and compiled, ready to load into a state ([`load_prepared`]).
pub struct Prepared {
    /// The file's text.
    source: String,
    /// Its chunk name (`@path`).
    name: String,
    /// Its bytecode ([`crate::compiled`]), or `None` when it does not compile.
    bytecode: Option<Vec<u8>>,
}

/// Reads the recipe file at `path` and compiles it (or takes its bytecode from the cache),
/// within `memory_limit` bytes. Done before the load's budget begins, like the host's other
/// work: what compiling takes is in no account, so a load's memory is the same whether the
/// bytecode was compiled or read.
pub fn prepare(path: &Path, memory_limit: usize) -> Result<Prepared> {
    let source = read_script(path).map_err(Error::Script)?;
    let name = format!("@{}", path.display());
    let cache = warren_core::cache::CacheDir::from_env();
    let bytecode = crate::compiled::bytecode(cache.as_ref(), &name, &source, memory_limit);
    Ok(Prepared {
        source,
        name,
        bytecode,
    })
}

/// Runs the recipe file at `path` and validates what it returns ([`prepare`], then
/// [`load_prepared`], with the state's memory limit).
pub fn load(lua: &Lua, path: &Path) -> Result<(Recipe, Function)> {
    let memory_limit = crate::state::state(lua).budget.limits().memory;
    load_prepared(lua, path, prepare(path, memory_limit)?)
}

/// Runs `prepared`, the recipe file at `path`, and validates what it returns.
pub fn load_prepared(lua: &Lua, path: &Path, prepared: Prepared) -> Result<(Recipe, Function)> {
    let Prepared {
        source,
        name,
        bytecode,
    } = prepared;
    // A text that does not compile is parsed here, and reports why as it always did.
    let chunk = crate::compiled::function(lua, &name, &source, bytecode.as_deref());
    let value: Value = chunk.and_then(|chunk| chunk.call(())).map_err(|e| {
        let msg = located_message(&e);
        Error::Script(if starts_located(&msg) {
            msg
        } else {
            format!("{}: {msg}", path.display())
        })
    })?;
    // Tokenized only for a message: a recipe that loads needs no places.
    let bad = |key: &str, msg: String| {
        Error::Script(format!("{}: {msg}", places(path, &source).key(key)))
    };
    let at_return =
        |msg: String| Error::Script(format!("{}: {msg}", places(path, &source).returned()));
    let Value::Table(t) = value else {
        return Err(at_return(format!(
            "a recipe must return a table {{ name = …, params = …, generate = function(map, ctx) … end }}, got {}",
            value.type_name()
        )));
    };
    for pair in t.pairs::<Value, Value>() {
        let (k, _) = pair.map_err(|e| Error::Script(message(&e)))?;
        let key = k.to_string().unwrap_or_default();
        if !RECIPE_KEYS.contains(&key.as_str()) {
            return Err(bad(
                &key,
                format!(
                    "unknown recipe field '{key}' (valid: {})",
                    RECIPE_KEYS.join(", ")
                ),
            ));
        }
    }
    let name = match t
        .raw_get::<Value>("name")
        .map_err(|e| Error::Script(message(&e)))?
    {
        Value::String(s) => s.to_string_lossy(),
        Value::Nil => path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        other => {
            return Err(bad(
                "name",
                format!("recipe name must be a string, got {}", other.type_name()),
            ))
        }
    };
    let description = match t
        .raw_get::<Value>("description")
        .map_err(|e| Error::Script(message(&e)))?
    {
        Value::String(s) => s.to_string_lossy(),
        Value::Nil => String::new(),
        other => {
            return Err(bad(
                "description",
                format!("description must be a string, got {}", other.type_name()),
            ))
        }
    };
    let generate = match t
        .raw_get::<Value>("generate")
        .map_err(|e| Error::Script(message(&e)))?
    {
        Value::Function(f) => f,
        other => {
            return Err(bad(
                "generate",
                format!(
                    "recipe needs generate = function(map, ctx) … end, got {}",
                    other.type_name()
                ),
            ))
        }
    };
    let params = match t
        .raw_get::<Value>("params")
        .map_err(|e| Error::Script(message(&e)))?
    {
        Value::Table(p) => p,
        Value::Nil => {
            return Err(bad(
                "params",
                "recipe must declare params, at least width and height".into(),
            ))
        }
        other => {
            return Err(bad(
                "params",
                format!("params must be a table, got {}", other.type_name()),
            ))
        }
    };
    let mut specs = Vec::new();
    let mut made = Vec::new();
    for pair in params.pairs::<Value, Value>() {
        let (k, v) = pair.map_err(|e| Error::Script(message(&e)))?;
        let Value::String(k) = k else {
            return Err(bad("params", "parameter names must be strings".into()));
        };
        let key = k.to_string_lossy();
        if let Value::Table(t) = &v {
            made.push((crate::state::creation_id(lua, t), key.clone()));
        }
        specs.push(param_spec(&key, v).map_err(|m| bad(&key, format!("params.{key}: {m}")))?);
    }
    specs.sort_by(|a, b| a.name.cmp(&b.name));
    made.sort();
    let declaration_order = made.into_iter().map(|(_, name)| name).collect();
    for required in ["width", "height"] {
        match specs.iter().find(|s| s.name == required) {
            Some(s) if matches!(s.default, ParamValue::Int(_)) => {}
            Some(_) => {
                return Err(bad(
                    required,
                    format!("params.{required} must be an integer parameter"),
                ))
            }
            None => {
                return Err(bad(
                    "params",
                    format!("recipe must declare an integer parameter '{required}'"),
                ))
            }
        }
    }
    Ok((
        Recipe {
            name,
            description,
            params: specs,
            path: path.to_path_buf(),
            source,
            declaration_order,
        },
        generate,
    ))
}

/// Reads one parameter declaration `{ default = …, min = …, max = …, choices = {…}, doc = … }`.
fn param_spec(name: &str, v: Value) -> std::result::Result<ParamSpec, String> {
    let Value::Table(t) = v else {
        return Err(format!(
            "must be a table {{ default = … }}, got {}",
            v.type_name()
        ));
    };
    // The fields in one walk (each looked up by name would push the name from Rust, a
    // protected call apiece, at every start-up), in `PARAM_KEYS`' order.
    let mut fields: [Value; PARAM_KEYS.len()] = Default::default();
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair.map_err(|e| e.to_string())?;
        let key = k.to_string().unwrap_or_default();
        let Some(i) = PARAM_KEYS.iter().position(|p| *p == key) else {
            return Err(format!(
                "unknown field '{key}' (valid: {})",
                PARAM_KEYS.join(", ")
            ));
        };
        fields[i] = v;
    }
    let [default, min, max, choices, doc] = fields;
    let default = match default {
        Value::Integer(i) => ParamValue::Int(i),
        Value::Number(n) if n.is_finite() => ParamValue::Float(n),
        Value::Boolean(b) => ParamValue::Bool(b),
        Value::String(s) => ParamValue::Text(s.to_string_lossy()),
        Value::Nil => return Err("needs a default".into()),
        other => {
            return Err(format!(
                "default must be a number, boolean or string, got {}",
                other.type_name()
            ))
        }
    };
    let number = |k: &str, v: Value| -> std::result::Result<Option<f64>, String> {
        match v {
            Value::Nil => Ok(None),
            Value::Integer(i) => Ok(Some(i as f64)),
            Value::Number(n) if n.is_finite() => Ok(Some(n)),
            other => Err(format!(
                "{k} must be a finite number, got {}",
                other.type_name()
            )),
        }
    };
    let (min, max) = (number("min", min)?, number("max", max)?);
    let numeric = matches!(default, ParamValue::Int(_) | ParamValue::Float(_));
    if !numeric && (min.is_some() || max.is_some()) {
        return Err(format!(
            "min/max apply to numbers, but the default is a {}",
            default.type_name()
        ));
    }
    if let (Some(lo), Some(hi)) = (min, max) {
        if lo > hi {
            return Err(format!("min = {lo} exceeds max = {hi}"));
        }
    }
    let choices = match choices {
        Value::Nil => Vec::new(),
        Value::Table(list) => {
            if !matches!(default, ParamValue::Text(_)) {
                return Err("choices apply to string parameters".into());
            }
            list.sequence_values::<String>()
                .collect::<mlua::Result<Vec<_>>>()
                .map_err(|_| "choices must be a list of strings".to_string())?
        }
        other => {
            return Err(format!(
                "choices must be a list of strings, got {}",
                other.type_name()
            ))
        }
    };
    let doc = match doc {
        Value::Nil => String::new(),
        Value::String(s) => s.to_string_lossy(),
        other => return Err(format!("doc must be a string, got {}", other.type_name())),
    };
    let spec = ParamSpec {
        name: name.to_string(),
        default,
        min,
        max,
        choices,
        doc,
    };
    spec.check(&spec.default)
        .map_err(|e| format!("default does not fit its own range: {e}"))?;
    Ok(spec)
}
