//! The event log: every event and every decision, in order, with a running hash.
//!
//! Same content + seed + responses ⇒ the same entries and the same hash, on any machine: the
//! hash covers the JSON text of each entry.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::decisions::{Request, Response};
use crate::events::Event;
use crate::state::PlayerId;

/// One log entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// Something happened.
    Event(Event),
    /// A player was asked something and answered.
    Decision {
        /// Who answered.
        player: PlayerId,
        /// What was asked.
        request: Request,
        /// The answer.
        response: Response,
    },
    /// A script failed; the kernel abandoned that procedure and went on.
    ScriptError {
        /// What failed, with card, file and line.
        message: String,
    },
}

/// The log: shared between forks until one of them writes.
#[derive(Clone, Debug)]
pub struct Log {
    entries: Arc<Vec<Entry>>,
    hasher: blake3::Hasher,
    /// Keep entries (true) or only the hash (false, for fast random playouts).
    pub keep: bool,
}

impl Default for Log {
    fn default() -> Self {
        Log {
            entries: Arc::default(),
            hasher: blake3::Hasher::new(),
            keep: true,
        }
    }
}

impl Log {
    /// Appends an entry and folds it into the hash.
    pub fn push(&mut self, e: Entry) {
        // Stream the JSON straight into the hasher: no intermediate string.
        let _ = serde_json::to_writer(&mut self.hasher, &e);
        self.hasher.update(b"\n");
        if self.keep {
            Arc::make_mut(&mut self.entries).push(e);
        }
    }

    /// All entries so far.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The hash of every entry so far, as hex.
    pub fn hash(&self) -> String {
        self.hasher.finalize().to_hex().to_string()
    }
}
