//! The content pipeline: reads a game's ruleset, sets, cards and deck lists from ordered
//! search paths, checks them (YAML with positions → JSON Schema → typed structs → cross-file
//! checks) and builds the kernel's [`riffle_core::Content`].
//!
//! Every problem is a [`Diagnostic`] with a file, line and column; loading never stops at
//! the first one. See `docs/content.md`.
//!
//! ```no_run
//! use std::path::PathBuf;
//! let load = riffle::content::load_game(&[PathBuf::from(".")], "onepiece");
//! for d in &load.diagnostics {
//!     eprintln!("{d}");
//! }
//! let game = load.into_result().expect("valid content");
//! println!("{} cards, content hash {}", game.content.cards.len(), game.manifest.hash);
//! ```

pub mod diagnostic;
pub mod files;
mod loader;
pub mod manifest;
pub mod render;
pub mod schema;
pub use riffle_core::suggest;
pub mod yaml;

pub use diagnostic::{Diagnostic, Related, Severity};
pub use files::{CardFile, DeckFile, Printing, SetFile};
pub use loader::{
    CardInfo, CardReload, Deck, GameLoad, LoadedGame, Loader, SetInfo, card_version, clean_path,
    find_root, lines_of_code, load_deck_file, load_game,
};
pub use manifest::{ContentManifest, FileHash, SetVersion};
