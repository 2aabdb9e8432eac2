//! Files in a game's card folders that nothing uses: a stray `.lua` no card names, a YAML
//! file the loader never reads (in a subfolder, or `.yml`), anything else.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Scope, UNUSED_FILE};
use riffle_content::yaml::{self, Pos};
use riffle_content::{Diagnostic, GameLoad};

/// The unused files of the game's sets and deck folders that lie in `scope`.
pub fn unused(load: &GameLoad, roots: &[PathBuf], scope: &Scope) -> Vec<Diagnostic> {
    let mut used: BTreeSet<PathBuf> = BTreeSet::new();
    let mut add = |p: &Path| {
        if let Some(c) = canonical(p) {
            used.insert(c);
        }
    };
    for c in &load.cards {
        add(&c.path);
        if let Some(s) = &c.script {
            add(s);
        }
    }
    for d in &load.decks {
        add(&d.path);
    }
    for set in &load.sets {
        add(&set.path.join("set.yaml"));
        for s in set_scripts(&set.path) {
            add(&s);
        }
    }
    let mut out = Vec::new();
    for root in roots {
        let game_dir = root.join("cardsets").join(&load.game);
        let mut found = Vec::new();
        walk(&game_dir, &mut found);
        for f in found {
            let Some(c) = canonical(&f) else { continue };
            if used.contains(&c) || !scope.contains(&c) || kept(&f) {
                continue;
            }
            out.push(
                Diagnostic::warning(
                    &f,
                    Pos::START,
                    "no card, set, deck or scenario uses this file",
                )
                .with_code(UNUSED_FILE)
                .with_hint(hint(&f, &game_dir)),
            );
        }
    }
    out
}

/// Files that are not content and are fine anywhere: scenarios (their own checks are
/// `riffle test`'s), notes, hidden files.
fn kept(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.ends_with(".test.yaml") || name.ends_with(".md") || name.starts_with('.')
}

fn hint(path: &Path, game_dir: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let in_decks = path.parent() == Some(&game_dir.join("decks"));
    let depth = path
        .strip_prefix(game_dir)
        .map_or(0, |r| r.components().count());
    if name.ends_with(".lua") {
        "a card uses `<its id>.lua` beside its YAML, or the file its `script:` names; a set's shared Lua is listed in set.yaml `scripts:`; otherwise delete it".into()
    } else if name.ends_with(".yml") {
        "content files end in `.yaml`: rename it".into()
    } else if name.ends_with(".yaml") && depth == 1 {
        "cards go in a set folder (cardsets/<game>/<set>/), deck lists in cardsets/<game>/decks/: move it".into()
    } else if name.ends_with(".yaml") && !in_decks {
        "the loader reads cards only directly in a set folder: move it up if it is a card, or delete it".into()
    } else {
        "delete it, or keep it outside cardsets/".into()
    }
}

/// The Lua files a set's `set.yaml` lists in `scripts:`.
fn set_scripts(set_dir: &Path) -> Vec<PathBuf> {
    let Ok(text) = riffle_content::read::read_text(set_dir.join("set.yaml")) else {
        return Vec::new();
    };
    let Ok(doc) = yaml::parse(&text) else {
        return Vec::new();
    };
    doc.value
        .get("scripts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|s| set_dir.join(s))
        .collect()
}

/// Every regular file below `dir`, sorted.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.is_dir() => walk(&p, out),
            Ok(m) if m.is_file() => out.push(p),
            _ => {}
        }
    }
}

fn canonical(p: &Path) -> Option<PathBuf> {
    p.canonicalize().ok()
}
