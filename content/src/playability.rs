//! Whether a card plays as it is: no text to implement (vanilla), only keywords and data the
//! ruleset reads, a script, or text that still needs a script. `riffle coverage` counts cards
//! by it, the card database export lists it, the importer marks the last kind
//! (`needs_script: true`), and `riffle lint` reports unmarked cards of that kind.

use std::collections::{BTreeMap, BTreeSet};

use riffle_core::{CardDef, KeywordUse, Localized, RulesetManifest};
use serde::{Deserialize, Serialize};

use crate::card_fields::CardField;
use crate::keywords::{Spellings, says_something};

/// How a card plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Playability {
    /// No rules text and no keywords (reminder text aside).
    Vanilla,
    /// Its text is keywords (listed in `keywords`) and data the ruleset reads.
    Keywords,
    /// A script implements its text.
    Scripted,
    /// Its text needs a script it does not have (marked `needs_script`, or text beyond its
    /// keywords with no script).
    NeedsScript,
}

impl Playability {
    /// Whether a game can use the card as it is.
    pub fn playable(self) -> bool {
        self != Playability::NeedsScript
    }

    /// Its name as the export and `riffle coverage --format json` write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Playability::Vanilla => "vanilla",
            Playability::Keywords => "keywords",
            Playability::Scripted => "scripted",
            Playability::NeedsScript => "needs_script",
        }
    }
}

/// Judges cards of one game: how its texts write keywords, which language the rules read,
/// which fields carry rules text the ruleset implements, which hold an ability's text.
#[derive(Clone, Debug, Default)]
pub struct Judge {
    spellings: Spellings,
    printed: String,
    rules_text: BTreeSet<String>,
    ability_text: BTreeSet<String>,
}

impl Judge {
    /// The judge of a game: its manifest and its card fields.
    pub fn new(manifest: &RulesetManifest, fields: &[CardField]) -> Judge {
        Judge::from_parts(Spellings::of(manifest), &manifest.names.printed, fields)
    }

    /// A judge from the keyword spellings, the rules language and the card fields.
    pub fn from_parts(spellings: Spellings, printed: &str, fields: &[CardField]) -> Judge {
        Judge {
            spellings,
            printed: printed.to_string(),
            rules_text: fields
                .iter()
                .filter(|f| f.rules_text)
                .map(|f| f.name.clone())
                .collect(),
            ability_text: fields
                .iter()
                .filter(|f| f.ability_text)
                .map(|f| f.name.clone())
                .collect(),
        }
    }

    /// The keyword spellings.
    pub fn spellings(&self) -> &Spellings {
        &self.spellings
    }

    /// How `card` plays; `marked`: its file says `needs_script: true`.
    pub fn of(&self, card: &CardDef, marked: bool) -> Playability {
        if card.script.is_some() {
            return Playability::Scripted;
        }
        if marked {
            return Playability::NeedsScript;
        }
        let own = listed(&card.keywords);
        let carried = self.rules_text.iter().any(|f| card.fields.get(f).is_some());
        if self.unimplemented(card).is_some() {
            return Playability::NeedsScript;
        }
        if own.is_empty() && !carried {
            Playability::Vanilla
        } else {
            Playability::Keywords
        }
    }

    /// For a card without a script, the JSON pointer of the first text that says more than
    /// its keywords and reminder text (`/text/en`, or a field holding an ability's text, such
    /// as `/trigger/en`), unless a field the ruleset reads carries it. None when nothing
    /// needs a script (or the card has one).
    pub fn unimplemented(&self, card: &CardDef) -> Option<String> {
        if card.script.is_some() || self.rules_text.iter().any(|f| card.fields.get(f).is_some()) {
            return None;
        }
        let own = listed(&card.keywords);
        let mut texts: Vec<(&str, Localized)> = vec![("text", card.text.clone())];
        for f in &self.ability_text {
            if let Some(t) = card
                .fields
                .get(f)
                .and_then(|v| serde_json::from_value::<Localized>(v.clone()).ok())
            {
                texts.push((f, t));
            }
        }
        texts.into_iter().find_map(|(field, t)| {
            let lang = self.says_more(&t, &own)?;
            Some(format!("/{field}/{lang}"))
        })
    }

