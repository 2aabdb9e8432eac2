//! `riffle lint`: content that is valid but probably wrong or unfinished. Each finding is a
//! [`Diagnostic`] with a position, the card, a hint and the name of its check (`code`):
//!
//! - `abilities-without-text` (error): a card with a script or keywords but no rules text.
//! - `text-without-abilities` (error): rules text beyond the card's keywords and reminder
//!   text, with no script and no data field that carries it, and no `needs_script` mark.
//! - `needs-script` (warning): a card marked `needs_script: true` (an imported card whose
//!   script is still to write).
//! - `keyword-not-in-data` (error): the text gives a keyword its `keywords` lack (or with
//!   another number).
//! - `no-scenario` (warning): a scripted card no scenario names.
//! - `unused-file` (warning): a file in a card folder that nothing uses.
//!
//! See `docs/lint.md`.

mod cards;
mod files;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::mutants::plan;
use riffle_content::playability::Judge;
use riffle_content::yaml::{self, Pos};
use riffle_content::{CardInfo, Diagnostic, GameLoad};

/// Check name: a card with abilities and no text.
pub const ABILITIES_WITHOUT_TEXT: &str = "abilities-without-text";
/// Check name: text that nothing implements.
pub const TEXT_WITHOUT_ABILITIES: &str = "text-without-abilities";
/// Check name: a keyword in the text, not in the data.
pub const KEYWORD_NOT_IN_DATA: &str = "keyword-not-in-data";
/// Check name: a scripted card without a scenario.
pub const NO_SCENARIO: &str = "no-scenario";
/// Check name: a file nothing uses.
pub const UNUSED_FILE: &str = "unused-file";

/// Check name: a card marked as needing a script.
pub const NEEDS_SCRIPT: &str = "needs-script";

pub use riffle_content::card_fields::RULES_TEXT_ANNOTATION;

/// Which files to lint: those under any of these canonical paths.
#[derive(Clone, Debug, Default)]
pub struct Scope(Vec<PathBuf>);

impl Scope {
    /// Files under these paths (made canonical; those that do not exist are dropped).
    pub fn new(paths: &[PathBuf]) -> Scope {
        Scope(
            paths
                .iter()
                .filter_map(|p| {
                    let p = if p.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        p
                    };
                    p.canonicalize().ok()
                })
                .collect(),
        )
    }

    /// Whether the canonical path `p` lies in the scope.
    pub fn contains(&self, p: &Path) -> bool {
        self.0.iter().any(|s| p.starts_with(s))
    }

    fn holds(&self, p: &Path) -> bool {
        p.canonicalize().is_ok_and(|c| self.contains(&c))
    }
}

/// What linting one game found.
#[derive(Debug, Default)]
pub struct Findings {
    /// The findings, sorted.
    pub diagnostics: Vec<Diagnostic>,
    /// How many cards were checked.
    pub cards: usize,
    /// Scenario files that could not be read (`path:line:col: message`): the cards they name
    /// may be reported untested.
    pub unread_scenarios: Vec<String>,
}

/// Lints one loaded game: the cards and files in `scope`, with the scenarios of every
/// search path.
pub fn lint_game(load: &GameLoad, roots: &[PathBuf], scope: &Scope) -> Findings {
    let manifest = load.content.as_ref().map(|c| &c.ruleset.manifest);
    let judge = manifest
        .map(|m| Judge::new(m, &load.card_fields))
        .unwrap_or_default();
    let printed = manifest.map_or("en", |m| m.names.printed.as_str());
    let defs: BTreeMap<&str, &riffle_core::CardDef> = load
        .content
        .iter()
        .flat_map(|c| &c.cards)
        .map(|d| (d.id.as_str(), d))
        .collect();
    let (files, unread_scenarios) = plan::scenario_files(roots, &load.game);
    let last = loaded_definitions(&load.cards);
    let naming = plan::naming(&files, last.keys().copied(), None);
    let tested = |id: &str| naming.get(id).is_some_and(|s| !s.is_empty());
    let game = cards::Game {
        judge: &judge,
        printed,
        tested: &tested,
    };
    let mut diagnostics = Vec::new();
    let mut checked = 0;
    for info in last.values() {
        let in_scope =
            scope.holds(&info.path) || info.script.as_deref().is_some_and(|s| scope.holds(s));
        if !in_scope {
            continue;
        }
        // A card that does not read is `riffle validate`'s to report.
        let Ok(source) = riffle_content::read::read_text(&info.path) else {
            continue;
        };
        let Ok(doc) = yaml::parse(&source) else {
            continue;
        };
        checked += 1;
        let def = info.id.as_deref().and_then(|id| defs.get(id).copied());
        diagnostics.extend(cards::check(&game, info, def, &source, &doc));
    }
    diagnostics.extend(files::unused(load, roots, scope));
    riffle_content::diagnostic::sort_and_dedup(&mut diagnostics);
    Findings {
        diagnostics,
        cards: checked,
        unread_scenarios,
    }
}

/// The card file of each id that loaded: the last one (search paths in order, so a mod's
/// override, not the card it replaces).
pub fn loaded_definitions(infos: &[CardInfo]) -> BTreeMap<&str, &CardInfo> {
    let mut last = BTreeMap::new();
    for info in infos {
        if let Some(id) = &info.id {
            last.insert(id.as_str(), info);
        }
    }
    last
}

/// Where the `nth` (from 0) occurrence of `needle` at or after `from` is in `source`: a
/// place inside a YAML scalar, found in the text as written.
pub fn position_of(source: &str, from: Pos, needle: &str, nth: usize) -> Option<Pos> {
    let line_start: usize = source
        .split_inclusive('\n')
        .take((from.line as usize).saturating_sub(1))
        .map(str::len)
        .sum();
    let start = line_start
        + source[line_start..]
            .char_indices()
            .nth((from.col as usize).saturating_sub(1))
            .map_or(0, |(i, _)| i);
    let (offset, _) = source[start..].match_indices(needle).nth(nth)?;
    let at = start + offset;
    let before = &source[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Some(Pos {
        line: line as u32,
        col: col as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_inside_a_scalar_is_found_in_the_text_as_written() {
        let src = "id: X\ntext: {en: \"[Rush] and [Rush]\", th: \"〈รีแพร์ 2〉\"}\n";
        let from = Pos { line: 2, col: 12 };
        assert_eq!(
            position_of(src, from, "[Rush]", 0),
            Some(Pos { line: 2, col: 13 })
        );
        assert_eq!(
            position_of(src, from, "[Rush]", 1),
            Some(Pos { line: 2, col: 24 })
        );
        assert_eq!(
            // Columns count characters: the Thai text's quote is at 37.
            position_of(src, Pos { line: 2, col: 37 }, "〈รีแพร์ 2〉", 0),
            Some(Pos { line: 2, col: 38 })
        );
        assert_eq!(position_of(src, from, "[Blocker]", 0), None);
    }
}
