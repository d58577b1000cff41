//! What the page is told after every (re)load of its recipe: the recipe and its parameters,
//! what is broken (each problem with its file, line and column), which files changed, and the
//! other recipes the server offers. It is pushed to every page open on that recipe as a
//! server-sent event and answered at `/api/status`.

use serde::Serialize;
use warren_core::region::RegionError;
use warren_lua::{Error, Host, ParamSpec};

/// The state of one recipe and its files, after a load or a reload.
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    /// The recipe, as the server lists it (`scripts/rooms.lua`).
    #[serde(rename = "path")]
    pub recipe_path: String,
    /// Every recipe the server offers (its recipe picker), as of this status.
    pub recipes: Vec<String>,
    /// Goes up by one at every reload of this recipe; a page regenerates when it changes.
    pub version: u64,
    /// What `warren serve` was started with.
    pub session: Session,
    /// The recipe as last loaded without error (kept while an edit breaks it).
    pub recipe: Option<RecipeInfo>,
    /// What is broken now; empty when everything loads.
    pub problems: Vec<Problem>,
    /// Why this status was published: `started`, or the files that changed.
    pub reason: String,
    /// How long the reload took, in milliseconds.
    pub reload_ms: f64,
}

/// The command line `warren serve` was started with, for the page's defaults and its
/// "copy command".
#[derive(Clone, Debug, Serialize)]
pub struct Session {
    /// The recipe path as given (the recipe a page opens when its address names none).
    pub script: String,
    /// `--regions` as given, if it was.
    pub regions: Option<String>,
    /// The start-up seed, as text (seeds are 64-bit; JavaScript numbers are not).
    pub seed: String,
    /// `--levels`.
    pub levels: u32,
    /// The `--set` assignments given (for the start recipe).
    pub sets: Vec<(String, String)>,
    /// Other flags that change maps (the budgets), to repeat in the command line.
    pub flags: Vec<String>,
}

/// A recipe's name, description and parameters.
#[derive(Clone, Debug, Serialize)]
pub struct RecipeInfo {
    /// `name`.
    pub name: String,
    /// `description`.
    pub description: String,
    /// Declared parameters, in the order the recipe declares them.
    pub params: Vec<ParamInfo>,
}

/// One declared parameter, for building its control.
#[derive(Clone, Debug, Serialize)]
pub struct ParamInfo {
    /// Its name.
    pub name: String,
    /// `integer`, `number`, `boolean` or `string`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The default value, as text (what `--set` would take).
    pub default: String,
    /// Smallest allowed value, for numbers.
    pub min: Option<f64>,
    /// Largest allowed value, for numbers.
    pub max: Option<f64>,
    /// Allowed values, for strings restricted to a list.
    pub choices: Vec<String>,
    /// The valid range in words (`3..=100`, `one of a, b`).
    pub range: String,
    /// The recipe's description of it.
    pub doc: String,
}

/// An error message, with where it points when it names a place (`file:line(:col): …`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The whole message.
    pub message: String,
    /// The file it names.
    pub file: Option<String>,
    /// The line it names (1-based).
    pub line: Option<u32>,
    /// The column it names (1-based), when known.
    pub column: Option<u32>,
}

impl RecipeInfo {
    /// The recipe a host has loaded.
    pub fn of(host: &Host) -> RecipeInfo {
        let r = host.recipe();
        let params = r
            .declaration_order
            .iter()
            .filter_map(|name| r.params.iter().find(|p| &p.name == name))
            .map(ParamInfo::of)
            .collect();
        RecipeInfo {
            name: r.name.clone(),
            description: r.description.clone(),
            params,
        }
    }
}

impl ParamInfo {
    fn of(spec: &ParamSpec) -> ParamInfo {
        ParamInfo {
            name: spec.name.clone(),
            kind: spec.default.type_name(),
            default: spec.default.to_string(),
            min: spec.min,
            max: spec.max,
            choices: spec.choices.clone(),
            range: spec.range_text(),
            doc: spec.doc.clone(),
        }
    }
}

/// The problems an error holds: one per region-file problem (each with its exact place), or
/// the error's whole message (which may span lines, e.g. a traceback) as one.
pub fn problems_of(e: &Error) -> Vec<Problem> {
    match e {
        Error::Region(all) => all.0.iter().map(Problem::of_region).collect(),
        other => vec![Problem::new(&other.to_string())],
    }
}

impl Problem {
    /// A region-file problem, placed where it says.
    pub fn of_region(e: &RegionError) -> Problem {
        Problem {
            message: e.to_string(),
            file: Some(e.file.display().to_string()),
            line: (e.line > 0).then_some(e.line as u32),
            column: (e.line > 0 && e.col > 0).then_some(e.col as u32),
        }
    }

    /// A message and the place it starts with, if any: `file:line:` or `file:line:col:`.
    pub fn new(message: &str) -> Problem {
        let (file, line, column) = match locate(message) {
            Some((f, l, c)) => (Some(f.to_string()), Some(l), c),
            None => (None, None, None),
        };
        Problem {
            message: message.to_string(),
            file,
            line,
            column,
        }
    }
}

/// The `file:line(:col):` a message starts with: the first `:digits:` (or `:digits` at the
/// end) after a non-empty file name.
fn locate(message: &str) -> Option<(&str, u32, Option<u32>)> {
    let number = |s: &str| -> Option<(u32, usize)> {
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        let n = s.get(..digits)?.parse().ok()?;
        Some((n, digits))
    };
    let mut from = 0;
    while let Some(i) = message[from..].find(':').map(|i| i + from) {
        let file = &message[..i];
        if let Some((line, len)) = number(&message[i + 1..]) {
            let rest = &message[i + 1 + len..];
            if !file.is_empty() && (rest.is_empty() || rest.starts_with(':')) {
                let column = rest
                    .strip_prefix(':')
                    .and_then(number)
                    .filter(|(_, len)| {
                        rest[1 + len..].is_empty() || rest[1 + len..].starts_with(':')
                    })
                    .map(|(c, _)| c);
                return Some((file, line, column));
            }
        }
        from = i + 1;
    }
    None
}
