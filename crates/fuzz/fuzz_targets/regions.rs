//! libFuzzer target: one region file, loaded beside the shipped terrain file
//! ([`warren_fuzz::regions`]).
#![no_main]

use std::sync::OnceLock;
use warren_fuzz::regions::Regions;

libfuzzer_sys::fuzz_target!(|input: &[u8]| {
    static TARGET: OnceLock<Regions> = OnceLock::new();
    let target = TARGET.get_or_init(|| {
        warren_fuzz::let_panics_unwind();
        Regions::new(&warren_fuzz::root()).expect("the shipped terrain file loads")
    });
    warren_fuzz::enforce(target.run(input));
});
