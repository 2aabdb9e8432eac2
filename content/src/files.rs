//! The content files' types: set manifests, cards and deck lists.
//!
//! These are the source of `schema/set.schema.json`, `schema/card.schema.json` and
//! `schema/deck.schema.json` (schemars): every field's doc comment becomes its description.

use std::collections::BTreeMap;

use riffle_core::{KeywordUse, Localized, PrintedFields};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

/// Most copies of one card a deck list may give. Every copy is an object made when a game
/// starts, so counts are bounded where they are read, not when memory runs out.
pub const MAX_COPIES: u32 = 1000;

/// Most cards one section of a deck list may hold, all card ids together.
pub const MAX_SECTION_CARDS: u32 = 1000;

pub use riffle_core::content::LANGUAGE_TAG_PATTERN;

/// The form of a set id and a card id: letters, digits, `-` and `_`, not starting with `-`,
/// at most 64 characters. Ids name files (`riffle new card` writes `<id>.yaml`) and go into
/// databases, so nothing that could climb out of a folder (`../`, `/`) is one.
pub const ID_PATTERN: &str = "^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$";

/// `set.yaml`: a set of cards (a folder under `cardsets/<game>/`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Riffle set manifest (set.yaml)")]
pub struct SetFile {
    /// The game this set belongs to; must be the name of the folder above the set's folder.
    pub game: String,
    /// The set's code, unique per game (`RF01`): letters, digits, `-` and `_`.
    #[schemars(pattern(ID_PATTERN))]
    pub id: String,
    /// The set's display name, localized; `en` is required.
    #[schemars(schema_with = "localized_with_en")]
    pub name: Localized,
    /// The set's version; part of the content manifest.
    pub version: String,
    /// A description for people, localized.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "optional_localized")]
    pub description: Option<Localized>,
    /// Card ids this set deliberately replaces from an earlier search path (a mod's
    /// overrides). Replacing a card without listing it here is an error.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overrides: Vec<String>,
    /// Lua files this set's cards share (helpers, filters, names), run in this order after
    /// the ruleset's own files. Paths are relative to the set's folder and stay inside the
    /// search path (`lib/helpers.lua`, or `../other-set/lib/helpers.lua` to share one file
    /// between sets). What they define is seen by this set's cards only; they read the
    /// ruleset's names but cannot change or redefine them (docs/content.md, "A set's shared
    /// Lua").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scripts: Vec<String>,
}

/// One card: `<card>.yaml` in a set folder. Fields other than the ones listed here are the
/// game's printed fields (`cost`, `power`, `colors`...), checked by the game's own schema
/// `schema/<game>/card.schema.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Riffle card")]
pub struct CardFile {
    /// The card number: the card's identity, unique per game (`RF01-001`): letters, digits,
    /// `-` and `_`. Reprints and alternate arts are `printings` of the same id.
    #[schemars(pattern(ID_PATTERN))]
    pub id: String,
    /// The card's category (card type): one of the ruleset's `categories`.
    pub category: String,
    /// The printed name, localized (`en`, `ja`, `th`, `zh-Hant`...): at least one language.
    /// The name in the ruleset's printed language (game.yaml `names.printed`, default `en`)
    /// is required: it is the card's name for the rules; the others are for display.
    #[schemars(schema_with = "localized_names")]
    pub name: Localized,
    /// The printed text, localized. For people: the script is what runs.
    #[serde(default, skip_serializing_if = "Localized::is_empty")]
    #[schemars(schema_with = "localized")]
    pub text: Localized,
    /// Plain keywords declared by the ruleset: `blocker`, or with a value `{repair: 2}`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<KeywordUse>,
    /// The card's Lua script, relative to this file. Default: the `.lua` file with the same
    /// name next to it, if there is one. A card with nothing but keywords needs no script.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// The card's printings (reprints, alternate arts). Identity stays `id`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub printings: Vec<Printing>,
    /// The card's text needs a script nobody has written yet (an imported card, a card being
    /// designed). It validates; `riffle coverage` counts it as needing a script; `riffle play`
    /// refuses a deck that holds it. Remove the mark once its script exists.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub needs_script: bool,
    /// Official rulings (questions and answers) about this card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rulings: Vec<Ruling>,
    /// Game-specific printed fields, checked by `schema/<game>/card.schema.json`.
    #[serde(flatten)]
    pub fields: PrintedFields,
}

