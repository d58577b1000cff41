//! The Lua API as data: one [`Decl`] per function, method or field, one [`Class`] per table the
//! API takes or returns. A declaration states everything a caller needs — each argument's type
//! and range, each option key's type, default and range, the return values and a doc line — and
//! is the only place that says it: the runtime argument checks ([`super::call`]) read their
//! names, ranges and defaults from it, `warren stubs` writes the LuaLS stubs from it,
//! `warren check` checks names, arity, option keys and receivers against it, and the API
//! reference's table (`docs/lua-api.md`) is generated from it.
//!
//! Declarations are `const`s built with the `const fn` builders below, next to the function
//! that implements them; each API module lists its declarations together with their
//! implementations in one `methods!` or `functions!` table, so a declaration without a binding (or the
//! reverse) cannot be written.

use std::fmt::Write;

/// What an API member belongs to: a module table, or the type of the value it is called on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Owner {
    /// The `warren` module (`warren.rect`, `warren.prio`, …).
    Warren,
    /// `warren.gen`: whole phases in Rust.
    Gen,
    /// `warren.tunnel`: Incursion's tunnel.
    Tunnel,
    /// `warren.dungeon`: the phases of an Incursion level.
    Dungeon,
    /// `warren.town`: TownMaze.
    Town,
    /// The map userdata a recipe's `generate` receives.
    Map,
    /// `ctx.rng` and its streams.
    Rng,
    /// The `ctx` table.
    Ctx,
    /// A rectangle made by `warren.rect`.
    Rect,
    /// A rectangle list held in Rust (from `warren.gen.scatter_rooms`).
    Rects,
    /// A level's tunnel context (from `warren.tunnel.new`).
    Tunnels,
    /// A dungeon level's panel grid (from `warren.dungeon.init_level`).
    Level,
    /// A TownMaze town (from `warren.town.new`).
    TownMap,
    /// Status lists (from `warren.status_lists`).
    StatusLists,
    /// `warren.toolbox`: the designer's toolbox (fields, paths, generators and filters).
    Toolbox,
    /// A float grid the map's size (from `warren.toolbox.field` and the toolbox's fields).
    Field,
}

impl Owner {
    /// Every owner, in the order of the stubs and the API reference.
    pub const ALL: [Owner; 16] = [
        Owner::Map,
        Owner::Rng,
        Owner::Rect,
        Owner::Rects,
        Owner::Ctx,
        Owner::Warren,
        Owner::Gen,
        Owner::Tunnel,
        Owner::Tunnels,
        Owner::Dungeon,
        Owner::Level,
        Owner::Town,
        Owner::TownMap,
        Owner::StatusLists,
        Owner::Toolbox,
        Owner::Field,
    ];

