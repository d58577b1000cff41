//! Recipe parameters: declared by the recipe with a default and a range, set from the command
//! line with `--set key=value`, validated before anything is generated.

use std::collections::BTreeMap;
use std::fmt;
use warren_core::region::explain::did_you_mean;

/// A parameter value.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// A whole number.
    Int(i64),
    /// A number with a fraction.
    Float(f64),
    /// true / false.
    Bool(bool),
    /// A string (possibly restricted to a list of choices).
    Text(String),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Float(v) => write!(f, "{v}"),
            ParamValue::Bool(v) => write!(f, "{v}"),
            ParamValue::Text(v) => write!(f, "{v}"),
        }
    }
}

impl ParamValue {
    /// The type's name as shown to users.
    pub fn type_name(&self) -> &'static str {
        match self {
            ParamValue::Int(_) => "integer",
            ParamValue::Float(_) => "number",
            ParamValue::Bool(_) => "boolean",
            ParamValue::Text(_) => "string",
        }
    }
}

/// One declared parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpec {
    /// Name, as used with `--set name=value` and `ctx.params.name`.
    pub name: String,
    /// Default value; its type is the parameter's type.
    pub default: ParamValue,
    /// Smallest allowed value (numbers only).
    pub min: Option<f64>,
    /// Largest allowed value (numbers only).
    pub max: Option<f64>,
    /// Allowed values (strings only); empty means any string.
    pub choices: Vec<String>,
    /// One-line description.
    pub doc: String,
}

impl ParamSpec {
    /// The valid range as text, e.g. `3..=100` or `one of nearest, lines`.
    pub fn range_text(&self) -> String {
        let num = |v: f64| match self.default {
            ParamValue::Int(_) => format!("{}", v as i64),
            _ => format!("{v}"),
        };
        match (&self.default, self.min, self.max) {
            (ParamValue::Text(_), ..) if !self.choices.is_empty() => {
                format!("one of {}", self.choices.join(", "))
            }
            (ParamValue::Bool(_), ..) => "true or false".into(),
            (_, Some(lo), Some(hi)) => format!("{}..={}", num(lo), num(hi)),
            (_, Some(lo), None) => format!("≥ {}", num(lo)),
            (_, None, Some(hi)) => format!("≤ {}", num(hi)),
            _ => "any".into(),
        }
    }

    /// Checks a value of the right type against the range or choices.
    pub fn check(&self, value: &ParamValue) -> Result<(), String> {
        let bad = || {
            format!(
                "{} = {value} is out of range ({})",
                self.name,
                self.range_text()
            )
        };
        let n = match value {
            ParamValue::Int(v) => Some(*v as f64),
            ParamValue::Float(v) => {
                if !v.is_finite() {
                    return Err(format!("{} = {v} must be a finite number", self.name));
                }
                Some(*v)
            }
            ParamValue::Text(s) => {
                if !self.choices.is_empty() && !self.choices.contains(s) {
                    let choices: Vec<String> =
                        self.choices.iter().map(|c| format!("'{c}'")).collect();
                    return Err(format!(
                        "{} = '{s}' is not one of its choices: {}",
                        self.name,
                        choices.join(", ")
                    ));
                }
                None
            }
            ParamValue::Bool(_) => None,
        };
        if let Some(n) = n {
            if self.min.is_some_and(|lo| n < lo) || self.max.is_some_and(|hi| n > hi) {
                return Err(bad());
            }
        }
        Ok(())
    }

    /// Parses command-line text into a value of this parameter's type, then checks it.
    pub fn parse(&self, text: &str) -> Result<ParamValue, String> {
        let wrong = |what: &str| {
            format!(
                "{} = {text:?} is not {what} ({} expected: {})",
                self.name,
                self.default.type_name(),
                self.range_text()
            )
        };
        let v = match self.default {
            ParamValue::Int(_) => ParamValue::Int(
                text.trim()
                    .parse::<i64>()
                    .map_err(|_| wrong("an integer"))?,
            ),
            ParamValue::Float(_) => {
                ParamValue::Float(text.trim().parse::<f64>().map_err(|_| wrong("a number"))?)
            }
            ParamValue::Bool(_) => match text.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "1" => ParamValue::Bool(true),
                "false" | "no" | "off" | "0" => ParamValue::Bool(false),
                _ => return Err(wrong("a boolean")),
            },
            ParamValue::Text(_) => ParamValue::Text(text.to_string()),
        };
        self.check(&v)?;
        Ok(v)
    }
}

/// Final parameter values for one run, by name (sorted, so iteration is deterministic).
pub type ParamValues = BTreeMap<String, ParamValue>;

/// Resolves `key=value` assignments against the declared parameters: unknown keys, bad types
/// and out-of-range values are errors listing what is valid. Returns every value (defaults
/// filled in).
pub fn resolve(specs: &[ParamSpec], sets: &[(String, String)]) -> Result<ParamValues, String> {
    let mut values: ParamValues = specs
        .iter()
        .map(|s| (s.name.clone(), s.default.clone()))
        .collect();
    for (key, text) in sets {
        let spec = specs.iter().find(|s| &s.name == key).ok_or_else(|| {
            let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
            let hint = did_you_mean(key, names.iter().copied())
                .map(|s| format!("; did you mean '{s}'?"))
                .unwrap_or_default();
            format!(
                "unknown parameter '{key}'{hint} (valid: {})",
                names.join(", ")
            )
        })?;
        values.insert(key.clone(), spec.parse(text)?);
    }
    Ok(values)
}

/// Splits `key=value`.
pub fn split_assignment(arg: &str) -> Result<(String, String), String> {
    match arg.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
        _ => Err(format!("--set expects key=value, got {arg:?}")),
    }
}
