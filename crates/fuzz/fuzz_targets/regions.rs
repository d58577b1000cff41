//! Region files from the fuzzer, merged with a valid terrain file as the loader would: whatever
//! the bytes, loading must return a registry or located errors, never panic or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warren_core::region::{Registry, Source};

const TERRAIN: &str = "[[terrain]]\nname = \"rock\"\nglyph = \"#\"\ncolor = \"#505050\"\nsolid = true\n\n\
[[terrain]]\nname = \"floor\"\nglyph = \".\"\ncolor = \"#c0c0c0\"\nsolid = false\n";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let sources = vec![
        Source {
            path: "regions/terrain.toml".into(),
            text: TERRAIN.into(),
        },
        Source {
            path: "regions/fuzz.toml".into(),
            text: text.into(),
        },
    ];
    if let Err(errors) = Registry::from_sources(sources) {
        // Every error names its file; the message renders.
        assert!(!errors.0.is_empty());
        let _ = errors.to_string();
    }
});
