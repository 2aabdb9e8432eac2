//! Riffle's content library: reads a game's ruleset, sets, cards and deck lists from ordered
//! search paths, checks them (YAML with positions → JSON Schema → typed structs → cross-file
//! checks) and builds the kernel's [`riffle_core::Content`].
//!
//! A client (a game UI, a deck builder, a server, an AI) depends on this crate and on
//! `riffle-core`, never on the `riffle` command-line tool: nothing here prints, reads a
//! terminal or exits. Every problem is a [`Diagnostic`] with a file, line and column; loading
//! never stops at the first one. See `docs/content.md` and `docs/clients.md`.
//!
//! ```no_run
//! use std::path::PathBuf;
//! let load = riffle_content::load_game(&[PathBuf::from(".")], "onepiece");
//! for d in &load.diagnostics {
//!     eprintln!("{d}");
//! }
//! let game = load.into_result().expect("valid content");
//! println!("{} cards, content hash {}", game.content.cards.len(), game.manifest.hash);
//! ```
#![warn(missing_docs)]

pub mod card_fields;
pub mod database;
pub mod diagnostic;
pub mod files;
pub mod import;
pub mod keywords;
mod loader;
pub mod manifest;
pub mod playability;
pub mod read;
pub mod readable;
pub mod replay;
pub mod scenario;
pub mod schema;
pub mod setup;
pub use riffle_core::suggest;
pub mod write;
pub mod yaml;

pub use diagnostic::{Diagnostic, Related, Severity};
pub use files::{CardFile, DeckFile, Printing, Ruling, SetFile};
pub use loader::{
    CardInfo, CardRecord, CardReload, Deck, GameLoad, LoadFailure, LoadOptions, LoadedGame, Loader,
    SetInfo, card_version, clean_path, find_root, lines_of_code, load_deck_file, load_game,
};
pub use manifest::{ContentManifest, FileHash, SetVersion};