    /// The LuaLS class that describes the owner.
    pub const fn class(self) -> &'static str {
        match self {
            Owner::Warren => "warren",
            Owner::Gen => "warren.gen",
            Owner::Tunnel => "warren.tunnel",
            Owner::Dungeon => "warren.dungeon",
            Owner::Town => "warren.town",
            Owner::Map => "warren.Map",
            Owner::Rng => "warren.Rng",
            Owner::Ctx => "warren.Ctx",
            Owner::Rect => "warren.Rect",
            Owner::Rects => "warren.RectList",
            Owner::Tunnels => "warren.Tunnels",
            Owner::Level => "warren.Level",
            Owner::TownMap => "warren.Town",
            Owner::StatusLists => "warren.StatusLists",
            Owner::Toolbox => "warren.toolbox",
            Owner::Field => "warren.Field",
        }
    }

    /// How calls are written in messages and docs: the module path (`warren.gen`) or the
    /// conventional variable name of a value of this type (`map`, `rng`).
    pub const fn prefix(self) -> &'static str {
        match self {
            Owner::Warren => "warren",
            Owner::Gen => "warren.gen",
            Owner::Tunnel => "warren.tunnel",
            Owner::Dungeon => "warren.dungeon",
            Owner::Town => "warren.town",
            Owner::Map => "map",
            Owner::Rng => "rng",
            Owner::Ctx => "ctx",
            Owner::Rect => "rect",
            Owner::Rects => "rects",
            Owner::Tunnels => "tunnels",
            Owner::Level => "level",
            Owner::TownMap => "town",
            Owner::StatusLists => "lists",
            Owner::Toolbox => "warren.toolbox",
            Owner::Field => "field",
        }
    }

    /// Whether the owner is a module table (members called with `.`) rather than a value
    /// (methods called with `:`).
    pub const fn is_module(self) -> bool {
        matches!(
            self,
            Owner::Warren
                | Owner::Gen
                | Owner::Tunnel
                | Owner::Dungeon
                | Owner::Town
                | Owner::Toolbox
                | Owner::Ctx
        )
    }

    /// The `__name` the metatable of the owner's userdata carries, what `tostring` shows
    /// (`LuaMap: 0x…`) and how a message tells the userdata apart ([`Owner::shown`]); `None`
    /// for module tables, `ctx` and `warren.rect` tables, which are no userdata.
    pub const fn type_name(self) -> Option<&'static str> {
        match self {
            Owner::Map => Some("LuaMap"),
            Owner::Rng => Some("LuaRng"),
            Owner::Rects => Some("LuaRects"),
            Owner::Tunnels => Some("LuaTunnels"),
            Owner::Level => Some("LuaLevel"),
            Owner::TownMap => Some("LuaTown"),
            Owner::StatusLists => Some("LuaStatusLists"),
            Owner::Field => Some("LuaField"),
            Owner::Warren
            | Owner::Toolbox
            | Owner::Gen
            | Owner::Tunnel
            | Owner::Dungeon
            | Owner::Town
            | Owner::Ctx
            | Owner::Rect => None,
        }
    }

    /// A value of the owner's type as messages name it when it is passed where it does not
    /// belong (`a map`, `a warren.Rng`).
    pub fn shown(self) -> String {
        match self {
            Owner::Map => "a map".into(),
            Owner::Rng | Owner::Rects | Owner::Field => format!("a {}", self.class()),
            _ => "a warren object".into(),
        }
    }

    /// What the owner is, for its class comment.
    pub const fn doc(self) -> &'static str {
        match self {
            Owner::Warren => "The warren module: also a global, and `require \"warren\"`.",
            Owner::Gen => "Whole generation phases implemented in Rust, one call each.",
            Owner::Tunnel => "Incursion's `Map::Tunnel` (seed 000) and the connectivity fix-up.",
            Owner::Dungeon => "The phases of an Incursion level (seed 003), one Rust call each.",
            Owner::Town => "TownMaze (seed 002) as phases.",
            Owner::Map => "The map a recipe's `generate(map, ctx)` builds. Coordinates are 0-based; x grows to the right, y downwards. Off-map coordinates are errors.",
            Owner::Rng => "A seeded random number generator (`ctx.rng` and its streams).",
            Owner::Ctx => "What a recipe's `generate(map, ctx)` knows about the run.",
            Owner::Rect => "A rectangle made by `warren.rect`: the fields of a `warren.RectLike` and helper methods.",
            Owner::Rects => "Rectangles held in Rust (from `warren.gen.scatter_rooms`): `#rects` is their number and `rects[i]` rectangle `i` as a `warren.RectLike` table. Phase calls take the list without converting it.",
            Owner::Tunnels => "A level's tunnel context, from `warren.tunnel.new`: its corridor regions, constants, panel size and doors, and the rooms touched and regions used so far on the level.",
            Owner::Level => "A dungeon level's panel grid, from `warren.dungeon.init_level`: which panels are used.",
            Owner::TownMap => "A TownMaze town held in Rust; one method per step of the original. Cells are addressed `x, y` (0-based cell column and row).",
            Owner::StatusLists => "Cells (numbered 0..cells-1) each on exactly one named status list, with O(1) move, count and uniform pick.",
            Owner::Toolbox => "The designer's toolbox (docs/toolbox.md): fields (noise, distance maps, field of view), paths, cellular automata, drunkard's walks, BSP, mazes, diffusion-limited aggregation, Voronoi regions and Brogue's loops and lakes, each a fast Rust primitive working on the whole map or inside a rectangle or mask.",
            Owner::Field => "A number per cell, the map's size (from `warren.toolbox`): read, combine, threshold into terrain, show as a layer. Unreachable cells of a distance map hold `math.huge`.",
        }
    }
}

