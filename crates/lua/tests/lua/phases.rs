//! The phase clock: marks add up per name and reset between generations (formerly the unit
//! tests of `crates/lua/src/phases.rs`).

use std::time::Duration;
use warren_lua::phases::PhaseClock;

#[test]
fn marks_add_up_per_name_and_reset_between_generations() {
    let mut clock = PhaseClock::default();
    clock.start();
    clock.mark(b"rooms");
    clock.mark(b"corridors");
    clock.mark(b"rooms");
    let names: Vec<&str> = clock.iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["rooms", "corridors"]);
    clock.start();
    clock.mark(b"corridors");
    let names: Vec<&str> = clock.iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["corridors"], "unmarked phases are not reported");
    std::thread::sleep(Duration::from_millis(2));
    clock.stop();
    let marked: Duration = clock.iter().map(|(_, t)| t).sum();
    assert!(
        clock.total() >= marked + Duration::from_millis(2),
        "the total covers it all"
    );
    clock.start();
    assert_eq!(
        clock.total(),
        Duration::ZERO,
        "a new generation starts from zero"
    );
}
