use warren_core::map::annotations::{
    Annotations, Corridor, KindName, KEPT_UNTAKEN_LISTS, KEPT_UNTAKEN_POINTS,
};
use warren_core::map::geom::Point;

fn corridor(notes: &mut Annotations, len: i32) {
    let mut cells = notes.corridor_cells(len as usize);
    cells.extend((0..len).map(|x| Point::new(x, 0)));
    notes.corridors.push(Corridor {
        cells,
        region: None,
    });
}

#[test]
fn cleared_corridor_lists_are_reused_and_only_small_untaken_ones_outlive_the_next_map() {
    let mut notes = Annotations::default();
    for len in [5, 80, 7] {
        corridor(&mut notes, len);
    }
    notes.clear();
    assert_eq!(notes.spare_cells.0.len(), 3);
    // A corridor takes a kept list: empty, with room for what it asks.
    let cells = notes.corridor_cells(40);
    assert!(cells.is_empty() && cells.capacity() >= 40);
    assert_eq!(notes.spare_cells.0.len(), 2);
    // A map whose corridor came from elsewhere (none taken): its list joins the two untaken
    // ones, which stay for a later map that carves more corridors.
    notes.corridors.push(Corridor {
        cells: vec![Point::new(1, 1)],
        region: None,
    });
    notes.clear();
    assert_eq!(notes.spare_cells.0.len(), 3);
    notes.clear();
    assert_eq!(notes.spare_cells.0.len(), 3, "small untaken lists stay");
    // A large list is kept for the next map only.
    let large = KEPT_UNTAKEN_POINTS as i32 + 1;
    notes.spare_cells.0.clear();
    corridor(&mut notes, large);
    notes.clear();
    assert_eq!(notes.spare_cells.0.len(), 1);
    notes.clear();
    assert!(
        notes.spare_cells.0.is_empty(),
        "a large list kept past the map after the one that held it"
    );
    // So many untaken lists are not kept.
    for _ in 0..KEPT_UNTAKEN_LISTS + 8 {
        notes.corridors.push(Corridor {
            cells: vec![Point::new(1, 1)],
            region: None,
        });
    }
    notes.clear();
    notes.clear();
    assert_eq!(notes.spare_cells.0.len(), KEPT_UNTAKEN_LISTS);
    // Kept lists are not part of what a map says.
    let mut other = Annotations::default();
    corridor(&mut other, 3);
    other.clear();
    assert_eq!(other, Annotations::default());
    assert!(other.clone().spare_cells.0.is_empty());
}

/// A room's kind reads, compares and exports as its text, whether fixed in the code or shared;
/// a binding's usual kind is held fixed (no count to raise when rooms are copied).
#[test]
fn a_kind_is_its_text_however_it_is_held() {
    let fixed = KindName::from("interior");
    let shared = KindName::from(std::sync::Arc::<str>::from("interior"));
    assert_eq!(fixed, shared);
    assert!(fixed == "interior" && shared == *"interior");
    assert_ne!(fixed, KindName::from("bsp"));
    assert_eq!(shared.len(), 8);
    assert_eq!(format!("{shared}/{fixed}"), "interior/interior");
    assert_eq!(
        serde_json::to_string(&[&fixed, &shared]).unwrap(),
        r#"["interior","interior"]"#
    );
    assert!(matches!(
        KindName::named("room", "room"),
        KindName::Fixed("room")
    ));
    assert!(matches!(KindName::named("hall", "room"), KindName::Shared(ref s) if &**s == "hall"));
}

/// A step of the model test: a tag set (as a value or as text), or the list cleared.
#[derive(Clone, Debug)]
enum TagStep {
    Set(String, i64),
    Text(String, String),
    Clear,
}

fn tag_step() -> impl proptest::strategy::Strategy<Value = TagStep> {
    use proptest::prelude::*;
    let key = "[a-d]{0,3}";
    prop_oneof![
        4 => (key, any::<i64>()).prop_map(|(k, v)| TagStep::Set(k, v)),
        4 => (key, "[x-z]{0,12}").prop_map(|(k, t)| TagStep::Text(k, t)),
        1 => Just(TagStep::Clear),
    ]
}

proptest::proptest! {
    /// Tags answer as a sorted map does, through every insert, replacement and clearing
    /// (whatever strings they kept and reused), and serialize as one.
    #[test]
    fn tags_behave_as_a_sorted_map(steps in proptest::collection::vec(tag_step(), 0..60)) {
        use std::collections::BTreeMap;
        use warren_core::map::{TagValue, Tags};
        let (mut tags, mut model) = (Tags::default(), BTreeMap::new());
        for step in steps {
            match step {
                TagStep::Set(k, v) => {
                    let old = tags.insert(&k, TagValue::Int(v));
                    proptest::prop_assert_eq!(old, model.insert(k, TagValue::Int(v)));
                }
                TagStep::Text(k, t) => {
                    tags.insert_text(&k, &t);
                    model.insert(k, TagValue::Text(t));
                }
                TagStep::Clear => {
                    tags.clear();
                    model.clear();
                }
            }
            proptest::prop_assert!(tags.iter().eq(model.iter()));
            proptest::prop_assert!(tags.keys().eq(model.keys()));
            proptest::prop_assert_eq!(tags.len(), model.len());
            proptest::prop_assert_eq!(tags.is_empty(), model.is_empty());
            for k in ["", "a", "ab", "dd", "e"] {
                proptest::prop_assert_eq!(tags.get(k), model.get(k));
                proptest::prop_assert_eq!(tags.contains_key(k), model.contains_key(k));
            }
            proptest::prop_assert_eq!(
                serde_json::to_string(&tags).unwrap(),
                serde_json::to_string(&model).unwrap()
            );
            proptest::prop_assert_eq!(format!("{tags:?}"), format!("{model:?}"));
            proptest::prop_assert_eq!(&tags.clone(), &tags);
        }
    }
}

#[test]
fn a_cleared_list_tags_the_next_map_in_the_strings_it_kept() {
    use warren_core::map::{TagValue, Tags};
    let mut tags = Tags::default();
    let fill = |tags: &mut Tags| {
        tags.insert("start_x", TagValue::Int(3));
        tags.insert_text("connectivity", "8");
        tags.iter()
            .map(|(k, v)| match v {
                TagValue::Text(t) => [k.as_ptr(), t.as_ptr()],
                _ => [k.as_ptr(), std::ptr::null()],
            })
            .collect::<Vec<_>>()
    };
    let first = fill(&mut tags);
    tags.clear();
    assert!(tags.is_empty());
    let second = fill(&mut tags);
    let mut before = first.concat();
    before.retain(|p| !p.is_null());
    let mut after = second.concat();
    after.retain(|p| !p.is_null());
    before.sort();
    after.sort();
    assert_eq!(before, after, "every string reused");
    // Clearing an empty list keeps what it kept.
    tags.clear();
    tags.clear();
    let third: Vec<_> = fill(&mut tags)
        .concat()
        .into_iter()
        .filter(|p| !p.is_null())
        .collect();
    assert!(third.iter().all(|p| after.contains(p)));
    assert_eq!(tags.get("connectivity"), Some(&TagValue::Text("8".into())));
}

#[test]
#[should_panic(expected = "no tag \"missing\"")]
fn indexing_a_missing_tag_says_which() {
    let tags: warren_core::map::Tags = [("here", warren_core::map::TagValue::Bool(true))]
        .into_iter()
        .collect();
    assert_eq!(tags["here"], warren_core::map::TagValue::Bool(true));
    let _ = &tags["missing"];
}
