//! Importing the real cards of a game from public datasets into content files: a reader per
//! dataset turns its files into [`Dataset`] (cards merged across languages, printings, sets),
//! [`prepare`] gives each card the keywords its text declares and marks the cards whose text
//! still needs a script, and [`apply`] writes the content folder, merging with what a
//! previous import and people wrote (docs/import.md).
//!
//! A reader reads everything before anything is written: bad input (malformed JSON, a
//! missing field, an unknown category, duplicate ids, a file too large) is a [`Diagnostic`]
//! at its `file:line:col`, and nothing is written.

mod apply;
pub mod emit;
pub mod gcg_api;
pub mod punk_records;
pub mod text;

use std::path::{Path, PathBuf};

use riffle_core::{CardDef, KeywordUse, Localized, PrintedFields, RulesetManifest};
use serde_json::{Map, Value};

use crate::card_fields::CardField;
use crate::diagnostic::Diagnostic;
use crate::playability::{Judge, Playability};
use crate::yaml::Pos;

pub use apply::{Applied, Change, ChangeKind, LOCK_FILE, apply, plan};

/// Most bytes one input file may have: the real datasets' largest file is under 2 MB.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Most bytes one line of a one-object-a-line file may have.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// Most printings one dataset may hold.
pub const MAX_PRINTINGS: usize = 200_000;

/// The datasets Riffle reads, by the name `riffle import --from` takes.
pub const SOURCES: &[(&str, &str)] = &[("punk-records", "onepiece"), ("gcg-api", "gundam")];

/// A set, as the dataset names it.
#[derive(Clone, Debug, PartialEq)]
pub struct DataSet {
    /// The set's id (its folder's name too).
    pub id: String,
    /// Its name, per language (`en` always).
    pub name: Localized,
    /// Its description, per language (the product's full title).
    pub description: Option<Localized>,
}

/// A card, merged across languages: its file's fields as a JSON object.
#[derive(Clone, Debug, PartialEq)]
pub struct DataCard {
    /// Its card number.
    pub id: String,
    /// The set it goes in.
    pub set: String,
    /// The card file's fields (`id`, `category`, `name`, `text`, game fields, `printings`,
    /// `rulings`), in the order they are written.
    pub fields: Map<String, Value>,
}

/// What a dataset holds for one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    /// The game.
    pub game: String,
    /// The dataset's name (`punk-records`).
    pub source: String,
    /// The version the sets get: the dataset's own (its date or commit), so that importing
    /// the same dataset twice gives the same content.
    pub version: String,
    /// The sets, sorted by id.
    pub sets: Vec<DataSet>,
    /// The cards, sorted by id.
    pub cards: Vec<DataCard>,
    /// What is worth telling about the input (a language skipped, cards left out and why).
    pub notes: Vec<String>,
}

/// The order card files list their fields in (the rest follow, as the reader gave them).
pub const FIELD_ORDER: &[&str] = &["id", "category", "name", "text", "keywords", "needs_script"];

/// The order last: printings and rulings after the game's fields.
pub const FIELD_ORDER_LAST: &[&str] = &["printings", "rulings"];

/// Gives each card the keywords its text gives it (a line that starts with a keyword's
/// spelling, as `riffle lint` reads them) and marks `needs_script: true` each card whose text
/// says more than that, unless `has_script(id, set)` (a script a person wrote). Returns how
/// many cards play as they are and how many need a script.
pub fn prepare(
    data: &mut Dataset,
    manifest: &RulesetManifest,
    fields: &[CardField],
    has_script: impl Fn(&str, &str) -> bool,
) -> (usize, usize) {
    let judge = Judge::new(manifest, fields);
    let printed = manifest.names.printed.as_str();
    let (mut playable, mut needs) = (0, 0);
    for card in &mut data.cards {
        let text: Localized = card
            .fields
            .get("text")
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default();
        let mut keywords: Vec<Value> = Vec::new();
        if let Some(t) = text.get(printed) {
            for claim in judge.spellings().claims(printed, t) {
                let entry = match claim.value {
                    Some(n) => serde_json::json!({ claim.keyword.clone(): n }),
                    None => Value::String(claim.keyword.clone()),
                };
                if !keywords.contains(&entry) {
                    keywords.push(entry);
                }
            }
        }
        if keywords.is_empty() {
            card.fields.remove("keywords");
        } else {
            card.fields
                .insert("keywords".into(), Value::Array(keywords));
        }
        card.fields.remove("needs_script");
        let def = card_def(card);
        let judged = if has_script(&card.id, &card.set) {
            Playability::Scripted
        } else {
            judge.of(&def, false)
        };
        if judged == Playability::NeedsScript {
            card.fields.insert("needs_script".into(), Value::Bool(true));
            needs += 1;
        } else {
            playable += 1;
        }
    }
    (playable, needs)
}

