use serde_json::Value;
use warren_core::map::{Rgb, TerrainTable};
use warren_core::render::tiled::{escape, property, tileset_view, COLUMNS, TILE_PX};

#[test]
fn attribute_text_is_escaped() {
    assert_eq!(escape("a<b & \"c\"\n"), "a&lt;b &amp; &quot;c&quot;&#10;");
}

#[test]
fn properties_are_typed() {
    let mut out = Vec::new();
    for v in [
        Value::from(true),
        Value::from(12),
        Value::from(u64::MAX),
        Value::from(0.5),
        serde_json::json!([{"x": 1}]),
    ] {
        property(&mut out, "", "p", &v).unwrap();
    }
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text,
        "<property name=\"p\" type=\"bool\" value=\"true\"/>\n\
             <property name=\"p\" type=\"int\" value=\"12\"/>\n\
             <property name=\"p\" value=\"18446744073709551615\"/>\n\
             <property name=\"p\" type=\"float\" value=\"0.5\"/>\n\
             <property name=\"p\" value=\"[{&quot;x&quot;:1}]\"/>\n"
    );
}

#[test]
fn the_tileset_draws_solid_tiles_full_and_open_ones_inset() {
    let table = TerrainTable::new(vec![
        warren_core::map::Terrain {
            name: "wall".into(),
            glyph: '#',
            color: Rgb(200, 200, 200),
            solid: true,
            hazard: false,
            move_cost: None,
        },
        warren_core::map::Terrain {
            name: "floor".into(),
            glyph: '.',
            color: Rgb(100, 40, 8),
            solid: false,
            hazard: false,
            move_cost: None,
        },
    ]);
    let v = tileset_view(&table);
    assert_eq!((v.width, v.height), (COLUMNS * TILE_PX, TILE_PX));
    assert_eq!(v.colors[0], Rgb(200, 200, 200));
    assert_eq!(v.colors[TILE_PX], Rgb(25, 10, 2), "open tile's ground");
    let centre = TILE_PX + TILE_PX / 2 + (TILE_PX / 2) * v.width;
    assert_eq!(v.colors[centre], Rgb(100, 40, 8));
}
