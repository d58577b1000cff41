//! `warren init DIR`: a project to start from, outside warren's repository. It holds what
//! `run`, `watch`, `serve` and `check` look for (a recipe in `scripts/` with `regions/` beside
//! it) and what editors need to help (the Lua stubs and the region files' JSON Schema, with
//! the settings that point at them).

use crate::cli::InitArgs;
use crate::output::write_atomic;
use std::path::{Path, PathBuf};
use warren_core::region::reference::{json_schema_text, SCHEMA_PATH};
use warren_lua::error::{Error, Result};
use warren_lua::stubs::{render, STUBS_PATH};

/// warren's default region files, as shipped in `regions/`.
pub const DEFAULT_REGIONS: [(&str, &str); 8] = [
    ("cave.toml", include_str!("../../regions/cave.toml")),
    ("dungeon.toml", include_str!("../../regions/dungeon.toml")),
    (
        "overworld.toml",
        include_str!("../../regions/overworld.toml"),
    ),
    ("rooms.toml", include_str!("../../regions/rooms.toml")),
    ("samples.toml", include_str!("../../regions/samples.toml")),
    ("terrain.toml", include_str!("../../regions/terrain.toml")),
    ("town.toml", include_str!("../../regions/town.toml")),
    ("vaults.toml", include_str!("../../regions/vaults.toml")),
];

/// The recipe a new project starts with.
const RECIPE: &str = include_str!("init/map.lua");

/// lua-language-server's settings: Lua 5.4, the stubs as a library, `warren` a known global.
const LUARC: &str = r#"{
  "runtime.version": "Lua 5.4",
  "workspace.library": ["scripts/types"],
  "workspace.checkThirdParty": false,
  "diagnostics.globals": ["warren"]
}
"#;

/// Taplo's settings (the TOML language server behind VS Code's Even Better TOML, and the
/// `taplo` CLI): region files follow the JSON Schema.
const TAPLO: &str = r#"# Taplo (Even Better TOML in VS Code, taplo-lsp elsewhere): region files are checked and
# completed against warren's JSON Schema for them.
[[rule]]
include = ["regions/**/*.toml"]

[rule.schema]
path = "schemas/regions.schema.json"
"#;

/// Every file `warren init` writes, relative to the project directory, with its text.
pub fn files() -> Vec<(PathBuf, String)> {
    let mut out = vec![(PathBuf::from("scripts/map.lua"), RECIPE.to_string())];
    for (name, text) in DEFAULT_REGIONS {
        out.push((Path::new("regions").join(name), text.to_string()));
    }
    out.push((PathBuf::from(STUBS_PATH), render()));
    out.push((PathBuf::from(SCHEMA_PATH), json_schema_text()));
    out.push((PathBuf::from(".luarc.json"), LUARC.to_string()));
    out.push((PathBuf::from(".taplo.toml"), TAPLO.to_string()));
    out
}

/// Executes `warren init`.
pub fn run(args: InitArgs) -> Result<()> {
    let dir = &args.dir;
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Io(format!(
            "{}: exists and is not a directory",
            dir.display()
        )));
    }
    let files = files();
    let taken: Vec<String> = files
        .iter()
        .map(|(rel, _)| dir.join(rel))
        .filter(|p| p.symlink_metadata().is_ok())
        .map(|p| p.display().to_string())
        .collect();
    if !taken.is_empty() {
        return Err(Error::Io(format!(
            "{}: already holds {}; nothing was written (warren init never overwrites a file)",
            dir.display(),
            taken.join(", ")
        )));
    }
    for (rel, text) in &files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| Error::Io(format!("{}: cannot create: {e}", parent.display())))?;
        }
        write_atomic(&path, text.as_bytes())
            .map_err(|e| Error::Io(format!("{}: cannot write: {e}", path.display())))?;
    }
    let shown = dir.display();
    println!("created a warren project in {shown}:");
    for (rel, _) in &files {
        println!("  {}", rel.display());
    }
    println!("next: cd {shown} && warren run scripts/map.lua --seed 1");
    Ok(())
}