/// The kernel's view of an imported card (what [`Judge`] reads).
fn card_def(card: &DataCard) -> CardDef {
    let get_loc = |k: &str| -> Localized {
        card.fields
            .get(k)
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default()
    };
    let keywords: Vec<KeywordUse> = card
        .fields
        .get("keywords")
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default();
    let mut game_fields = PrintedFields::default();
    for (k, v) in &card.fields {
        if !crate::card_fields::COMMON_FIELDS.contains(&k.as_str()) {
            game_fields.insert(k.clone(), v.clone());
        }
    }
    CardDef {
        id: card.id.clone(),
        category: card
            .fields
            .get("category")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        name: get_loc("name"),
        text: get_loc("text"),
        fields: game_fields,
        keywords,
        script: None,
    }
}

/// An input problem at a file's line and column.
pub(crate) fn problem(path: &Path, pos: Pos, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(path, pos, message)
}

/// Reads a whole input file, refusing what is not a regular file or is larger than
/// [`MAX_FILE_BYTES`].
pub(crate) fn read_bounded(path: &Path) -> Result<String, Box<Diagnostic>> {
    let meta = std::fs::metadata(path)
        .map_err(|e| Box::new(problem(path, Pos::START, format!("cannot read it: {e}"))))?;
    if !meta.is_file() {
        return Err(Box::new(problem(
            path,
            Pos::START,
            "not a regular file: give the dataset's file",
        )));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(Box::new(problem(
            path,
            Pos::START,
            format!(
                "{} bytes: larger than the {} MiB an input file may have; is it the right file?",
                meta.len(),
                MAX_FILE_BYTES / 1024 / 1024
            ),
        )));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| Box::new(problem(path, Pos::START, format!("cannot read it: {e}"))))?;
    String::from_utf8(bytes).map_err(|e| {
        Box::new(problem(
            path,
            Pos::START,
            format!(
                "not UTF-8 text (byte {}): is it the dataset's file?",
                e.utf8_error().valid_up_to()
            ),
        ))
    })
}

/// The line and column (from 1, columns in characters) of byte `offset` of `text`.
pub(crate) fn pos_at(text: &str, offset: usize) -> Pos {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Pos {
        line: line as u32,
        col: col as u32,
    }
}

/// A serde_json error inside `slice` (a part of `text` starting at byte `start`) as a
/// position in `text`.
pub(crate) fn json_error_pos(text: &str, start: usize, e: &serde_json::Error) -> Pos {
    let slice_start = pos_at(text, start);
    if e.line() == 0 {
        return slice_start;
    }
    if e.line() == 1 {
        Pos {
            line: slice_start.line,
            col: slice_start.col + e.column().saturating_sub(1) as u32,
        }
    } else {
        Pos {
            line: slice_start.line + e.line() as u32 - 1,
            col: e.column().max(1) as u32,
        }
    }
}

/// `name` as a localized text in one language.
pub(crate) fn one(lang: &str, text: impl Into<String>) -> Localized {
    let mut l = Localized::default();
    l.insert(lang.to_string(), text.into());
    l
}

/// The set id of a card number: the part before its last `-` (`OP01-001` → `OP01`,
/// `P-001` → `P`), or None when it has none.
pub fn set_of_card(id: &str) -> Option<&str> {
    id.rsplit_once('-')
        .map(|(set, _)| set)
        .filter(|s| !s.is_empty())
}

/// Whether `id` may be a card or printing id and a file name: letters, digits, `-` and `_`,
/// 1 to 64 of them.
pub fn is_safe_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && !id.starts_with('-')
}

/// The content folder of an import's game under `into`: `into/cardsets/<game>`.
pub fn game_dir(into: &Path, game: &str) -> PathBuf {
    into.join("cardsets").join(game)
}
