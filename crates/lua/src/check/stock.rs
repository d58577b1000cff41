//! What stock Lua 5.4 has, to tell "does not exist" from "not in warren's sandbox" in messages.
//! (What the sandbox has is [`crate::surface`]; this is only Lua's manual.)

/// Stock Lua 5.4's globals the sandbox leaves out. Stock Lua's other globals are the
/// sandbox's ([`crate::surface::GLOBALS`]) but for [`WARREN_GLOBALS`].
pub const LEFT_OUT: &[&str] = &["debug", "warn"];

/// The sandbox's globals stock Lua has not got.
pub const WARREN_GLOBALS: &[&str] = &["warren"];

/// Members of stock Lua 5.4's libraries that are easy to reach for (the rest of `io`, `os`,
/// `debug` and `package` included).
pub const MEMBERS: &[(&str, &[&str])] = &[
    ("string", &["dump"]),
    ("math", &["randomseed"]),
    (
        "os",
        &[
            "clock",
            "date",
            "difftime",
            "execute",
            "exit",
            "getenv",
            "remove",
            "rename",
            "setlocale",
            "time",
            "tmpname",
        ],
    ),
    (
        "io",
        &[
            "close", "flush", "input", "lines", "open", "output", "popen", "read", "stderr",
            "stdin", "stdout", "tmpfile", "type", "write",
        ],
    ),
    (
        "package",
        &[
            "config",
            "cpath",
            "loaded",
            "loadlib",
            "path",
            "preload",
            "searchers",
            "searchpath",
        ],
    ),
    (
        "debug",
        &[
            "debug",
            "gethook",
            "getinfo",
            "getlocal",
            "getmetatable",
            "getregistry",
            "getupvalue",
            "getuservalue",
            "sethook",
            "setlocal",
            "setmetatable",
            "setupvalue",
            "setuservalue",
            "traceback",
            "upvalueid",
            "upvaluejoin",
        ],
    ),
];

/// Whether stock Lua has the global `name`.
pub fn has_global(name: &str) -> bool {
    LEFT_OUT.contains(&name)
        || crate::surface::GLOBALS.contains(&name) && !WARREN_GLOBALS.contains(&name)
}

/// Whether stock Lua's library `lib` has `member`.
pub fn has_member(lib: &str, member: &str) -> bool {
    MEMBERS
        .iter()
        .any(|(l, members)| *l == lib && members.contains(&member))
}
