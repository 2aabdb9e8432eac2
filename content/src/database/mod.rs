//! The card database: one game's cards as clients load them (game UIs, deck builders,
//! servers, AIs), built from validated content and written as JSON or SQLite.
//!
//! The format is versioned ([`FORMAT_VERSION`]) and documented in `docs/clients.md`; its JSON
//! Schema (`schema/card-database.schema.json`) is generated from these types and the SQLite
//! DDL (`schema/card-database.sql`) is [`sqlite::DDL`], both checked by tests. A card's
//! identity (its card number) is separate from its printings; names and texts are per
//! language; the game's own fields are as its card schema declares them.
//!
//! ```no_run
//! use std::path::PathBuf;
//! let load = riffle_content::Loader::new(vec![PathBuf::from(".")])
//!     .load_game_with("onepiece", riffle_content::LoadOptions { records: true });
//! let game = load.into_result().expect("valid content");
//! let db = riffle_content::database::build(&game).expect("the ruleset compiles");
//! std::fs::write("onepiece.json", riffle_content::database::json::to_bytes(&db)).unwrap();
//! ```

mod build;
pub mod json;
mod output;
#[cfg(feature = "sqlite")]
pub mod sqlite;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use build::{BuildError, build, build_with};
pub use output::{Format, sha256_line, write};

/// The value of [`CardDatabase::format`].
pub const FORMAT: &str = "riffle-card-database";

/// The format's version. It changes when a client reading the previous version could
/// misread this one (a field removed, renamed or given another meaning); adding a field
/// keeps it.
pub const FORMAT_VERSION: u32 = 1;

/// A text per language tag (`en`, `ja`, `th`, `zh-Hant`...).
pub type Texts = BTreeMap<String, String>;

/// One game's card database.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Riffle card database")]
pub struct CardDatabase {
    /// Always `riffle-card-database`.
    pub format: String,
    /// The format's version (1). A client refuses a version it does not know.
    pub format_version: u32,
    /// The version of Riffle that wrote it.
    pub riffle_version: String,
    /// The content hash: BLAKE3 over every file the content was read from (the content
    /// manifest's). The same content always gives the same hash.
    pub content_hash: String,
    /// The game.
    pub game: GameEntry,
    /// Every language tag a name or text of the database is written in, sorted.
    pub languages: Vec<String>,
    /// The game's own card fields, as its card schema declares them.
    pub fields: Vec<FieldEntry>,
    /// The names the ruleset declares, with what they mean.
    pub names: Names,
    /// The sets, in load order (the base's first, then each mod's).
    pub sets: Vec<SetEntry>,
    /// The cards, by id.
    pub cards: Vec<CardEntry>,
}

/// The game a database is of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameEntry {
    /// Its id (`onepiece`).
    pub id: String,
    /// Its name, per language.
    pub name: Texts,
    /// The ruleset's version.
    pub version: String,
    /// The language the rules read card names in (`names.printed`).
    pub printed_language: String,
    /// Fewest players.
    pub min_players: u8,
    /// Most players.
    pub max_players: u8,
}

/// One of the game's own card fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldEntry {
    /// Its key in [`CardEntry::fields`].
    pub name: String,
    /// `integer`, `text`, `boolean`, `list`, `localized` (a text per language) or `object`.
    pub kind: String,
    /// What it is, with its rule.
    pub description: String,
    /// The values it may take, when the game lists them (for a list: its items').
    pub values: Vec<String>,
    /// The ruleset reads rules text from it: a card that has it needs no script for that.
    pub rules_text: bool,
    /// It holds the text of an ability of its own (listed in [`CardEntry::abilities`]).
    pub ability_text: bool,
}

/// A declared name and what it means.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NameEntry {
    /// The name, as scripts and the log use it.
    pub name: String,
    /// One line for people (empty when the ruleset gives none).
    pub doc: String,
}

/// A zone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneEntry {
    /// The zone's name.
    pub name: String,
    /// `player` (one each), `team` or `shared`.
    pub scope: String,
    /// `public`, `owner` or `hidden`.
    pub visibility: String,
    /// Whether its cards are in play.
    pub in_play: bool,
    /// Most cards it holds, when bounded.
    pub capacity: Option<u32>,
    /// What it is, with its rule.
    pub doc: String,
}

/// A keyword cards list as data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeywordEntry {
    /// Its name, as [`CardKeyword::name`] gives it.
    pub name: String,
    /// Whether it carries a number (`repair 2`).
    pub valued: bool,
    /// How card text writes it, per language; `{n}` stands for the number.
    pub text: Texts,
    /// What it does, with its rule.
    pub doc: String,
}