/// One printing of a card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Printing {
    /// The printing's code (collector number), unique per game (`RF01-001-P1`).
    pub code: String,
    /// Its rarity as printed (`C`, `R`, `SR`...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rarity: Option<String>,
    /// Its artwork: a file name or an artist credit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub art: Option<String>,
    /// The set id it was printed in, when not the card's own set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<String>,
    /// An alternate art (a parallel, a full art) rather than the card's regular printing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub alternate: bool,
    /// The product it came in when that is not a set of its own (a promotion, a gift box),
    /// as the publisher names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product: Option<String>,
    /// Its image: a key (file name or address) clients resolve; Riffle ships no images.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
}

/// An official ruling about a card: a question and its answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ruling {
    /// Its reference as published (`Q119`), unique per card.
    pub id: String,
    /// When it was published, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^\d{4}-\d{2}-\d{2}$"))]
    pub date: Option<String>,
    /// The question, localized.
    #[schemars(schema_with = "localized_names")]
    pub question: Localized,
    /// The answer, localized.
    #[schemars(schema_with = "localized_names")]
    pub answer: Localized,
    /// Where it was published (an address).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// A deck list: `cardsets/<game>/decks/<deck>.yaml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Riffle deck list")]
pub struct DeckFile {
    /// The game this deck is for; must be the game folder it sits in.
    pub game: String,
    /// The deck's name, localized.
    #[schemars(schema_with = "localized")]
    pub name: Localized,
    /// A description for people, localized.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "optional_localized")]
    pub description: Option<Localized>,
    /// Section name (one of the ruleset's `deck.sections`) → card id → number of copies
    /// (1 to 1000; a section holds at most 1000 cards).
    #[schemars(schema_with = "deck_sections")]
    pub sections: BTreeMap<String, BTreeMap<String, u32>>,
}

fn localized(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "object",
        "description": "A text per language tag (`en`, `ja`, `th`, `zh-Hant`...).",
        "propertyNames": { "pattern": LANGUAGE_TAG_PATTERN },
        "additionalProperties": { "type": "string" }
    })
}

fn optional_localized(g: &mut SchemaGenerator) -> Schema {
    localized(g)
}

fn localized_with_en(g: &mut SchemaGenerator) -> Schema {
    let mut s = localized(g);
    s.insert("required".into(), serde_json::json!(["en"]));
    s.insert("minProperties".into(), serde_json::json!(1));
    s
}

fn localized_names(g: &mut SchemaGenerator) -> Schema {
    let mut s = localized(g);
    s.insert("minProperties".into(), serde_json::json!(1));
    s
}

fn deck_sections(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "description": "Card id → number of copies.",
            "additionalProperties": { "type": "integer", "minimum": 1, "maximum": MAX_COPIES }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_keeps_game_fields_apart() {
        let v = serde_json::json!({
            "id": "X-1", "category": "character", "name": {"en": "A"},
            "keywords": ["blocker", {"repair": 2}], "cost": 3, "colors": ["red"]
        });
        let c: CardFile = serde_json::from_value(v).unwrap();
        assert_eq!(c.fields.len(), 2);
        assert_eq!(c.fields["cost"], 3);
        assert_eq!(c.keywords[1].parts(), ("repair", 2));
        assert!(c.text.is_empty() && c.script.is_none() && c.printings.is_empty());
        assert!(!c.needs_script && c.rulings.is_empty());
        // The common fields written back are the ones given: no `needs_script: false`.
        let back = serde_json::to_value(&c).unwrap();
        assert!(back.get("needs_script").is_none() && back.get("rulings").is_none());
    }
}
