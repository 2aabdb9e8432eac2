//! The event log: every event and every decision, in order, with a running hash.
//!
//! Same content + seed + responses ⇒ the same entries and the same hash, on any machine: the
//! hash covers a fixed binary form of each entry (`digest.rs`).
//!
//! Beside each entry the log keeps who may see the cards it names, fixed when the entry was
//! written (`views.rs` decides). It is not hashed: `Game::events_for` reads it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::digest::Digest;
use crate::state::decisions::{Request, Response};
use crate::state::events::Event;
use crate::state::{ObjId, PlayerId};

/// Who may see the identity of each card object an entry names: the object and a bit mask of
/// players (bit `p` = seat `p`). A card the entry names but this list lacks is hidden from all.
pub type Seen = Vec<(ObjId, u32)>;

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
    /// A hot reload reached the game: from here on the card plays as its new version (or,
    /// removed, new games cannot use it; this game keeps the version it has).
    CardReloaded {
        /// The card's id.
        card: String,
        /// Its new version (a content hash of its files; empty when removed).
        version: String,
        /// Its files were deleted.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        removed: bool,
    },
}

/// The log: shared between forks until one of them writes.
#[derive(Clone)]
pub struct Log {
    entries: Arc<Vec<Entry>>,
    /// One `Seen` per entry (not hashed).
    seen: Arc<Vec<Seen>>,
    hasher: xxhash_rust::xxh3::Xxh3,
    /// Scratch space for an entry's binary form (empty between pushes).
    scratch: Vec<u8>,
    /// Keep entries (true) or only the hash (false, for fast random playouts).
    pub keep: bool,
}

impl std::fmt::Debug for Log {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Log")
            .field("entries", &self.entries)
            .field("hash", &self.hash())
            .field("keep", &self.keep)
            .finish()
    }
}

impl Default for Log {
    fn default() -> Self {
        Log {
            entries: Arc::default(),
            seen: Arc::default(),
            hasher: xxhash_rust::xxh3::Xxh3::new(),
            scratch: Vec::new(),
            keep: true,
        }
    }
}

impl Log {
    /// Appends an entry and folds it into the hash.
    pub fn push(&mut self, e: Entry) {
        self.push_seen(e, Seen::new());
    }

    /// Appends an entry with who may see the cards it names.
    pub fn push_seen(&mut self, e: Entry, seen: Seen) {
        e.digest(&mut self.scratch);
        self.fold_scratch();
        if self.keep {
            Arc::make_mut(&mut self.entries).push(e);
            Arc::make_mut(&mut self.seen).push(seen);
        }
    }

    /// Appends an event with who may see the cards it names. Like a decision, the entry is
    /// copied only when the log keeps entries: otherwise the hash is folded from the borrow.
    pub fn push_event(&mut self, e: &Event, seen: Seen) {
        if self.keep {
            self.push_seen(Entry::Event(e.clone()), seen);
            return;
        }
        super::digest::event(&mut self.scratch, e);
        self.fold_scratch();
    }

    /// Appends a player's decision. The entry is made only when the log keeps entries:
    /// otherwise the hash is folded from the borrowed parts (no copy of the request).
    pub fn push_decision(
        &mut self,
        player: PlayerId,
        request: &Request,
        response: &Response,
        seen: Seen,
    ) {
        if self.keep {
            let e = Entry::Decision {
                player,
                request: request.clone(),
                response: response.clone(),
            };
            self.push_seen(e, seen);
            return;
        }
        super::digest::decision(&mut self.scratch, &player, request, response);
        self.fold_scratch();
    }

    /// Folds the entry in the scratch space into the hash, length first.
    fn fold_scratch(&mut self) {
        self.hasher
            .update(&(self.scratch.len() as u32).to_le_bytes());
        self.hasher.update(&self.scratch);
        self.scratch.clear();
    }

    /// All entries so far.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Who may see the cards of each entry (parallel to `entries`).
    pub fn seen(&self) -> &[Seen] {
        &self.seen
    }

    /// The hash of every entry so far, as hex.
    pub fn hash(&self) -> String {
        format!("{:032x}", self.hasher.digest128())
    }
}
