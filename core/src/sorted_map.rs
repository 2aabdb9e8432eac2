//! A map from names to values kept as one sorted vector: what a card's localized texts and
//! printed fields are. Most hold one to ten entries, and a database holds tens of
//! thousands of cards: a `BTreeMap` node costs about 550 bytes even for one entry, this
//! costs the entries themselves. Lookups are a binary search; the API is the part of
//! `BTreeMap`'s that content code uses, and the YAML/JSON form and schema are a map's.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A map with `String` keys in sorted order, stored as one exactly sized vector.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SortedMap<V> {
    entries: Vec<(String, V)>,
}

impl<V> Default for SortedMap<V> {
    fn default() -> Self {
        SortedMap {
            entries: Vec::new(),
        }
    }
}

impl<V> SortedMap<V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    /// The value of `key`, to change.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    /// Whether `key` has a value.
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`; returns the value it had.
    pub fn insert(&mut self, key: String, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// Takes `key` out; returns its value.
    pub fn remove(&mut self, key: &str) -> Option<V> {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&String, &V)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &String> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The entry with the smallest key.
    pub fn first_key_value(&self) -> Option<(&String, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    /// From entries in any order; of two with the same key, the later one stays (as a
    /// `BTreeMap` built from them would have it).
    fn from_entries(mut entries: Vec<(String, V)>) -> Self {
        // Stable: equal keys keep their order, and the last of each run is the one kept.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(String, V)> = Vec::with_capacity(entries.len());
        for e in entries {
            match out.last_mut() {
                Some(last) if last.0 == e.0 => *last = e,
                _ => out.push(e),
            }
        }
        out.shrink_to_fit();
        SortedMap { entries: out }
    }
}

impl<V: fmt::Debug> fmt::Debug for SortedMap<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V> std::ops::Index<&str> for SortedMap<V> {
    type Output = V;

    fn index(&self, key: &str) -> &V {
        self.get(key)
            .unwrap_or_else(|| panic!("no entry '{key}' in the map"))
    }
}

impl<K: Into<String>, V> FromIterator<(K, V)> for SortedMap<V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Self::from_entries(iter.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl<K: Into<String>, V, const N: usize> From<[(K, V); N]> for SortedMap<V> {
    fn from(entries: [(K, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl<V> From<BTreeMap<String, V>> for SortedMap<V> {
    fn from(map: BTreeMap<String, V>) -> Self {
        SortedMap {
            entries: map.into_iter().collect(),
        }
    }
}

impl<V> IntoIterator for SortedMap<V> {
    type Item = (String, V);
    type IntoIter = std::vec::IntoIter<(String, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a, V> IntoIterator for &'a SortedMap<V> {
    type Item = (&'a String, &'a V);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, V)>,
        fn(&'a (String, V)) -> (&'a String, &'a V),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<V: Serialize> Serialize for SortedMap<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for SortedMap<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries<V>(PhantomData<V>);

        impl<'de, V: Deserialize<'de>> Visitor<'de> for Entries<V> {
            type Value = SortedMap<V>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::with_capacity(access.size_hint().unwrap_or(0).min(64));
                while let Some(entry) = access.next_entry::<String, V>()? {
                    entries.push(entry);
                }
                Ok(SortedMap::from_entries(entries))
            }
        }

        deserializer.deserialize_map(Entries(PhantomData))
    }
}

impl<V: JsonSchema> JsonSchema for SortedMap<V> {
    fn inline_schema() -> bool {
        <BTreeMap<String, V>>::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        <BTreeMap<String, V>>::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        <BTreeMap<String, V>>::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <BTreeMap<String, V>>::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_keys_sorted_and_the_last_of_equal_keys() {
        let m: SortedMap<i32> = [("b", 1), ("a", 2), ("b", 3)].into();
        assert_eq!(m.keys().map(String::as_str).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(m.get("b"), Some(&3), "as a BTreeMap built from them");
        assert_eq!(m.get("c"), None);
    }

    #[test]
    fn insert_and_remove_keep_the_order() {
        let mut m = SortedMap::new();
        for k in ["th", "en", "ja"] {
            assert_eq!(m.insert(k.to_string(), k.len()), None);
        }
        assert_eq!(m.insert("en".into(), 7), Some(2));
        assert_eq!(m.remove("ja"), Some(2));
        let pairs: Vec<(&String, &usize)> = m.iter().collect();
        assert_eq!(pairs, [(&"en".to_string(), &7), (&"th".to_string(), &2)]);
    }

    #[test]
    fn reads_and_writes_as_a_map_with_the_same_schema() {
        let m: SortedMap<String> = serde_json::from_str(r#"{"th": "ก", "en": "A"}"#).unwrap();
        assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"en":"A","th":"ก"}"#);
        assert!(serde_json::from_str::<SortedMap<String>>("[1]").is_err());
        let ours = schemars::schema_for!(SortedMap<String>);
        let btree = schemars::schema_for!(BTreeMap<String, String>);
        assert_eq!(ours, btree);
    }

    #[test]
    fn holds_no_spare_capacity_once_read() {
        let m: SortedMap<i64> = serde_json::from_str(r#"{"a": 1, "b": 2, "c": 3}"#).unwrap();
        assert_eq!(m.entries.capacity(), 3);
    }
}
