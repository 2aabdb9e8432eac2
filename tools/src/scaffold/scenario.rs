//! A new card's scenario file: the setup most of the game's card scenarios share, the card in
//! its player's hand, and a `todo:` that fails the scenario until the designer writes it (a
//! scenario that passed before anyone wrote it would claim a test that does not exist).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use riffle_content::diagnostic::display_path;
use riffle_content::yaml;

/// What a new card's scenario is to check (its `todo:`): `riffle test` fails it with this
/// text until it is written.
pub fn to_be_written(id: &str) -> String {
    format!(
        "check what {id} does (steps:, then expect: zones, cards, events... as docs/scenarios.md shows), or delete {id}.test.yaml if the card has nothing of its own to test"
    )
}

/// The `defaults:` block most of `files` share (the first such file, by path order), with
/// that file: scenarios that start with the ruleset's setup are left out, since a card
/// cannot be placed in them.
pub fn common_defaults(files: &[PathBuf]) -> Option<(String, PathBuf)> {
    let mut seen: BTreeMap<String, (usize, usize, String, PathBuf)> = BTreeMap::new();
    for (order, path) in files.iter().enumerate() {
        let Ok(text) = riffle_content::read::read_text(path) else {
            continue;
        };
        let Ok(doc) = yaml::parse(&text) else {
            continue;
        };
        let Some(defaults) = doc.value.get("defaults") else {
            continue;
        };
        if defaults.get("start").and_then(Value::as_str) == Some("setup") {
            continue;
        }
        let Some(block) = block_of(&text, "defaults") else {
            continue;
        };
        let entry = seen
            .entry(defaults.to_string())
            .or_insert((0, order, block, path.clone()));
        entry.0 += 1;
    }
    seen.into_values()
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
        .map(|(_, _, block, path)| (block, path))
}

/// The lines of top-level key `key` and its value, as written (comments inside kept, those
/// after it left out).
fn block_of(text: &str, key: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.strip_prefix(key).is_some_and(|r| r.starts_with(':')))?;
    let mut end = start + 1;
    while end < lines.len() {
        let l = lines[end];
        let top_level = !l.is_empty() && !l.starts_with(' ') && !l.starts_with('#');
        if top_level {
            break;
        }
        end += 1;
    }
    while end > start + 1 && {
        let t = lines[end - 1].trim_start();
        t.is_empty() || t.starts_with('#')
    } {
        end -= 1;
    }
    Some(lines[start..end].iter().map(|l| format!("{l}\n")).collect())
}

/// The scenario file of card `id`.
pub fn file(
    header: &str,
    id: &str,
    name: &str,
    game: &str,
    defaults: Option<(&str, &Path)>,
    hand: bool,
) -> String {
    let mut s = format!("{header}\n");
    let card = match name == id {
        true => id.to_string(),
        false => format!("{id} {name}"),
    };
    s.push_str(&format!(
        "# {card}: its scenarios (docs/scenarios.md). The one below fails until it is written.\n"
    ));
    if let Some((block, from)) = defaults {
        s.push_str(&format!(
            "# The setup most of the game's card scenarios use (as in {}):\n",
            display_path(from)
        ));
        s.push_str(block);
    }
    s.push_str("scenarios:\n");
    s.push_str(&format!("  - name: \"{id}: to be written\"\n"));
    s.push_str(&format!("    cards: [{id}]\n"));
    if hand {
        s.push_str(&format!(
            "    players:\n      1: {{hand: [{id}]}}   # each player's cards, by zone\n"
        ));
    }
    s.push_str(&format!(
        "    # steps:                 # what the players choose (prompts and labels: docs/reference/{game}.md)\n"
    ));
    s.push_str(&format!("    #   - choose: {{card: {id}}}\n"));
    s.push_str("    # expect: ...\n");
    s.push_str(&format!("    todo: {}\n", Value::String(to_be_written(id))));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_top_level_block_as_written() {
        let text = "# top\ndefaults:\n  seed: 1\n  # kept\n  start: {turn: 3}\n\n# about the scenarios\nscenarios:\n  - name: x\n";
        assert_eq!(
            block_of(text, "defaults").unwrap(),
            "defaults:\n  seed: 1\n  # kept\n  start: {turn: 3}\n"
        );
        assert_eq!(
            block_of("defaults: {seed: 1}\n", "defaults").unwrap(),
            "defaults: {seed: 1}\n"
        );
        assert_eq!(block_of("scenarios: []\n", "defaults"), None);
    }
}
