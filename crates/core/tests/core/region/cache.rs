//! The registry cache: read only for the very files (paths and texts) and binary it was
//! written for, the same registry either way, never an error of its own.

use crate::common::{root, TEST_TERRAIN};
use std::path::Path;
use warren_core::cache::KEEP;
use warren_core::region::cache::RegistryCache;
use warren_core::region::{collect_toml, read_source, Registry, Source};

/// The sources of the region files in `dir`, in load order.
fn sources_of(dir: &Path) -> Vec<Source> {
    let mut paths = Vec::new();
    collect_toml(dir, &mut paths).unwrap();
    paths.sort();
    paths.iter().map(|p| read_source(p).unwrap()).collect()
}

/// Two small region files.
fn small() -> Vec<Source> {
    let rooms = "[rooms]\nwall = \"rock\"\nfloor = \"floor\"\ncorridor = \"floor\"\n";
    vec![
        Source {
            path: "regions/a.toml".into(),
            text: TEST_TERRAIN.into(),
        },
        Source {
            path: "regions/b.toml".into(),
            text: rooms.into(),
        },
    ]
}

/// Everything a registry holds, as text, less what two tables built from the same terrains
/// differ in: the serial number each gets, and the order its name index lists names in.
fn described(registry: &Registry) -> String {
    let text = format!("{registry:?}");
    let (head, tail) = text.split_once("by_name: {").expect("the name index");
    let (_, tail) = tail.split_once("}, ").expect("its end");
    let (middle, tail) = tail.split_once("serial: ").expect("the table's serial");
    let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
    format!("{head}{middle}{}", &tail[digits..])
}

/// The glyph the registry gives terrain `name`.
fn glyph(registry: &Registry, name: &str) -> char {
    let table = registry.terrains();
    table.get(table.id(name).unwrap()).glyph
}

/// A cache in a fresh temporary directory (kept while the first value lives).
fn temp_cache() -> (tempfile::TempDir, RegistryCache) {
    let tmp = tempfile::tempdir().unwrap();
    let cache = RegistryCache::new(tmp.path().into(), "test".into());
    (tmp, cache)
}

/// A cache holding, for [`small`]'s files, the registry of files that draw the floor `X`: a
/// registry those files do not make, so a registry with that glyph came from the cache.
fn holding_x() -> (tempfile::TempDir, RegistryCache, Vec<Source>) {
    let (tmp, cache) = temp_cache();
    let sources = small();
    let mut x = sources.clone();
    x[0].text = x[0].text.replace("glyph = \".\"", "glyph = \"X\"");
    assert_ne!(x[0].text, sources[0].text);
    cache.write(&sources, &Registry::from_sources(x).unwrap());
    (tmp, cache, sources)
}

#[test]
fn a_cached_registry_is_the_registry_loading_makes() {
    // A `[limits]` section (where each key is written is kept), with terrains.
    let limits = read_source(&root().join("crates/fuzz/seeds/regions/limits.toml")).unwrap();
    let seeds = vec![small().swap_remove(0), limits];
    let sets = [
        ("regions", sources_of(&root().join("regions"))),
        (
            "check",
            sources_of(&root().join("tests/fixtures/check/regions")),
        ),
        ("limits", seeds),
    ];
    for (dir, sources) in sets {
        let (_tmp, cache) = temp_cache();
        let parsed = Registry::from_sources(sources.clone()).unwrap();
        let first = Registry::from_sources_cached(sources.clone(), Some(&cache)).unwrap();
        assert!(
            cache.path(&sources).is_file(),
            "{dir}: the registry is kept"
        );
        assert!(cache.read(&sources).is_some());
        let second = Registry::from_sources_cached(sources, Some(&cache)).unwrap();
        assert_eq!(described(&first), described(&parsed), "{dir}");
        assert_eq!(
            described(&second),
            described(&parsed),
            "{dir}: from the cache"
        );
    }
}

#[test]
fn the_cache_is_read_for_the_files_it_was_written_for() {
    let (_tmp, cache, sources) = holding_x();
    let registry = Registry::from_sources_cached(sources.clone(), Some(&cache)).unwrap();
    assert_eq!(glyph(&registry, "floor"), 'X');
    // Without the cache, the texts' own glyph.
    assert_eq!(
        glyph(&Registry::from_sources(sources).unwrap(), "floor"),
        '.'
    );
}

