use warren_core::region::explain::{
    did_you_mean, edit_distance, nearest, parse_error, unknown, Reach,
};
use warren_core::region::RegionFile;

fn explain(text: &str) -> String {
    let e = toml::from_str::<RegionFile>(text).unwrap_err();
    parse_error(text, e.message(), e.span())
}

#[test]
fn each_reach_keeps_its_rule() {
    assert_eq!(edit_distance("flor", "floor"), 1);
    assert_eq!(edit_distance("", "abc"), 3);
    assert_eq!(edit_distance("ab", "ba"), 1);
    let known = ["attempts", "min_size", "ab"];
    // Abbreviations: the API's reach only.
    assert_eq!(
        nearest("atte", known, Reach::QuarterOrPrefix),
        Some("attempts")
    );
    assert_eq!(nearest("atte", known, Reach::Quarter), None);
    // A known name that differs in every letter: the CLI's reach only.
    assert_eq!(nearest("xy", known, Reach::Quarter), Some("ab"));
    assert_eq!(nearest("xy", known, Reach::QuarterOrPrefix), None);
    // Case: region files' reach only; ties go to the first (regions) or the least name.
    assert_eq!(nearest("MIN_SIZE", known, Reach::Third), Some("min_size"));
    assert_eq!(nearest("MIN_SIZE", known, Reach::Quarter), None);
    assert_eq!(nearest("bb", ["cb", "ab"], Reach::Third), Some("cb"));
    assert_eq!(nearest("bb", ["cb", "ab"], Reach::Quarter), Some("ab"));
}

#[test]
fn typos_find_their_name() {
    let known = ["flagstone", "floor", "rock wall", "door"];
    assert_eq!(did_you_mean("flagstne", known), Some("flagstone"));
    assert_eq!(did_you_mean("Rock Wal", known), Some("rock wall"));
    assert_eq!(did_you_mean("flor", known), Some("floor"));
    assert_eq!(did_you_mean("lava", known), None);
    assert_eq!(
        did_you_mean("x", ["y"]),
        None,
        "a one-letter name is no typo of another"
    );
    assert_eq!(
        unknown("terrain", "flagstne", &known),
        "unknown terrain 'flagstne'; did you mean 'flagstone'?"
    );
    assert_eq!(
        unknown("terrain", "lava", &["rock", "floor"]),
        "unknown terrain 'lava' (known: 'rock', 'floor')"
    );
}

#[test]
fn wrong_types_name_the_entry_the_key_and_the_type() {
    assert_eq!(
        explain("[[room]]\nname = \"great hall\"\nweight = \"2\"\n"),
        "room 'great hall': weight = \"2\" is text, but must be a number"
    );
    assert_eq!(
        explain("[dungeon]\nturn_chance = 1.5\n"),
        "dungeon.turn_chance = 1.5 is a fractional number, but must be a whole number"
    );
    assert_eq!(
        explain("[[terrain]]\nname = \"x\"\nglyph = \"x\"\ncolor = \"#000000\"\nsolid = \"no\"\n"),
        "terrain 'x': solid = \"no\" is text, but must be true or false"
    );
    assert_eq!(
        explain("[[corridor]]\nname = \"c\"\n[corridor.constants]\nturn_chance = [1, 2]\n"),
        "corridor 'c': constants.turn_chance = [1, 2] is a list, but must be a whole number"
    );
    assert_eq!(
        explain("[[room]]\nname = 7\n"),
        "room #1: name = 7 is a whole number, but must be text in quotes"
    );
}

#[test]
fn missing_and_unknown_keys_name_their_entry() {
    let two_rooms = "[[room]]\nname = \"a\"\nweight = 1\nkind = \"normal\"\nfloor = \"f\"\nwall = \"w\"\ndoor = \"d\"\n\n[[room]]\nname = \"great hall\"\nweight = 2\n";
    assert_eq!(
        explain(two_rooms),
        "room 'great hall' has no 'kind', which is required"
    );
    assert_eq!(
        explain("[[terrain]]\nname = \"x\"\ncolour = 1\n"),
        "terrain 'x': unknown key 'colour'; did you mean 'color'?"
    );
    assert_eq!(
            explain("[[room]]\nname = \"x\"\nzzz = 1\n"),
            "room 'x': unknown key 'zzz' (keys: name, weight, kind, floor, wall, door, furnishing, keep_doors, min_depth, max_depth)"
        );
    assert_eq!(
        explain("[vaults]\nx = 1\n"),
        "unknown section 'vaults'; did you mean [[vault]]?"
    );
    assert!(explain("[zzz]\n").starts_with("unknown section 'zzz' (sections: [[terrain]], [map],"));
}
