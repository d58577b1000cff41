//! The sandbox's surface: every global and standard-library member a recipe can reach. Nothing
//! else is there (`debug`, `warn`, `string.dump`, `math.randomseed`, and all of `io` and `os`
//! but the members below, are absent; `package` has no `cpath`, `searchers`, `searchpath` or
//! `loadlib`); the tests walk `_G` and every library and compare with these lists.

/// The global names a recipe sees.
pub const GLOBALS: &[&str] = &[
    "_G",
    "_VERSION",
    "assert",
    "collectgarbage",
    "coroutine",
    "dofile",
    "error",
    "getmetatable",
    "io",
    "ipairs",
    "load",
    "loadfile",
    "math",
    "next",
    "os",
    "package",
    "pairs",
    "pcall",
    "print",
    "rawequal",
    "rawget",
    "rawlen",
    "rawset",
    "require",
    "select",
    "setmetatable",
    "string",
    "table",
    "tonumber",
    "tostring",
    "type",
    "utf8",
    "warren",
    "xpcall",
];

/// The members of each standard library a recipe sees (`coroutine` read-only; the others are
/// the run's own, writable as in stock Lua).
pub const LIBRARIES: &[(&str, &[&str])] = &[
    (
        "coroutine",
        &[
            "close",
            "create",
            "isyieldable",
            "resume",
            "running",
            "status",
            "wrap",
            "yield",
        ],
    ),
    (
        "math",
        // Lua 5.4 as mlua builds it keeps the 5.2 compatibility functions (atan2, cosh, …).
        &[
            "abs",
            "acos",
            "asin",
            "atan",
            "atan2",
            "ceil",
            "cos",
            "cosh",
            "deg",
            "exp",
            "floor",
            "fmod",
            "frexp",
            "huge",
            "ldexp",
            "log",
            "log10",
            "max",
            "maxinteger",
            "min",
            "mininteger",
            "modf",
            "pi",
            "pow",
            "rad",
            "random",
            "sin",
            "sinh",
            "sqrt",
            "tan",
            "tanh",
            "tointeger",
            "type",
            "ult",
        ],
    ),
    (
        "string",
        &[
            "byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack",
            "packsize", "rep", "reverse", "sub", "unpack", "upper",
        ],
    ),
    (
        "table",
        &[
            "concat", "insert", "move", "pack", "remove", "sort", "unpack",
        ],
    ),
    (
        "utf8",
        &["char", "charpattern", "codepoint", "codes", "len", "offset"],
    ),
    (
        "io",
        &["flush", "output", "stderr", "stdout", "type", "write"],
    ),
    ("os", &["clock", "date", "difftime", "time"]),
    ("package", &["config", "loaded", "path", "preload"]),
];
