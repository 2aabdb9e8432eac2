//! Which scenarios test which card, and the mutants to make of each scripted card: shared by
//! `riffle test --mutants` (every mutant), `riffle coverage` (the emptied script) and `riffle
//! lint` (cards no scenario names).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use riffle_core::{Content, Engine};

use super::{Kinds, Mutant, ScenarioRef, equivalent, mutants, numbers::LexError};
use crate::scenario::{File, Outcome, discover};

/// Every scenario file of `game` in every search path (a mod's override is tested by the
/// base's scenarios too), and the errors of those that could not be read
/// (`path:line:col: message`).
pub fn scenario_files(roots: &[PathBuf], game: &str) -> (Vec<File>, Vec<String>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for root in roots {
        for f in discover(root, game) {
            match File::read(&f) {
                Ok(file) if file.game().as_deref() == Some(game) => files.push(file),
                Ok(_) => {}
                Err(es) => errors.extend(es),
            }
        }
    }
    (files, errors)
}

/// The scenarios that name each of `ids` (an id no scenario names maps to an empty list):
/// only they can have the card in their game. With `filter`, only scenarios whose name
/// contains it.
pub fn naming<'a, 'i>(
    files: &'a [File],
    ids: impl IntoIterator<Item = &'i str>,
    filter: Option<&str>,
) -> BTreeMap<String, Vec<ScenarioRef<'a>>> {
    let mut out: BTreeMap<String, Vec<ScenarioRef<'a>>> = ids
        .into_iter()
        .map(|id| (id.to_string(), Vec::new()))
        .collect();
    for file in files {
        for index in 0..file.len() {
            // A scenario still to be written tests nothing.
            if filter.is_some_and(|f| !file.name(index).contains(f)) || file.is_todo(index) {
                continue;
            }
            for name in file.named_cards(index) {
                if let Some(list) = out.get_mut(name.as_str()) {
                    list.push(ScenarioRef { file, index });
                }
            }
        }
    }
    out
}

/// A card's scenarios, those that list it under `cards:` first: they are the likeliest to
/// fail, and a mutant's run stops at the first failure.
pub fn ordered<'a>(scenarios: &[ScenarioRef<'a>], id: &str) -> Vec<ScenarioRef<'a>> {
    let mut out = scenarios.to_vec();
    out.sort_by_key(|s| !s.file.cards(s.index).iter().any(|c| c == id));
    out
}

/// The scenarios of `naming` that fail with the cards as they are (each once): mutants are
/// judged by passing scenarios. `Err`: the content does not compile (the engine's errors).
pub fn failing_unmutated(
    content: &Content,
    naming: &BTreeMap<String, Vec<ScenarioRef<'_>>>,
) -> Result<Vec<Outcome>, Vec<String>> {
    let engine = Engine::new(content)
        .map_err(|es| es.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let mut seen = BTreeSet::new();
    let mut failing = Vec::new();
    for s in naming.values().flatten() {
        if !seen.insert((s.file.path().to_path_buf(), s.index)) {
            continue;
        }
        if let Some(o) = s.file.run_scenario(&engine, s.index)
            && !o.passed()
        {
            failing.push(o);
        }
    }
    Ok(failing)
}

/// One scripted card to break.
pub struct CardPlan {
    /// Its index in `Content::cards`.
    pub index: usize,
    /// Its id.
    pub id: String,
    /// Its script's name (`path`).
    pub script: String,
    /// Its mutants; `None` when no scenario names it (nothing could catch them).
    pub mutants: Option<Vec<Mutant>>,
    /// Why its numbers were not changed (the tokenizer refused the script), if so.
    pub unread: Option<LexError>,
    /// Its `-- mutant:` marks that mark nothing (malformed, or on a line with no number):
    /// `(line, col, message)`. Only when its numbers are changed.
    pub misplaced_marks: Vec<(usize, usize, String)>,
}

/// The mutants of every scripted card of `content` that `naming` has, in content order.
pub fn plan(
    content: &Content,
    naming: &BTreeMap<String, Vec<ScenarioRef<'_>>>,
    kinds: Kinds,
) -> Vec<CardPlan> {
    let mut out = Vec::new();
    for (index, def) in content.cards.iter().enumerate() {
        let (Some(scenarios), Some(src)) = (naming.get(def.id.as_str()), &def.script) else {
            continue;
        };
        let mut card = CardPlan {
            index,
            id: def.id.clone(),
            script: src.name.clone(),
            mutants: None,
            unread: None,
            misplaced_marks: Vec::new(),
        };
        if !scenarios.is_empty() {
            if kinds == Kinds::All {
                card.misplaced_marks = equivalent::misplaced(&src.text).unwrap_or_default();
            }
            card.mutants = Some(match mutants(&src.text, kinds) {
                Ok(ms) => ms,
                Err(e) => {
                    card.unread = Some(e);
                    mutants(&src.text, Kinds::Emptied).unwrap_or_default()
                }
            });
        }
        out.push(card);
    }
    out
}
