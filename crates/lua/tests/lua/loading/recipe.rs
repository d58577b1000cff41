//! A recipe's parameters: their declarations' order and places (`recipe.rs`).

use std::path::PathBuf;
use warren_lua::Recipe;

/// Loads a recipe whose file holds `text`: the recipe, its path, and the directory that
/// keeps the file.
fn load_text(text: &str) -> (Recipe, PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.lua");
    std::fs::write(&path, text).unwrap();
    let (lua, _) = warren_lua::sandbox::new_state(
        vec![dir.path().to_path_buf()],
        Default::default(),
        warren_lua::api::install,
    )
    .unwrap();
    let (recipe, _) = warren_lua::recipe::load(&lua, &path).unwrap();
    (recipe, path, dir)
}

#[test]
fn parameters_keep_the_order_their_declarations_were_made_in() {
    // `alpha`'s declaration is made first, before the recipe table: so it is declared
    // first, whatever its name or place in the table.
    let (recipe, _, _dir) = load_text(
        "local alpha = { default = 1 }\n\
         return { params = { width = { default = 8 }, height = { default = 4 },\n\
           zeta = { default = 2 }, alpha = alpha, mid = { default = 3 } },\n\
           generate = function() end }\n",
    );
    assert_eq!(
        recipe.declaration_order,
        ["alpha", "width", "height", "zeta", "mid"]
    );
    let sorted: Vec<&str> = recipe.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(sorted, ["alpha", "height", "mid", "width", "zeta"]);
}

#[test]
fn a_parameter_is_declared_at_its_first_key_in_the_params_table() {
    // `width` is also a name before `params`: the declaration is the one inside it.
    let (recipe, path, _dir) = load_text(
        "local width = 3\n\
         return {\n\
           params = {\n\
             height = { default = 4 },\n\
             [\"width\"] = { default = 8 },\n\
           },\n\
           generate = function() end }\n",
    );
    let at = |line: usize| Some(format!("{}:{line}", path.display()));
    assert_eq!(recipe.declared_at("height"), at(4));
    assert_eq!(recipe.declared_at("width"), at(5));
    assert_eq!(recipe.declared_at("depth"), None);
}
