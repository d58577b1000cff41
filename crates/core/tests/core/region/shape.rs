use schemars::JsonSchema;
use serde_json::Value as J;
use warren_core::region::schema::{
    CaveDef, CorridorConstants, CorridorDef, DoorDef, DoorWeightsDef, DungeonDef, PrefabDef,
    RoomDef, RoomsDef, SampleDef, SpawnDef, StreamerDef, SubstDef, TerrainDef, TownDebugDef,
    TownDef, VaultDef,
};
use warren_core::region::shape::{KeyKind, Presence, Section, Value};

/// Checks `S::SHAPE` against the JSON Schema schemars makes of `S` from its serde and
/// schemars attributes: the same keys, and per key the same requiredness, default, range
/// and choices.
fn check<S: JsonSchema>(shape: &Section) {
    let schema = schemars::generate::SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<S>()
        .to_value();
    let name = S::schema_name();
    let props = schema["properties"].as_object().expect("properties");
    let names: Vec<&str> = shape.keys.iter().map(|k| k.name).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    let listed: Vec<&str> = props.keys().map(String::as_str).collect();
    assert_eq!(sorted, listed, "{name}");
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(J::as_str).collect())
        .unwrap_or_default();
    for k in shape.keys {
        let p = &props[k.name];
        let at = format!("{name}.{}", k.name);
        assert_eq!(
            k.spec.presence == Presence::Required,
            required.contains(&k.name),
            "{at}: required"
        );
        // The default serde fills in, where the schema states one.
        let stated = p.get("default").filter(|d| !d.is_null() && !d.is_object());
        let stated = stated.filter(|d| !d.as_array().is_some_and(|a| a.is_empty()));
        match (k.spec.presence, stated) {
            (Presence::Default(v), Some(d)) => {
                let want = match v {
                    Value::Int(i) => J::from(i),
                    Value::Num(n) => J::from(n),
                    Value::Bool(b) => J::from(b),
                    Value::Text(s) => J::from(s),
                };
                assert!(
                    d == &want || d.as_f64() == want.as_f64() && want.is_number(),
                    "{at}: default {d} in the schema, {want} in the shape"
                );
            }
            (Presence::Default(_), None) => {
                // Only `#[serde(default)]` on a field, which schemars does not state: the
                // type's own default, checked here.
                assert!(
                    matches!(
                        k.spec.presence,
                        Presence::Default(Value::Bool(false) | Value::Text(""))
                    ),
                    "{at}: a default the schema does not state"
                );
            }
            (_, Some(d)) => panic!("{at}: the schema states default {d}"),
            _ => {}
        }
        let n = |key: &str| p.get(key).and_then(J::as_f64);
        match k.spec.kind {
            KeyKind::Int { min, max } => {
                assert_eq!(n("minimum"), Some(min as f64), "{at}: minimum");
                let max = (max != i64::MAX).then_some(max as f64);
                assert_eq!(n("maximum"), max, "{at}: maximum");
            }
            KeyKind::Weight => assert_eq!(n("minimum"), Some(0.0), "{at}: minimum"),
            KeyKind::Choice(names) => {
                if let Some(e) = p.get("enum") {
                    assert_eq!(e, &J::from(names.to_vec()), "{at}: choices");
                }
            }
            _ => assert_eq!((n("minimum"), n("maximum")), (None, None), "{at}: range"),
        }
    }
}

#[test]
fn each_sections_shape_is_what_serde_and_the_schema_say() {
    check::<TerrainDef>(&TerrainDef::SHAPE);
    check::<DoorDef>(&DoorDef::SHAPE);
    check::<DoorWeightsDef>(&DoorWeightsDef::SHAPE);
    check::<DungeonDef>(&DungeonDef::SHAPE);
    check::<CorridorConstants>(&CorridorConstants::SHAPE);
    check::<CorridorDef>(&CorridorDef::SHAPE);
    check::<RoomDef>(&RoomDef::SHAPE);
    check::<StreamerDef>(&StreamerDef::SHAPE);
    check::<VaultDef>(&VaultDef::SHAPE);
    check::<PrefabDef>(&PrefabDef::SHAPE);
    check::<SubstDef>(&SubstDef::SHAPE);
    check::<SampleDef>(&SampleDef::SHAPE);
    check::<RoomsDef>(&RoomsDef::SHAPE);
    check::<CaveDef>(&CaveDef::SHAPE);
    check::<TownDef>(&TownDef::SHAPE);
    check::<TownDebugDef>(&TownDebugDef::SHAPE);
    check::<SpawnDef>(&SpawnDef::SHAPE);
}

#[test]
fn the_registry_data_has_a_key_per_section() {
    let data = serde_json::to_value(warren_core::region::RegistryData::default()).unwrap();
    let keys: Vec<&str> = data
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut names: Vec<&str> = warren_core::region::RegistryData::SHAPE
        .keys
        .iter()
        .map(|k| k.name)
        .collect();
    names.sort_unstable();
    assert_eq!(keys, names);
}

#[test]
fn docs_are_the_doc_comments() {
    let k = DungeonDef::SHAPE.key("turn_chance").unwrap();
    assert_eq!(
        k.doc,
        "Percent chance per step that a corridor turns once its segment is longer than \
             `segment_minlen`. 0..=100. Default 10."
    );
    assert!(SpawnDef::SHAPE
        .doc
        .starts_with(" `[[spawn]]` — something that may be spawned"));
    assert!(DoorDef::SHAPE.doc.contains("\n\n ```toml\n [[door]]\n"));
}
