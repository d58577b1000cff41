//! The examples and notes shown under `--help` of the longer-running commands.

/// `warren watch --help` epilogue.
pub const WATCH: &str = "\
While watching, type a letter and Enter:
  r   re-roll: a new seed (printed), same parameters
      (Enter alone) regenerate the same seed
  q   quit

Every regeneration prints one status line on stderr, e.g.
  watch: ok · regions (dungeon.toml) · seed 7 · 12 ms
A bad edit prints the error with file:line(:col) and
  watch: error · script (rooms.lua) · keeping the last good map
and the last good map (and --out file) stays until the file is fixed.";

/// `warren serve --help` epilogue.
pub const SERVE: &str = "\
Examples:
  warren serve scripts/rooms.lua                  then open the printed URL
  warren serve scripts/dungeon.lua --levels 3 --open
  warren serve scripts/cave.lua --seed 3 --set direction=omni --port 8080

The page draws the map (drag or arrow keys to pan, wheel or +/- to zoom, F to fit; `,` and `.`
step the seed, R draws one), builds a control for every recipe parameter, and regenerates when
one changes. Saving the recipe, a module it requires or a region file updates the page without
reloading it; a bad edit shows its file:line and keeps the last good map. Generation runs with
the same budgets as `warren run`.

The server answers this machine only (127.0.0.1) unless --bind names another address.";

/// `warren init --help` epilogue.
pub const INIT: &str = "\
Writes into DIR:
  scripts/map.lua                   a minimal recipe to start from
  regions/*.toml                    a copy of warren's default region files
  scripts/types/warren.d.lua        the Lua API's type stubs, for autocompletion
  schemas/regions.schema.json       the region files' JSON Schema, for TOML editors
  .luarc.json, .taplo.toml          editor settings pointing at both

Then, inside DIR:
  warren run scripts/map.lua --seed 1
  warren watch scripts/map.lua
  warren serve scripts/map.lua
  warren check

An existing file is never overwritten: if any of these is already there, nothing is written.";
