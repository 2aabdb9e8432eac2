//! Building a [`CardDatabase`] from a game's validated content and its compiled engine.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use riffle_core::{CardDef, Engine, Localized, Options, RulesetManifest};

use super::{
    AbilityEntry, CardDatabase, CardEntry, CardKeyword, FORMAT, FORMAT_VERSION, FieldEntry,
    GameEntry, KeywordEntry, LegalityEntry, NameEntry, Names, PrintingEntry, RulingEntry, SetEntry,
    Texts, ZoneEntry,
};
use crate::card_fields::{CardField, FieldKind};
use crate::keywords::{Spellings, says_something};
use crate::loader::{CardRecord, LoadedGame};
use crate::playability::Judge;

/// Why a database could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// The content was loaded without each card's record (its set and printings): load it
    /// with `LoadOptions { records: true }`.
    NoRecords,
    /// The ruleset or a card script does not compile: each error, one line each.
    Engine(Vec<String>),
    /// The ruleset's `hooks.card_legality` failed for a card.
    Legality(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::NoRecords => f.write_str(
                "the content was loaded without card records: load it with LoadOptions { records: true }",
            ),
            BuildError::Engine(es) => write!(
                f,
                "the scripts have {} error(s), the first: {} (run `riffle validate`)",
                es.len(),
                es.first().map(String::as_str).unwrap_or_default()
            ),
            BuildError::Legality(e) => write!(f, "hooks.card_legality: {e}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// The database of `game`, compiling its engine (card scripts run once each, to read their
/// abilities). `game` must have been loaded with `LoadOptions { records: true }`.
pub fn build(game: &LoadedGame) -> Result<CardDatabase, BuildError> {
    let engine = Engine::new(&game.content)
        .map_err(|es| BuildError::Engine(es.iter().map(ToString::to_string).collect()))?;
    build_with(game, &engine)
}

/// The database of `game` with its engine already compiled. The cards are `game`'s own
/// (`game.content.cards`): keep them when the engine is made (`Engine::new`, not
/// `Engine::from_content`).
pub fn build_with(game: &LoadedGame, engine: &Engine) -> Result<CardDatabase, BuildError> {
    let cards = &game.content.cards;
    if !cards.is_empty() && game.records.is_empty() {
        return Err(BuildError::NoRecords);
    }
    let m = &game.content.ruleset.manifest;
    let judge = Judge::new(m, &game.card_fields);
    let ability_fields: Vec<&str> = game
        .card_fields
        .iter()
        .filter(|f| f.ability_text)
        .map(|f| f.name.as_str())
        .collect();
    let mut entries = Vec::with_capacity(cards.len());
    let mut per_set: BTreeMap<&str, u32> = BTreeMap::new();
    for def in cards {
        let Some(record) = game.records.get(&def.id) else {
            return Err(BuildError::NoRecords);
        };
        *per_set.entry(record.set.as_str()).or_default() += 1;
        let legality = engine
            .card_legality(&def.id, &Options::new())
            .map_err(BuildError::Legality)?;
        entries.push(CardEntry {
            id: def.id.clone(),
            set: record.set.clone(),
            category: def.category.clone(),
            name: texts(&def.name),
            text: texts(&def.text),
            fields: def
                .fields
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            keywords: def
                .keywords
                .iter()
                .map(|k| {
                    let (name, value) = k.parts();
                    CardKeyword {
                        name: name.to_string(),
                        value: matches!(k, riffle_core::KeywordUse::Valued(_)).then_some(value),
                    }
                })
                .collect(),
            abilities: abilities(def, &ability_fields, judge.spellings(), &m.names.printed),
            playability: judge.of(def, record.needs_script).as_str().to_string(),
            legality: legality.map(|l| LegalityEntry {
                copies: l.copies,
                by: l.by.as_str().to_string(),
                banned: l.banned,
                note: l.note,
            }),
            rulings: record
                .rulings
                .iter()
                .map(|r| RulingEntry {
                    id: r.id.clone(),
                    date: r.date.clone(),
                    question: texts(&r.question),
                    answer: texts(&r.answer),
                    source: r.source.clone(),
                })
                .collect(),
            printings: printings(def, record),
        });
    }
    entries.sort_by(|a, b| a.id.cmp(&b.id));
    let sets = game
        .sets
        .iter()
        .filter(|s| !s.version.is_empty())
        .map(|s| SetEntry {
            id: s.id.clone(),
            name: texts(&s.name),
            version: s.version.clone(),
            description: s.description.as_ref().map(texts).unwrap_or_default(),
            cards: per_set.get(s.id.as_str()).copied().unwrap_or(0),
        })
        .collect();
    let mut db = CardDatabase {
        format: FORMAT.to_string(),
        format_version: FORMAT_VERSION,
        riffle_version: env!("CARGO_PKG_VERSION").to_string(),
        content_hash: game.manifest.hash.clone(),
        game: GameEntry {
            id: m.game.clone(),
            name: texts(&m.name),
            version: m.version.clone(),
            printed_language: m.names.printed.clone(),
            min_players: m.players.min,
            max_players: m.players.max,
        },
        languages: Vec::new(),
        fields: game.card_fields.iter().map(field_entry).collect(),
        names: names(m),
        sets,
        cards: entries,
    };
    db.languages = languages(&db);
    Ok(db)
}

fn texts(l: &Localized) -> Texts {
    l.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

fn field_entry(f: &CardField) -> FieldEntry {
    let kind = match f.kind {
        FieldKind::Integer => "integer",
        FieldKind::Text => "text",
        FieldKind::Boolean => "boolean",
        FieldKind::List => "list",
        FieldKind::Localized => "localized",
        FieldKind::Object => "object",
    };
    FieldEntry {
        name: f.name.clone(),
        kind: kind.to_string(),
        description: f.description.clone(),
        values: f.values.clone(),
        rules_text: f.rules_text,
        ability_text: f.ability_text,
    }
}

fn names(m: &RulesetManifest) -> Names {
    let plain = |list: &[String]| -> Vec<NameEntry> {
        list.iter()
            .map(|n| NameEntry {
                name: n.clone(),
                doc: String::new(),
            })
            .collect()
    };
    let word = |v: serde_json::Value| v.as_str().unwrap_or_default().to_string();
    Names {
        categories: plain(&m.categories),
        zones: m
            .zones
            .iter()
            .map(|z| ZoneEntry {
                name: z.name.clone(),
                scope: word(serde_json::to_value(z.scope).unwrap_or_default()),
                visibility: word(serde_json::to_value(z.visibility).unwrap_or_default()),
                in_play: z.in_play,
                capacity: z.capacity,
                doc: z.doc.clone(),
            })
            .collect(),
        keywords: m
            .keywords
            .iter()
            .map(|k| KeywordEntry {
                name: k.name.clone(),
                valued: k.valued,
                text: texts(&k.text),
                doc: k.doc.clone(),
            })
            .collect(),
        timings: documented(&m.timings),
        durations: documented(&m.durations),
        events: m
            .events
            .iter()
            .map(|e| NameEntry {
                name: e.name().to_string(),
                doc: e.doc().to_string(),
            })
            .collect(),
        characteristics: m
            .characteristics
            .iter()
            .map(|c| NameEntry {
                name: c.name.clone(),
                doc: String::new(),
            })
            .collect(),
        counters: plain(&m.counters),
    }
}

fn documented(list: &[riffle_core::NameDecl]) -> Vec<NameEntry> {
    list.iter()
        .map(|t| NameEntry {
            name: t.name().to_string(),
            doc: t.doc().to_string(),
        })
        .collect()
}

/// The card's printings; one with its id when its file lists none.
fn printings(def: &CardDef, record: &CardRecord) -> Vec<PrintingEntry> {
    if record.printings.is_empty() {
        return vec![PrintingEntry {
            code: def.id.clone(),
            set: record.set.clone(),
            rarity: def
                .fields
                .get("rarity")
                .and_then(|v| v.as_str())
                .map(str::to_string),
            alternate: false,
            art: None,
            product: None,
            image: None,
        }];
    }
    record
        .printings
        .iter()
        .map(|p| PrintingEntry {
            code: p.code.clone(),
            set: p.set.clone().unwrap_or_else(|| record.set.clone()),
            rarity: p.rarity.clone(),
            alternate: p.alternate,
            art: p.art.clone(),
            product: p.product.clone(),
            image: p.image.clone(),
        })
        .collect()
}

/// One ability per line of the card's text, then of each field holding an ability's text; a
/// line of reminder text only belongs to the line before it.
fn abilities(
    def: &CardDef,
    ability_fields: &[&str],
    spellings: &Spellings,
    printed: &str,
) -> Vec<AbilityEntry> {
    let mut sources: Vec<(&str, Localized)> = vec![("text", def.text.clone())];
    for f in ability_fields {
        if let Some(l) = def
            .fields
            .get(f)
            .and_then(|v| serde_json::from_value::<Localized>(v.clone()).ok())
        {
            sources.push((f, l));
        }
    }
    let mut out = Vec::new();
    for (field, text) in sources {
        let Some(main) = text
            .get(printed)
            .or_else(|| text.iter().next().map(|(_, t)| t))
        else {
            continue;
        };
        let main_lang = if text.get(printed).is_some() {
            printed.to_string()
        } else {
            text.iter()
                .next()
                .map(|(l, _)| l.clone())
                .unwrap_or_default()
        };
        let split: BTreeMap<&str, Vec<String>> = text
            .iter()
            .map(|(l, t)| (l.as_str(), lines(spellings, l, t)))
            .collect();
        let main_lines = lines(spellings, &main_lang, main);
        for (i, line) in main_lines.iter().enumerate() {
            let mut per_lang = Texts::new();
            for (lang, ls) in &split {
                if ls.len() == main_lines.len() {
                    per_lang.insert((*lang).to_string(), ls[i].clone());
                }
            }
            let keywords: Vec<String> = spellings
                .claims(&main_lang, line)
                .into_iter()
                .map(|c| c.keyword)
                .collect();
            out.push(AbilityEntry {
                field: field.to_string(),
                text: per_lang,
                keywords,
            });
        }
    }
    out
}

/// A text's lines, blank ones dropped, a reminder-only line joined to the one before.
fn lines(spellings: &Spellings, lang: &str, text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let reminder_only = (line.starts_with('(') || line.starts_with('（'))
            && !says_something(&spellings.rest(lang, line));
        match out.last_mut() {
            Some(prev) if reminder_only => {
                prev.push('\n');
                prev.push_str(line);
            }
            _ => out.push(line.to_string()),
        }
    }
    out
}

/// Every language tag used by a name or text of `db`, sorted.
fn languages(db: &CardDatabase) -> Vec<String> {
    let mut all: Vec<&Texts> = vec![&db.game.name];
    for s in &db.sets {
        all.extend([&s.name, &s.description]);
    }
    for c in &db.cards {
        all.extend([&c.name, &c.text]);
        all.extend(c.abilities.iter().map(|a| &a.text));
        for r in &c.rulings {
            all.extend([&r.question, &r.answer]);
        }
    }
    let langs: BTreeSet<&str> = all
        .into_iter()
        .flat_map(|t| t.keys().map(String::as_str))
        .collect();
    langs.into_iter().map(str::to_string).collect()
}
