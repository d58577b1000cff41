//! The run's data: parameters, region sections and keys (`check/data.rs`).

use warren_lua::check::data::{key, param, section};
use warren_lua::check::known::Known;
use warren_lua::check::value::Val;

fn known() -> Known {
    Known {
        terrains: None,
        regions: Some(serde_json::json!({
            "rooms": { "floor": "floor", "size": 3 }, "cave": null, "spawn": []
        })),
        params: Some(["width".into(), "height".into()].into()),
    }
}

#[test]
fn params_sections_and_keys() {
    let k = known();
    assert_eq!(param(&k, "width"), None);
    assert_eq!(
        param(&k, "widht").unwrap(),
        "ctx.params.widht: the recipe declares no parameter 'widht' (did you mean 'width'?) (declared: height, width)"
    );
    assert_eq!(section(&k, "rooms"), (None, Val::Region("rooms".into())));
    assert_eq!(section(&k, "spawn"), (None, Val::Table));
    assert!(section(&k, "cave")
        .0
        .unwrap()
        .contains("no region file declares [cave]"));
    assert!(section(&k, "roms")
        .0
        .unwrap()
        .contains("no such region section (did you mean 'rooms'?)"));
    assert_eq!(key(&k, "rooms", "size"), (None, Val::Num(None)));
    assert!(key(&k, "rooms", "flor")
        .0
        .unwrap()
        .contains("[rooms] has no key 'flor'"));
    // Without region data nothing is known, and nothing reported.
    assert_eq!(section(&Known::default(), "x"), (None, Val::Unknown));
}