#[test]
fn a_cache_of_other_texts_or_paths_or_by_another_binary_is_not_read() {
    let (tmp, cache, sources) = holding_x();
    // One byte more in one file: another set of texts, even with the first set's file in
    // its place (a hash's collision).
    let mut edited = sources.clone();
    edited[1].text.push('\n');
    std::fs::copy(cache.path(&sources), cache.path(&edited)).unwrap();
    assert!(cache.read(&edited).is_none());
    let registry = Registry::from_sources_cached(edited.clone(), Some(&cache)).unwrap();
    assert_eq!(glyph(&registry, "floor"), '.');
    // The same texts at other paths (messages name the paths), even with the first set's
    // file in its place.
    let mut moved = sources.clone();
    moved[1].path = "elsewhere/b.toml".into();
    std::fs::copy(cache.path(&sources), cache.path(&moved)).unwrap();
    assert!(cache.read(&moved).is_none());
    let registry = Registry::from_sources_cached(moved.clone(), Some(&cache)).unwrap();
    assert_eq!(glyph(&registry, "floor"), '.');
    assert_eq!(registry.files[1], std::path::Path::new("elsewhere/b.toml"));
    // The same texts, another binary, even with the first binary's file in its place.
    let other = RegistryCache::new(tmp.path().into(), "another build".into());
    std::fs::copy(cache.path(&sources), other.path(&sources)).unwrap();
    assert!(other.read(&sources).is_none());
    let registry = Registry::from_sources_cached(sources, Some(&other)).unwrap();
    assert_eq!(glyph(&registry, "floor"), '.');
}

#[test]
fn a_damaged_cache_is_loaded_past_and_written_again() {
    let (_tmp, cache) = temp_cache();
    let sources = small();
    Registry::from_sources_cached(sources.clone(), Some(&cache)).unwrap();
    let path = cache.path(&sources);
    let whole = std::fs::read(&path).unwrap();
    // One bit of a colour's text in the registry changed ('c' to 'b'): it would still
    // decode, to another colour. (The files come first, the registry after them.)
    let mut flipped = whole.clone();
    let at = whole.windows(6).rposition(|w| w == b"c0c0c0").unwrap();
    flipped[at] ^= 1;
    // And one of the files' texts'.
    let mut flipped_text = whole.clone();
    let at = whole.windows(8).position(|w| w == b"corridor").unwrap();
    flipped_text[at] ^= 1;
    for damaged in [
        Vec::new(),
        whole[..whole.len() / 2].to_vec(),
        whole[..whole.len() - 1].to_vec(),
        vec![0xff; whole.len()],
        flipped,
        flipped_text,
    ] {
        std::fs::write(&path, &damaged).unwrap();
        assert!(cache.read(&sources).is_none());
        let registry = Registry::from_sources_cached(sources.clone(), Some(&cache)).unwrap();
        assert_eq!(glyph(&registry, "floor"), '.');
        assert_eq!(std::fs::read(&path).unwrap(), whole, "written again");
    }
}

#[test]
fn files_with_errors_are_not_cached_and_report_as_ever() {
    let (tmp, cache) = temp_cache();
    let mut sources = small();
    sources[1].text = "[rooms\n".into();
    let cached = Registry::from_sources_cached(sources.clone(), Some(&cache)).unwrap_err();
    let plain = Registry::from_sources(sources.clone()).unwrap_err();
    assert_eq!(cached.to_string(), plain.to_string());
    assert!(
        cached.to_string().starts_with("regions/b.toml:1:7:"),
        "{cached}"
    );
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    // Nor is a set that parses but breaks a rule.
    sources[1].text = "[rooms]\nwall = \"lava\"\nfloor = \"floor\"\ncorridor = \"floor\"\n".into();
    let cached = Registry::from_sources_cached(sources.clone(), Some(&cache)).unwrap_err();
    let plain = Registry::from_sources(sources).unwrap_err();
    assert_eq!(cached.to_string(), plain.to_string());
    assert!(cached.to_string().contains("'lava'"), "{cached}");
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn a_cache_that_cannot_be_written_is_left_out() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a file");
    std::fs::write(&file, "").unwrap();
    // Its directory would be inside a file.
    let cache = RegistryCache::new(file.join("cache"), "test".into());
    let registry = Registry::from_sources_cached(small(), Some(&cache)).unwrap();
    assert_eq!(glyph(&registry, "floor"), '.');
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
}

