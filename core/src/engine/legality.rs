//! One card's deck-construction limits as the ruleset states them (`hooks.card_legality`):
//! what a deck builder shows and the card database export lists. The ruleset's
//! `validate_deck` stays the judge of whole decks.

use mlua::{Table, Value};
use serde::{Deserialize, Serialize};

/// What a deck's copies of a card are counted by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CountedBy {
    /// The card number: reprints under another number are another card.
    #[default]
    Id,
    /// The card's name: every card with that name counts.
    Name,
}

impl CountedBy {
    /// Its name, as the hook and the export write it.
    pub fn as_str(self) -> &'static str {
        match self {
            CountedBy::Id => "id",
            CountedBy::Name => "name",
        }
    }
}

/// One card's deck-construction limits.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardLegality {
    /// Most copies a deck may hold; None: any number.
    pub copies: Option<u32>,
    /// What the copies are counted by.
    pub by: CountedBy,
    /// On the banned list.
    pub banned: bool,
    /// The rule, for people.
    pub note: Option<String>,
}

impl CardLegality {
    /// Reads the hook's answer: `{copies = N, by = "id"|"name", banned = bool, note = "..."}`,
    /// every key optional; anything else is an error saying what is allowed.
    pub fn from_table(t: &Table) -> Result<CardLegality, String> {
        let mut out = CardLegality::default();
        for pair in t.pairs::<Value, Value>() {
            let (k, v) = pair.map_err(|e| e.to_string())?;
            let key = match &k {
                Value::String(s) => s.to_string_lossy(),
                other => {
                    return Err(format!(
                        "a key {other:?}: keys are copies, by, banned, note"
                    ));
                }
            };
            match (key.as_str(), v) {
                ("copies", Value::Integer(n)) if (0..=1_000_000).contains(&n) => {
                    out.copies = Some(n as u32)
                }
                ("copies", Value::Number(n)) if n.fract() == 0.0 && (0.0..=1e6).contains(&n) => {
                    out.copies = Some(n as u32)
                }
                ("copies", Value::Nil) => {}
                ("by", Value::String(s)) if s.to_string_lossy() == "id" => out.by = CountedBy::Id,
                ("by", Value::String(s)) if s.to_string_lossy() == "name" => {
                    out.by = CountedBy::Name
                }
                ("banned", Value::Boolean(b)) => out.banned = b,
                ("note", Value::String(s)) => out.note = Some(s.to_string_lossy()),
                ("copies", _) => return Err("`copies` must be a whole number from 0".into()),
                ("by", _) => return Err("`by` must be \"id\" or \"name\"".into()),
                ("banned", _) => return Err("`banned` must be true or false".into()),
                ("note", _) => return Err("`note` must be text".into()),
                (other, _) => {
                    return Err(format!(
                        "unknown key `{other}`: the answer has copies, by, banned, note"
                    ));
                }
            }
        }
        Ok(out)
    }
}
