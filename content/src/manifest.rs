//! The content manifest: what a game or replay ran on, pinned by hashes.

use serde::{Deserialize, Serialize};

/// A set and its version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetVersion {
    /// The set's id (`RF01`).
    pub id: String,
    /// Its `version` from `set.yaml`.
    pub version: String,
}

/// One file that was read, and the blake3 hash of its bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileHash {
    /// The path relative to its search path, with `/` separators.
    pub path: String,
    /// The blake3 hash of the file's bytes (hex in JSON; kept as its 32 bytes: a manifest
    /// lists every file, 20,000 of them for 10,000 cards).
    #[serde(with = "hex_hash")]
    pub hash: blake3::Hash,
}

/// A blake3 hash written as its 64 hex digits.
mod hex_hash {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(h: &blake3::Hash, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(h.to_hex().as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<blake3::Hash, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        blake3::Hash::from_hex(text.as_bytes()).map_err(serde::de::Error::custom)
    }
}

/// What a game was loaded from: the game, its sets and versions, and the hash of every file
/// read (ruleset, helpers, the game's card schema, sets, cards, scripts, decks).
///
/// `hash` covers the game id and every file's path and hash, in order: search paths in
/// order, files sorted by path within each. It does not depend on where the search paths
/// are on disk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContentManifest {
    /// The game's id.
    pub game: String,
    /// The sets loaded, in load order.
    pub sets: Vec<SetVersion>,
    /// Every file read.
    pub files: Vec<FileHash>,
    /// The hash over all of the above (hex).
    pub hash: String,
}

/// A file read during loading: which search path, the path inside it, its bytes' hash.
#[derive(Clone, Debug)]
pub(crate) struct FileRecord {
    pub root: usize,
    pub rel: String,
    pub hash: blake3::Hash,
}

impl ContentManifest {
    pub(crate) fn build(game: &str, sets: Vec<SetVersion>, mut files: Vec<FileRecord>) -> Self {
        files.sort_by(|a, b| (a.root, &a.rel).cmp(&(b.root, &b.rel)));
        files.dedup_by(|a, b| a.root == b.root && a.rel == b.rel);
        let mut h = blake3::Hasher::new();
        h.update(b"riffle-content-manifest-v1\0");
        h.update(game.as_bytes());
        h.update(b"\0");
        let mut last_root = 0;
        for f in &files {
            if f.root != last_root {
                // Mark the start of each later search path so that moving a file between
                // search paths changes the hash.
                h.update(format!("\x01root {}\0", f.root).as_bytes());
                last_root = f.root;
            }
            h.update(f.rel.as_bytes());
            h.update(b"\0");
            h.update(f.hash.as_bytes());
        }
        ContentManifest {
            game: game.to_string(),
            sets,
            files: files
                .iter()
                .map(|f| FileHash {
                    path: f.rel.clone(),
                    hash: f.hash,
                })
                .collect(),
            hash: h.finalize().to_hex().to_string(),
        }
    }
}