/// The names a ruleset declares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Names {
    /// Card categories (card types).
    pub categories: Vec<NameEntry>,
    /// Zones.
    pub zones: Vec<ZoneEntry>,
    /// Keywords.
    pub keywords: Vec<KeywordEntry>,
    /// Timings of activated abilities.
    pub timings: Vec<NameEntry>,
    /// The points at which effects end.
    pub durations: Vec<NameEntry>,
    /// The ruleset's events (what the log tells).
    pub events: Vec<NameEntry>,
    /// Characteristics (a card's current values).
    pub characteristics: Vec<NameEntry>,
    /// Counters cards may carry.
    pub counters: Vec<NameEntry>,
}

/// A set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetEntry {
    /// Its id (`OP01`).
    pub id: String,
    /// Its name, per language.
    pub name: Texts,
    /// Its version.
    pub version: String,
    /// Its description, per language.
    pub description: Texts,
    /// How many cards it defines.
    pub cards: u32,
}

/// A card: its identity, texts, fields and printings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardEntry {
    /// The card number: its identity, unique in the game.
    pub id: String,
    /// The set it is defined in.
    pub set: String,
    /// Its category (card type).
    pub category: String,
    /// Its printed name, per language.
    pub name: Texts,
    /// Its rules text, per language.
    pub text: Texts,
    /// The game's own fields ([`CardDatabase::fields`]) it has, by name, as printed.
    pub fields: BTreeMap<String, Value>,
    /// The keywords it has as data.
    pub keywords: Vec<CardKeyword>,
    /// Its abilities' texts, one per line of its rules text and of each ability field.
    pub abilities: Vec<AbilityEntry>,
    /// `vanilla`, `keywords` (keywords and data only), `scripted` or `needs_script` (its text
    /// is not implemented yet: games refuse decks that hold it).
    pub playability: String,
    /// Its deck limits, when the ruleset states them.
    pub legality: Option<LegalityEntry>,
    /// Official rulings about it.
    pub rulings: Vec<RulingEntry>,
    /// Its printings; at least one (a card whose files list none has one with its id).
    pub printings: Vec<PrintingEntry>,
}

/// A keyword a card has.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardKeyword {
    /// The keyword ([`Names::keywords`]).
    pub name: String,
    /// Its number, for a valued keyword.
    pub value: Option<i64>,
}

/// One ability's text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AbilityEntry {
    /// Where the text is: `text` (the card's rules text) or a field holding an ability's text
    /// (`trigger`).
    pub field: String,
    /// The text, per language: each language whose text has as many lines as the rules
    /// language's.
    pub text: Texts,
    /// The keywords this line gives the card.
    pub keywords: Vec<String>,
}

/// A card's deck limits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LegalityEntry {
    /// Most copies a deck may hold; null: any number.
    pub copies: Option<u32>,
    /// What copies are counted by: `id` (the card number) or `name`.
    pub by: String,
    /// On the banned list.
    pub banned: bool,
    /// The rule.
    pub note: Option<String>,
}

/// An official ruling.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulingEntry {
    /// Its reference (`Q119`).
    pub id: String,
    /// `YYYY-MM-DD`.
    pub date: Option<String>,
    /// The question, per language.
    pub question: Texts,
    /// The answer, per language.
    pub answer: Texts,
    /// Where it was published.
    pub source: Option<String>,
}

/// A printing of a card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrintingEntry {
    /// Its code (collector number), unique in the game.
    pub code: String,
    /// The set it was printed in.
    pub set: String,
    /// Its rarity as printed.
    pub rarity: Option<String>,
    /// An alternate art (a parallel) rather than the regular printing.
    pub alternate: bool,
    /// Its artwork: a file name or an artist credit.
    pub art: Option<String>,
    /// The product it came in, when not a set of its own.
    pub product: Option<String>,
    /// Its image key (a file name or address clients resolve).
    pub image: Option<String>,
}

impl CardDatabase {
    /// Every id the database gives (sets, cards, printings), one per line as
    /// `set ID`, `card ID`, `printing CODE`: what the stable-id test compares.
    pub fn ids(&self) -> Vec<String> {
        let mut out: Vec<String> = self.sets.iter().map(|s| format!("set {}", s.id)).collect();
        for c in &self.cards {
            out.push(format!("card {}", c.id));
            out.extend(c.printings.iter().map(|p| format!("printing {}", p.code)));
        }
        out
    }

    /// A card by id.
    pub fn card(&self, id: &str) -> Option<&CardEntry> {
        self.cards
            .binary_search_by(|c| c.id.as_str().cmp(id))
            .ok()
            .map(|i| &self.cards[i])
    }
}