#[test]
fn the_oldest_cache_files_go_past_the_number_kept() {
    let (tmp, cache) = temp_cache();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    // KEEP + 5 older cache files of both kinds (region parses, compiled recipes), oldest
    // first, and a file that is no cache file.
    let kinds = ["regions-", "chunk-"];
    let names: Vec<String> = (0..KEEP + 5)
        .map(|i| format!("{}{i:016x}", kinds[i % 2]))
        .collect();
    for (i, name) in names.iter().enumerate() {
        let f = std::fs::File::create(tmp.path().join(name)).unwrap();
        f.set_modified(old + std::time::Duration::from_secs(i as u64))
            .unwrap();
    }
    let other = tmp.path().join("notes.txt");
    std::fs::File::create(&other)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let sources = small();
    Registry::from_sources_cached(sources.clone(), Some(&cache)).unwrap();
    let left: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    // The cache files kept, the other file, and the key (never trimmed).
    assert_eq!(left.len(), KEEP + 2, "{left:?}");
    assert!(cache.path(&sources).is_file() && other.is_file());
    assert!(tmp.path().join("key").is_file());
    for (i, name) in names.iter().enumerate() {
        assert_eq!(left.contains(name), i >= 6, "{name}");
    }
}

#[test]
fn the_oldest_cache_files_go_past_the_bytes_kept() {
    use warren_core::cache::KEEP_BYTES;
    let (tmp, cache) = temp_cache();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    // Three older files of half the bytes kept each (sparse: no disk is used).
    for i in 0..3u64 {
        let f = std::fs::File::create(tmp.path().join(format!("regions-{i:016x}"))).unwrap();
        f.set_len(KEEP_BYTES / 2).unwrap();
        f.set_modified(old + std::time::Duration::from_secs(i))
            .unwrap();
    }
    let sources = small();
    Registry::from_sources_cached(sources.clone(), Some(&cache)).unwrap();
    assert!(cache.path(&sources).is_file());
    // The new file and the newest old one fit; the two oldest do not.
    for i in 0..3u64 {
        let kept = tmp.path().join(format!("regions-{i:016x}")).exists();
        assert_eq!(kept, i == 2, "file {i}");
    }
}

#[cfg(unix)]
#[test]
fn the_cache_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("cache").join("warren");
    let cache = RegistryCache::new(dir.clone(), "test".into());
    let sources = small();
    Registry::from_sources_cached(sources.clone(), Some(&cache)).unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&tmp.path().join("cache")), 0o700);
    assert_eq!(mode(&cache.path(&sources)), 0o600);
}

#[test]
fn files_a_writer_abandoned_go_after_an_hour() {
    let (tmp, cache) = temp_cache();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    let abandoned = tmp.path().join("regions-0123456789abcdef.77-0.part");
    let writing = tmp.path().join("regions-0123456789abcdef.78-0.part");
    std::fs::File::create(&abandoned)
        .unwrap()
        .set_modified(old)
        .unwrap();
    std::fs::File::create(&writing).unwrap();
    let sources = small();
    Registry::from_sources_cached(sources.clone(), Some(&cache)).unwrap();
    assert!(!abandoned.exists() && writing.exists());
    assert!(cache.path(&sources).is_file());
}

#[cfg(unix)]
#[test]
fn a_cache_file_that_is_no_regular_file_is_not_opened() {
    let (_tmp, cache) = temp_cache();
    let sources = small();
    // A FIFO with no writer would block a reader forever.
    let made = std::process::Command::new("mkfifo")
        .arg(cache.path(&sources))
        .status()
        .unwrap();
    assert!(made.success());
    assert!(cache.read(&sources).is_none());
    let registry = Registry::from_sources_cached(sources, Some(&cache)).unwrap();
    assert_eq!(glyph(&registry, "floor"), '.');
}
