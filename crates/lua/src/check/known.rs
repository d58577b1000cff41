//! What a recipe's source is checked against, besides the API declarations and the sandbox's
//! surface: the region data and the recipe's parameters.

use std::collections::BTreeSet;

/// Facts from outside the source. `None` skips the checks that need it.
#[derive(Clone, Debug, Default)]
pub struct Known {
    /// Declared terrain names.
    pub terrains: Option<BTreeSet<String>>,
    /// `ctx.regions` as data (sections as keys; `null` for a section no file declares).
    pub regions: Option<serde_json::Value>,
    /// The recipe's declared parameters (for the recipe file itself, not its modules: a module
    /// may serve recipes with other parameters).
    pub params: Option<BTreeSet<String>>,
}