/// What kind of member a declaration is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Called with `:` (`map:get(x, y)`).
    Method,
    /// Called with `.` (`warren.rect(…)`, `ctx.log(…)`).
    Function,
    /// A value (`map.width`, `ctx.seed`).
    Field,
}

/// The type of an argument, an option or a field: what the runtime accepts and how the stubs
/// name it.
#[derive(Clone, Copy, Debug)]
pub enum Ty {
    /// An integer (a float with no fractional part is accepted) in `min..=max`.
    Int {
        /// Smallest valid value.
        min: i64,
        /// Largest valid value.
        max: i64,
    },
    /// A number in `min..=max` (finite).
    Num {
        /// Smallest valid value.
        min: f64,
        /// Largest valid value.
        max: f64,
    },
    /// A boolean.
    Bool,
    /// Any string.
    Str,
    /// One string of a fixed set.
    Choice(&'static [&'static str]),
    /// A terrain name declared in the region files.
    Terrain,
    /// A write priority: 0..=255 or a name from `warren.prio` (`"room_floor"`).
    Priority,
    /// The map userdata.
    Map,
    /// A random number generator.
    Rng,
    /// A rectangle: a `{x=, y=, w=, h=}` table or a `warren.rect`.
    Rect,
    /// A list of rectangles: a `warren.RectList` or a list of rectangles.
    Rects,
    /// A cell: a `{x=, y=}` table.
    Cell,
    /// A list of cells.
    Cells,
    /// A list of strings.
    Strings,
    /// A list of values of any type.
    List,
    /// A table of the given class.
    Table(&'static Class),
    /// A list of tables of the given class.
    TableList(&'static Class),
    /// Any table (its shape is described in the doc).
    AnyTable,
    /// A userdata of another owner type (`warren.Tunnels`, `warren.Level`, …).
    Object(Owner),
    /// A function.
    Function,
    /// Any value.
    Any,
}

impl Ty {
    /// An integer of any value.
    pub const INT: Ty = Ty::Int {
        min: i64::MIN,
        max: i64::MAX,
    };

    /// An integer in `min..=max`.
    pub const fn int(min: i64, max: i64) -> Ty {
        Ty::Int { min, max }
    }

    /// `n`, when this is an integer type whose range holds it (the bindings' range check; per
    /// cell in the fast calls, hence inlined).
    #[inline(always)]
    pub fn int_within(&self, n: i64) -> Option<i64> {
        match self {
            Ty::Int { min, max } => (*min..=*max).contains(&n).then_some(n),
            _ => None,
        }
    }

    /// The LuaLS type.
    pub fn lua_type(&self) -> String {
        match self {
            Ty::Int { .. } => "integer".into(),
            Ty::Num { .. } => "number".into(),
            Ty::Bool => "boolean".into(),
            Ty::Str => "string".into(),
            Ty::Choice(names) => names
                .iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join("|"),
            Ty::Terrain => "warren.Terrain".into(),
            Ty::Priority => "integer|string".into(),
            Ty::Map => "warren.Map".into(),
            Ty::Rng => "warren.Rng".into(),
            Ty::Rect => "warren.RectLike".into(),
            Ty::Rects => "warren.RectList|warren.RectLike[]".into(),
            Ty::Cell => "warren.Cell".into(),
            Ty::Cells => "warren.Cell[]".into(),
            Ty::Strings => "string[]".into(),
            Ty::List => "any[]".into(),
            Ty::Table(c) => c.name.into(),
            Ty::TableList(c) => format!("{}[]", c.name),
            Ty::AnyTable => "table".into(),
            Ty::Object(o) => o.class().into(),
            Ty::Function => "function".into(),
            Ty::Any => "any".into(),
        }
    }

    /// What a valid value is, in words, for error messages ("an integer in 0..=100").
    pub fn describe(&self) -> String {
        match self {
            Ty::Int { min, max } => match (*min, *max) {
                (i64::MIN, i64::MAX) => "an integer".into(),
                (min, i64::MAX) => format!("an integer ≥ {min}"),
                (i64::MIN, max) => format!("an integer ≤ {max}"),
                (min, max) => format!("an integer in {min}..={max}"),
            },
            Ty::Num { min, max } => {
                if *min == f64::NEG_INFINITY && *max == f64::INFINITY {
                    "a number (math.huge and -math.huge included)".into()
                } else if *min == f64::MIN && *max == f64::MAX {
                    "a finite number".into()
                } else if *max == f64::MAX {
                    format!("a finite number ≥ {min}")
                } else if *min == f64::MIN {
                    format!("a finite number ≤ {max}")
                } else {
                    format!("a number in {min}..={max}")
                }
            }
            Ty::Bool => "a boolean".into(),
            Ty::Str => "a string".into(),
            Ty::Choice(names) => format!("one of {}", quoted(names)),
            Ty::Terrain => "a terrain name (a string)".into(),
            Ty::Priority => "a priority (0..=255 or a name such as \"room_floor\")".into(),
            Ty::Map => "a map".into(),
            Ty::Rng => "a random number generator (ctx.rng or a stream of it)".into(),
            Ty::Rect => "a rectangle {x=, y=, w=, h=}".into(),
            Ty::Rects => "a list of rectangles".into(),
            Ty::Cell => "a cell {x=, y=}".into(),
            Ty::Cells => "a list of cells {x=, y=}".into(),
            Ty::Strings => "a list of strings".into(),
            Ty::List => "a list".into(),
            Ty::Table(c) => format!("a table ({})", c.name),
            Ty::TableList(c) => format!("a list of tables ({})", c.name),
            Ty::AnyTable => "a table".into(),
            Ty::Object(o) => format!("a {}", o.class()),
            Ty::Function => "a function".into(),
            Ty::Any => "any value".into(),
        }
    }

    /// The range or choices, for docs (`0..=100`), if the type has one.
    pub fn range(&self) -> Option<String> {
        match self {
            Ty::Int { min, max } => match (*min, *max) {
                (i64::MIN, i64::MAX) => None,
                (min, i64::MAX) => Some(format!("≥ {min}")),
                (i64::MIN, max) => Some(format!("≤ {max}")),
                (min, max) => Some(format!("{min}..={max}")),
            },
            Ty::Num { min, max }
                if (*min != f64::MIN || *max != f64::MAX)
                    && (min.is_finite() || max.is_finite()) =>
            {
                // The largest finite number stands for "no bound" (a weight's `0..=f64::MAX`).
                Some(match (*min, *max) {
                    (min, f64::MAX) => format!("≥ {min}"),
                    (f64::MIN, max) => format!("≤ {max}"),
                    (min, max) => format!("{min}..={max}"),
                })
            }
            _ => None,
        }
    }
}

/// Whether `a` and `b` are the same text, in a `const fn` (`==` is not `const`): the
/// declarations are checked against each other at compile time.
pub const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `'a', 'b', 'c'`.
pub fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A default value of an option or an optional argument.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Default {
    /// No default: the value is required, or its absence means something the doc states.
    None,
    /// An integer.
    Int(i64),
    /// A number.
    Num(f64),
    /// A boolean.
    Bool(bool),
    /// A string.
    Str(&'static str),
}

impl Default {
    /// The default as Lua source, for docs; `None` when there is none.
    pub fn lua(&self) -> Option<String> {
        match self {
            Default::None => None,
            Default::Int(i) => Some(i.to_string()),
            Default::Num(n) => Some(n.to_string()),
            Default::Bool(b) => Some(b.to_string()),
            Default::Str(s) => Some(format!("\"{s}\"")),
        }
    }
}

/// One positional argument.
#[derive(Clone, Copy, Debug)]
pub struct Arg {
    /// Its name, as messages and stubs show it.
    pub name: &'static str,
    /// Its type.
    pub ty: Ty,
    /// Whether it may be left out (nil).
    pub optional: bool,
    /// Its default when left out.
    pub default: Default,
}

/// A required argument.
pub const fn arg(name: &'static str, ty: Ty) -> Arg {
    Arg {
        name,
        ty,
        optional: false,
        default: Default::None,
    }
}

/// An optional argument.
pub const fn opt(name: &'static str, ty: Ty) -> Arg {
    Arg {
        name,
        ty,
        optional: true,
        default: Default::None,
    }
}

/// An optional argument with a default.
pub const fn opt_or(name: &'static str, ty: Ty, default: Default) -> Arg {
    Arg {
        name,
        ty,
        optional: true,
        default,
    }
}

/// One key of a table class (an options table or a record the API returns).
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// The key.
    pub key: &'static str,
    /// Its type.
    pub ty: Ty,
    /// Whether it must be present.
    pub required: bool,
    /// Its default when absent.
    pub default: Default,
    /// What it means.
    pub doc: &'static str,
}

/// A required key.
pub const fn key(key: &'static str, ty: Ty, doc: &'static str) -> Field {
    Field {
        key,
        ty,
        required: true,
        default: Default::None,
        doc,
    }
}

/// An optional key without a default (its absence means what the doc says).
pub const fn key_opt(key: &'static str, ty: Ty, doc: &'static str) -> Field {
    Field {
        key,
        ty,
        required: false,
        default: Default::None,
        doc,
    }
}

/// An optional key with a default.
pub const fn key_or(key: &'static str, ty: Ty, default: Default, doc: &'static str) -> Field {
    Field {
        key,
        ty,
        required: false,
        default,
        doc,
    }
}

/// A table type: an options table or a record the API returns (LuaLS `---@class`).
#[derive(Debug)]
pub struct Class {
    /// Its LuaLS name (`warren.WriteOptions`).
    pub name: &'static str,
    /// The class whose keys it also accepts.
    pub parent: Option<&'static Class>,
    /// What it is.
    pub doc: &'static str,
    /// Its own keys.
    pub fields: &'static [Field],
}

impl Class {
    /// Every key the class accepts: its own, then its parents'.
    pub fn all_fields(&self) -> Vec<&'static Field> {
        let mut out: Vec<&'static Field> = self.fields.iter().collect();
        let mut parent = self.parent;
        while let Some(p) = parent {
            out.extend(p.fields.iter());
            parent = p.parent;
        }
        out
    }

    /// The field named `key`, in the class or its parents.
    pub fn field(&self, key: &str) -> Option<&'static Field> {
        let mut class = Some(self);
        while let Some(c) = class {
            if let Some(f) = c.fields.iter().find(|f| f.key == key) {
                return Some(f);
            }
            class = c.parent;
        }
        None
    }

    /// Every key name the class accepts.
    pub fn keys(&self) -> Vec<&'static str> {
        self.all_fields().iter().map(|f| f.key).collect()
    }
}

