//! A map's free-form tags: text keys with values, sorted by key, like a sorted map. A map that is
//! reset and used again keeps the strings of its last tags, emptied, for the next ones: a
//! recipe that tags every map the same way (`start_x`, `connectivity` …) does so without
//! allocating.

use super::annotations::TagValue;
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::fmt;

/// Tags by key, in key order. Two lists are equal when they hold the same tags, whatever
/// strings they keep for reuse.
#[derive(Default)]
pub struct Tags {
    /// The tags, sorted by key, each key once.
    entries: Vec<(String, TagValue)>,
    /// Emptied strings of tags [`Tags::clear`] forgot, for the next keys and text values.
    spare: Vec<String>,
}

/// A tag: its key and value.
pub type Entry<'a> = (&'a String, &'a TagValue);

/// The tags in key order ([`Tags::iter`]).
pub type Iter<'a> = std::iter::Map<
    std::slice::Iter<'a, (String, TagValue)>,
    fn(&'a (String, TagValue)) -> Entry<'a>,
>;

impl Tags {
    /// The value tagged `key`.
    pub fn get(&self, key: &str) -> Option<&TagValue> {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    /// Whether some value is tagged `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// Tags `value` as `key`, replacing the value tagged so before, which is returned.
    pub fn insert(&mut self, key: &str, value: TagValue) -> Option<TagValue> {
        match self.find(key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                let key = self.text(key);
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// Tags the text `text` as `key`, held in a kept string when there is one that fits.
    pub fn insert_text(&mut self, key: &str, text: &str) {
        let value = TagValue::Text(self.text(text));
        if let Some(TagValue::Text(old)) = self.insert(key, value) {
            self.keep(old);
        }
    }

    /// The tags in key order.
    pub fn iter(&self) -> Iter<'_> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.entries.iter().map(|(k, _)| k)
    }

    /// How many tags there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is no tag.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets every tag. Their strings are kept, emptied, for the next tags, in place of those
    /// kept before (when there were tags): no more is kept than the last tagged map held. The
    /// list keeps its room too, so a map tagged like the last one does not allocate it again.
    pub fn clear(&mut self) {
        if self.entries.is_empty() {
            return;
        }
        self.spare.clear();
        let mut entries = std::mem::take(&mut self.entries);
        for (key, value) in entries.drain(..) {
            self.keep(key);
            if let TagValue::Text(text) = value {
                self.keep(text);
            }
        }
        self.entries = entries;
    }

    /// Where `key` is, or where it would go.
    fn find(&self, key: &str) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    /// `text` in the smallest kept string it fits in, else in a new one.
    fn text(&mut self, text: &str) -> String {
        let best = (self.spare.iter().enumerate())
            .filter(|(_, s)| s.capacity() >= text.len())
            .min_by_key(|(_, s)| s.capacity())
            .map(|(i, _)| i);
        let mut s = best.map_or_else(String::new, |i| self.spare.swap_remove(i));
        s.push_str(text);
        s
    }

    /// Keeps `s`, emptied, for a later key or text.
    fn keep(&mut self, mut s: String) {
        if s.capacity() > 0 {
            s.clear();
            self.spare.push(s);
        }
    }
}

impl Clone for Tags {
    /// The same tags; no kept strings.
    fn clone(&self) -> Self {
        Tags {
            entries: self.entries.clone(),
            spare: Vec::new(),
        }
    }
}

impl PartialEq for Tags {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl fmt::Debug for Tags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for Tags {
    /// As a map from key to value, in key order.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl std::ops::Index<&str> for Tags {
    type Output = TagValue;

    /// The value tagged `key`.
    ///
    /// # Panics
    /// When no value is tagged `key`.
    fn index(&self, key: &str) -> &TagValue {
        self.get(key).unwrap_or_else(|| panic!("no tag {key:?}"))
    }
}

impl<'a> IntoIterator for &'a Tags {
    type Item = Entry<'a>;
    type IntoIter = Iter<'a>;

    /// The tags in key order.
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> FromIterator<(&'a str, TagValue)> for Tags {
    /// The tags given; a key given twice keeps its last value.
    fn from_iter<I: IntoIterator<Item = (&'a str, TagValue)>>(tags: I) -> Self {
        let mut all = Tags::default();
        for (k, v) in tags {
            all.insert(k, v);
        }
        all
    }
}
