//! JSON Schema validation with the `boon` crate: the export tests check every JSON document
//! against the map format's schema, the docs tests region files against the generated one.

use serde_json::Value;

/// A schema compiled for validation.
pub struct Schema {
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
}

impl Schema {
    /// Compiles `schema`, registered under `location` (a path or URL, which `$ref`s and
    /// messages name), after checking it against its draft's metaschema. Panics with the
    /// validator's reason when it is not a valid schema.
    pub fn compile(location: &str, schema: Value) -> Schema {
        let mut schemas = boon::Schemas::new();
        let mut compiler = boon::Compiler::new();
        if let Err(e) = compiler.add_resource(location, schema) {
            panic!("{location}: {e:#}");
        }
        match compiler.compile(location, &mut schemas) {
            Ok(index) => Schema { schemas, index },
            Err(e) => panic!("{location} is not a valid JSON Schema: {e:#}"),
        }
    }

    /// What is wrong with `doc`, one line each (the innermost errors of the validator's
    /// report, each after the JSON pointer of the value it is about); empty when it conforms.
    pub fn errors(&self, doc: &Value) -> Vec<String> {
        fn leaves(e: &boon::ValidationError, out: &mut Vec<String>) {
            if e.causes.is_empty() {
                out.push(format!("{}: {}", e.instance_location, e.kind));
            }
            for cause in &e.causes {
                leaves(cause, out);
            }
        }
        let mut out = Vec::new();
        if let Err(e) = self.schemas.validate(doc, self.index) {
            leaves(&e, &mut out);
        }
        out
    }
}
