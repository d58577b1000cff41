//! `warren::serve::status` (src/serve/status.rs): problems as the page shows them.

use warren::serve::status::Problem;
use warren_core::region::RegionError;

#[test]
fn problems_name_their_file_line_and_column() {
    let p = Problem::new("regions/terrain.toml:31:11: unclosed array table, expected `]`");
    assert_eq!(
        (p.file.as_deref(), p.line, p.column),
        (Some("regions/terrain.toml"), Some(31), Some(11))
    );
    let p = Problem::new("scripts/rooms.lua:12: attempt to call a nil value (method 'fil')");
    assert_eq!(
        (p.file.as_deref(), p.line, p.column),
        (Some("scripts/rooms.lua"), Some(12), None)
    );
    let p = Problem::new("C:\\maps\\r.lua:3: boom");
    assert_eq!(
        (p.file.as_deref(), p.line),
        (Some("C:\\maps\\r.lua"), Some(3))
    );
    let p = Problem::new("r.lua: unknown parameter 'x' (valid: width, height)");
    assert_eq!((p.file, p.line), (None, None));
    let p = Problem::new("r.lua:4:5x: not a column");
    assert_eq!((p.line, p.column), (Some(4), None));
    let traceback = Problem::new("r.lua:7: boom\nstack traceback:\n  r.lua:3: in generate");
    assert_eq!((traceback.line, traceback.column), (Some(7), None));
    let region = RegionError {
        file: "regions/a.toml".into(),
        line: 3,
        col: 0,
        message: "unknown key".into(),
    };
    let p = Problem::of_region(&region);
    assert_eq!((p.line, p.column), (Some(3), None));
    assert_eq!(p.message, "regions/a.toml:3: unknown key");
}