/// One function, method or field of the Lua API.
#[derive(Clone, Copy, Debug)]
pub struct Decl {
    /// What it belongs to.
    pub owner: Owner,
    /// Its name.
    pub name: &'static str,
    /// What kind of member it is.
    pub kind: Kind,
    /// Positional arguments (without a method's `self`).
    pub args: &'static [Arg],
    /// Whether further arguments of any type are accepted (`ctx.log(...)`).
    pub variadic: bool,
    /// LuaLS types of the return values (for a field: its type).
    pub returns: &'static [&'static str],
    /// What it does (one or more sentences).
    pub doc: &'static str,
}

impl Decl {
    /// A method: called on a value with `:`.
    pub const fn method(owner: Owner, name: &'static str, doc: &'static str) -> Decl {
        Decl {
            owner,
            name,
            kind: Kind::Method,
            args: &[],
            variadic: false,
            returns: &[],
            doc,
        }
    }

    /// A function of a module table (or of `ctx`), called with `.`.
    pub const fn function(owner: Owner, name: &'static str, doc: &'static str) -> Decl {
        Decl {
            kind: Kind::Function,
            ..Decl::method(owner, name, doc)
        }
    }

    /// A field of type `ty` (a LuaLS type).
    pub const fn field(
        owner: Owner,
        name: &'static str,
        ty: &'static [&'static str],
        doc: &'static str,
    ) -> Decl {
        Decl {
            kind: Kind::Field,
            returns: ty,
            ..Decl::method(owner, name, doc)
        }
    }

    /// With positional arguments.
    pub const fn args(self, args: &'static [Arg]) -> Decl {
        Decl { args, ..self }
    }

    /// Accepting any number of further arguments.
    pub const fn variadic(self) -> Decl {
        Decl {
            variadic: true,
            ..self
        }
    }

    /// With return types.
    pub const fn returns(self, returns: &'static [&'static str]) -> Decl {
        Decl { returns, ..self }
    }

    /// How the member is written in messages: `map:set`, `warren.gen.scatter_rooms`.
    pub fn call_name(&self) -> String {
        let sep = if self.kind == Kind::Method { ':' } else { '.' };
        format!("{}{sep}{}", self.owner.prefix(), self.name)
    }

    /// The fewest arguments a call must pass.
    pub fn min_args(&self) -> usize {
        self.args
            .iter()
            .rposition(|a| !a.optional)
            .map_or(0, |i| i + 1)
    }

    /// The most arguments a call may pass (`None`: any number).
    pub fn max_args(&self) -> Option<usize> {
        (!self.variadic).then_some(self.args.len())
    }

    /// The call as documentation shows it: `map:set(x, y, terrain, opts?)`.
    pub fn synopsis(&self) -> String {
        if self.kind == Kind::Field {
            return format!("{}.{}", self.owner.prefix(), self.name);
        }
        let mut s = format!("{}(", self.call_name());
        for (i, a) in self.args.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str(a.name);
            if a.optional {
                s.push('?');
            }
        }
        if self.variadic {
            if !self.args.is_empty() {
                s.push_str(", ");
            }
            s.push_str("...");
        }
        s.push(')');
        s
    }

    /// The doc with every argument's range and default appended, as the stubs and the API reference show
    /// it.
    pub fn full_doc(&self) -> String {
        let mut doc = self.doc.to_string();
        for a in self.args {
            let range = a.ty.range();
            let default = a.default.lua();
            if range.is_none() && default.is_none() {
                continue;
            }
            let _ = write!(doc, " `{}`", a.name);
            if let Some(r) = range {
                let _ = write!(doc, ": {r}");
            }
            if let Some(d) = default {
                let _ = write!(doc, " (default {d})");
            }
            doc.push('.');
        }
        doc
    }
}

/// The doc of a field with its range and default appended, unless the doc states them already
/// (as the region schema's doc comments do: `0..=100. Default 10.`).
pub fn field_doc(f: &Field) -> String {
    let mut doc = f.doc.to_string();
    if let Some(r) = f.ty.range().filter(|r| !f.doc.contains(r.as_str())) {
        let _ = write!(doc, " Range {r}.");
    }
    if let Some(d) = f.default.lua() {
        if !f.doc.contains(&format!("Default {d}")) {
            let _ = write!(doc, " Default {d}.");
        }
    }
    doc
}
