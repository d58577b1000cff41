use std::sync::Arc;
use warren_core::map::{Brush, Layer, Point, Rect, Terrain, TerrainTable};
use warren_core::map::{Map, Rgb};
use warren_core::render::layers::{palette, LayerChoice};

fn map() -> Map {
    let table = TerrainTable::new(vec![
        Terrain {
            name: "rock".into(),
            glyph: '#',
            color: Rgb(90, 90, 90),
            solid: true,
            hazard: false,
            move_cost: None,
        },
        Terrain {
            name: "floor".into(),
            glyph: '.',
            color: Rgb(200, 200, 200),
            solid: false,
            hazard: false,
            move_cost: None,
        },
    ]);
    let mut m = Map::new(7, 3, 0, Arc::new(table)).unwrap();
    let floor = Brush::new(1).priority(70);
    m.fill_rect(&Rect::new(1, 1, 2, 1), &floor.region(1))
        .unwrap();
    m.fill_rect(&Rect::new(4, 1, 2, 1), &floor).unwrap();
    m
}

#[test]
fn components_and_regions_get_one_letter_each() {
    let m = map();
    let v = LayerChoice::Components.view(&m).unwrap();
    assert_eq!(v.rows(), vec!["#######", "#aa#bb#", "#######"]);
    let v = LayerChoice::from_name("region").view(&m).unwrap();
    assert_eq!(v.rows(), vec!["#######", "#aa#..#", "#######"]);
    assert_eq!(v.colors[0], Rgb(30, 30, 30));
}

#[test]
fn the_region_legend_names_each_letter_on_the_map() {
    let mut m = map();
    let hall = m.region_id("hall");
    let _unused = m.region_id("nowhere");
    let cave = m.region_id("cave");
    m.fill_rect(&Rect::new(1, 1, 2, 1), &Brush::new(1).region(hall))
        .unwrap();
    m.fill_rect(&Rect::new(4, 1, 1, 1), &Brush::new(1).region(cave))
        .unwrap();
    let rows = LayerChoice::Region.view(&m).unwrap().rows();
    assert_eq!(rows[1], "#aa#c.#");
    let legend = LayerChoice::Region.legend(&m);
    assert_eq!(legend.len(), 2, "{legend:?}");
    assert_eq!(legend[&'a'], vec!["hall".to_string()]);
    assert_eq!(legend[&'c'], vec!["cave".to_string()]);
    assert!(LayerChoice::Components.legend(&m).is_empty());
}

#[test]
fn priority_is_a_digit_heat_map() {
    let v = LayerChoice::Priority.view(&map()).unwrap();
    assert_eq!(v.rows()[1], "#55#55#");
    assert!(v.colors[8].0 > v.colors[0].0);
}

#[test]
fn custom_layers_overlay_the_dimmed_terrain() {
    let mut m = map();
    let mut l = Layer::new(7, 3);
    l.set(Point::new(3, 1), '!', Rgb(255, 0, 0)).unwrap();
    m.notes.layers.insert("status".into(), l);
    let v = LayerChoice::from_name("status").view(&m).unwrap();
    assert_eq!(v.rows()[1], "#..!..#");
    assert_eq!(v.colors[3 + 7], Rgb(255, 0, 0));
    let e = LayerChoice::from_name("heat").view(&m).unwrap_err();
    assert_eq!(
            e,
            "--layer heat: this map has no such layer (available: terrain, priority, region, components, status)"
        );
}

#[test]
fn palette_colours_differ_for_neighbouring_labels() {
    let colors: std::collections::BTreeSet<_> = (0..12).map(|k| palette(k).to_hex()).collect();
    assert_eq!(colors.len(), 12);
}