    /// Whether `text` says more than the keywords `own` and reminder text, read in the rules
    /// language (else its first): the language it was read in when it does. Without
    /// spellings for that language, a card with keywords is taken at its word.
    pub fn says_more(
        &self,
        text: &Localized,
        own: &BTreeMap<String, Option<i64>>,
    ) -> Option<String> {
        let main = text
            .get(&self.printed)
            .map(|t| (self.printed.as_str(), t.as_str()))
            .or_else(|| text.iter().next().map(|(l, t)| (l.as_str(), t.as_str())));
        let (lang, t) = main?;
        if !own.is_empty() && !self.spellings.knows(lang) {
            return None;
        }
        says_something(&self.spellings.rest(lang, t)).then(|| lang.to_string())
    }
}

/// A card's keywords: each name and its number, if valued.
pub fn listed(keywords: &[KeywordUse]) -> BTreeMap<String, Option<i64>> {
    keywords
        .iter()
        .map(|k| {
            let (n, v) = k.parts();
            let value = matches!(k, KeywordUse::Valued(_)).then_some(v);
            (n.to_string(), value)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use riffle_core::{KeywordDecl, PrintedFields, Source};

    fn judge() -> Judge {
        let blocker = KeywordDecl {
            name: "blocker".into(),
            valued: false,
            doc: String::new(),
            text: [("en".to_string(), "[Blocker]".to_string())]
                .into_iter()
                .collect(),
        };
        let spellings = Spellings::from_keywords(&[blocker]);
        let field = |name: &str, rules_text, ability_text| CardField {
            name: name.into(),
            kind: crate::card_fields::FieldKind::Localized,
            description: String::new(),
            values: Vec::new(),
            rules_text,
            ability_text,
        };
        Judge::from_parts(
            spellings,
            "en",
            &[
                field("deck_limit", true, false),
                field("trigger", false, true),
            ],
        )
    }

    fn card(text: &str, keywords: &[&str], fields: serde_json::Value) -> CardDef {
        CardDef {
            id: "X-1".into(),
            category: "unit".into(),
            name: [("en".to_string(), "X".to_string())].into_iter().collect(),
            text: if text.is_empty() {
                Localized::default()
            } else {
                [("en".to_string(), text.to_string())].into_iter().collect()
            },
            fields: serde_json::from_value::<PrintedFields>(fields).unwrap(),
            keywords: keywords
                .iter()
                .map(|k| KeywordUse::Plain(k.to_string()))
                .collect(),
            script: None,
        }
    }

    #[test]
    fn each_kind_of_card_is_told_apart() {
        let j = judge();
        let none = serde_json::json!({});
        assert_eq!(
            j.of(&card("", &[], none.clone()), false),
            Playability::Vanilla
        );
        assert_eq!(
            j.of(&card("(Reminder only.)", &[], none.clone()), false),
            Playability::Vanilla
        );
        assert_eq!(
            j.of(
                &card("[Blocker] (Rest it to block.)", &["blocker"], none.clone()),
                false
            ),
            Playability::Keywords
        );
        assert_eq!(
            j.of(
                &card("[Blocker]\nDraw 1 card.", &["blocker"], none.clone()),
                false
            ),
            Playability::NeedsScript
        );
        // The mark wins over a text that says nothing more.
        assert_eq!(
            j.of(&card("", &[], none.clone()), true),
            Playability::NeedsScript
        );
        // A field the ruleset reads carries the text.
        let limited = serde_json::json!({"deck_limit": 50});
        assert_eq!(
            j.of(&card("Any number of copies.", &[], limited), false),
            Playability::Keywords
        );
        // A field holding an ability's text needs a script as the card text does.
        let trigger = serde_json::json!({"trigger": {"en": "[Trigger] Draw 1 card."}});
        let with_trigger = card("", &[], trigger);
        assert_eq!(j.of(&with_trigger, false), Playability::NeedsScript);
        assert_eq!(
            j.unimplemented(&with_trigger).as_deref(),
            Some("/trigger/en")
        );
        let mut scripted = card("Draw 1 card.", &[], none);
        scripted.script = Some(Source {
            name: "x.lua".into(),
            text: "return {}".into(),
        });
        assert_eq!(j.of(&scripted, true), Playability::Scripted);
        assert!(Playability::Keywords.playable() && !Playability::NeedsScript.playable());
    }
}
