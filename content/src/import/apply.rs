//! Writing an import into a content folder, and importing again over it.
//!
//! The folder keeps a record of what the importer last wrote ([`LOCK_FILE`], per card and
//! set, field by field). Importing again merges three versions of every field: what the
//! dataset says now, what the importer wrote last, and what the file holds. A field the file
//! still holds as last written takes the dataset's new value (an erratum, a new printing); a
//! field a person changed, added or removed stays as they left it, and when the dataset
//! changed it too that is reported. A file whose fields come out unchanged is not touched,
//! so a person's comments and layout stay; scripts are never written.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::emit::document;
use super::{Dataset, FIELD_ORDER, FIELD_ORDER_LAST, game_dir};
use crate::diagnostic::Diagnostic;
use crate::write::{check_destination, write_file};
use crate::yaml::Pos;

/// The record of what the importer last wrote, in the game's folder of the import
/// (`cardsets/<game>/.riffle-import.json`; the loader skips hidden files).
pub const LOCK_FILE: &str = ".riffle-import.json";

#[derive(Clone, Debug, Default, Deserialize)]
struct Lock {
    format: u32,
    source: String,
    game: String,
    version: String,
    sets: BTreeMap<String, Entry>,
    cards: BTreeMap<String, Entry>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Entry {
    /// The file, relative to the game's folder.
    file: String,
    /// Its fields as last written.
    fields: Map<String, Value>,
}

/// The record as it is written: borrowing the dataset's fields, not copying them (with
/// thousands of cards in five languages, a copy was a fifth of an import's memory).
#[derive(Serialize)]
struct LockOut<'a> {
    format: u32,
    source: &'a str,
    game: &'a str,
    version: &'a str,
    sets: BTreeMap<&'a str, EntryOut<'a>>,
    cards: BTreeMap<&'a str, EntryOut<'a>>,
}

#[derive(Serialize)]
struct EntryOut<'a> {
    file: String,
    fields: std::borrow::Cow<'a, Map<String, Value>>,
}

/// What kind of change an import made or met.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeKind {
    /// A set new to the folder.
    NewSet,
    /// A card new to the folder.
    NewCard,
    /// A card's printed data changed in the dataset (an erratum): the fields named.
    Errata,
    /// A card got printings it did not have.
    NewPrinting,
    /// A card got rulings it did not have.
    NewRuling,
    /// A card that needed a script has one now: its `needs_script` mark was taken off.
    ScriptWritten,
    /// The dataset changed a field a person had changed: theirs was kept.
    KeptYours,
    /// A card file a person deleted: not written again.
    LeftDeleted,
    /// A card file that does not read as YAML: left as it is.
    Unreadable,
    /// A card the last import wrote that the dataset no longer has: kept.
    NoLongerInDataset,
}

/// One change, for the report.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Change {
    /// What kind.
    pub kind: ChangeKind,
    /// The card (or set) id.
    pub id: String,
    /// What, for people.
    pub detail: String,
}

/// What an import did (or, with `dry_run`, would do).
#[derive(Clone, Debug, Default)]
pub struct Applied {
    /// Files written (or to write), in order.
    pub written: Vec<PathBuf>,
    /// Card and set files left as they were.
    pub unchanged: usize,
    /// The changes, sorted by kind then id.
    pub changes: Vec<Change>,
    /// Whether the folder had no earlier import of this dataset.
    pub first: bool,
    /// The dataset version of the earlier import, if any.
    pub previous_version: Option<String>,
}

/// A file to write.
struct Write {
    path: PathBuf,
    text: String,
}

/// Works out every file to write, changing nothing.
pub fn plan(data: &Dataset, into: &Path) -> Result<Applied, Vec<Diagnostic>> {
    run(data, into, true)
}

/// Writes `data` into the content folder `into` (`into/cardsets/<game>/<set>/...`), merging
/// with an earlier import and people's edits; returns what changed.
pub fn apply(data: &Dataset, into: &Path) -> Result<Applied, Vec<Diagnostic>> {
    run(data, into, false)
}

fn run(data: &Dataset, into: &Path, dry_run: bool) -> Result<Applied, Vec<Diagnostic>> {
    let dir = game_dir(into, &data.game);
    let lock_path = dir.join(LOCK_FILE);
    let lock = read_lock(&lock_path)?;
    if let Some(l) = &lock
        && (l.format != 1 || l.source != data.source || l.game != data.game)
    {
        return Err(vec![Diagnostic::error(
            &lock_path,
            Pos::START,
            format!(
                "this folder holds an import of {} ({}, record format {}), not of {} ({}): import into another folder",
                l.source, l.game, l.format, data.source, data.game
            ),
        )]);
    }
    let first = lock.is_none();
    let lock = lock.unwrap_or_default();
    let mut out = Applied {
        first,
        previous_version: (!first).then(|| lock.version.clone()),
        ..Applied::default()
    };
    let mut writes: Vec<Write> = Vec::new();
    let mut new_lock = LockOut {
        format: 1,
        source: &data.source,
        game: &data.game,
        version: &data.version,
        sets: BTreeMap::new(),
        cards: BTreeMap::new(),
    };

    for set in &data.sets {
        let mut fields = Map::new();
        fields.insert("game".into(), Value::String(data.game.clone()));
        fields.insert("id".into(), Value::String(set.id.clone()));
        fields.insert(
            "name".into(),
            serde_json::to_value(&set.name).expect("names"),
        );
        fields.insert("version".into(), Value::String(data.version.clone()));
        if let Some(d) = &set.description {
            fields.insert(
                "description".into(),
                serde_json::to_value(d).expect("texts"),
            );
        }
        let rel = lock
            .sets
            .get(&set.id)
            .map(|e| e.file.clone())
            .unwrap_or_else(|| format!("{}/set.yaml", set.id));
        let last = lock.sets.get(&set.id).map(|e| &e.fields);
        let merged = merge_file(
            &dir.join(&rel),
            &set.id,
            &fields,
            last,
            &["game", "id", "name", "version", "description"],
            &mut out,
            &mut writes,
            true,
        );
        let fields = if merged {
            std::borrow::Cow::Owned(fields)
        } else {
            match lock.sets.get(&set.id) {
                Some(e) => std::borrow::Cow::Borrowed(&e.fields),
                None => continue,
            }
        };
        new_lock
            .sets
            .insert(&set.id, EntryOut { file: rel, fields });
    }

    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for card in &data.cards {
        seen.insert(card.id.as_str());
        let rel = lock
            .cards
            .get(&card.id)
            .map(|e| e.file.clone())
            .unwrap_or_else(|| format!("{}/{}.yaml", card.set, card.id));
        let last = lock.cards.get(&card.id).map(|e| &e.fields);
        let mut order: Vec<&str> = FIELD_ORDER.to_vec();
        order.extend(
            card.fields
                .keys()
                .map(String::as_str)
                .filter(|k| !FIELD_ORDER.contains(k) && !FIELD_ORDER_LAST.contains(k)),
        );
        order.extend(FIELD_ORDER_LAST);
        let merged = merge_file(
            &dir.join(&rel),
            &card.id,
            &card.fields,
            last,
            &order,
            &mut out,
            &mut writes,
            false,
        );
        // A card a person deleted keeps its record, so that it stays deleted.
        let fields = if merged {
            std::borrow::Cow::Borrowed(&card.fields)
        } else {
            match lock.cards.get(&card.id) {
                Some(e) => std::borrow::Cow::Borrowed(&e.fields),
                None => continue,
            }
        };
        new_lock
            .cards
            .insert(&card.id, EntryOut { file: rel, fields });
    }
    for (id, e) in &lock.cards {
        if !seen.contains(id.as_str()) {
            out.changes.push(Change {
                kind: ChangeKind::NoLongerInDataset,
                id: id.clone(),
                detail: format!("not in the dataset any more: {} kept", e.file),
            });
            new_lock.cards.insert(
                id,
                EntryOut {
                    file: e.file.clone(),
                    fields: std::borrow::Cow::Borrowed(&e.fields),
                },
            );
        }
    }
    // One line per card: small, and still a readable diff.
    let lock_text = lock_text(&new_lock);
    let lock_changed = crate::read::read_text(&lock_path).ok().as_deref() != Some(&lock_text);
    out.changes.sort();
    out.written = writes.iter().map(|w| w.path.clone()).collect();
    if lock_changed {
        out.written.push(lock_path.clone());
    }
    if dry_run {
        return Ok(out);
    }
    // Every destination is checked before the first is written; the record goes last, so an
    // import cut short (a full disk) is finished by running it again.
    let mut problems = Vec::new();
    for w in &writes {
        // A set folder that is a link would take the file elsewhere.
        if let Some(parent) = w.path.parent()
            && std::fs::symlink_metadata(parent).is_ok_and(|m| m.file_type().is_symlink())
        {
            problems.push(Diagnostic::error(
                parent,
                Pos::START,
                "a symbolic link: set folders of an import are plain folders (remove the link)",
            ));
            continue;
        }
        if let Some(parent) = w.path.parent()
            && let Err(e) = std::fs::create_dir_all(parent)
        {
            problems.push(Diagnostic::error(
                parent,
                Pos::START,
                format!("cannot create the folder: {e}"),
            ));
            continue;
        }
        if let Err(e) = check_destination(&w.path) {
            problems.push(Diagnostic::error(&w.path, Pos::START, e.to_string()));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    for w in &writes {
        write_file(&w.path, w.text.as_bytes()).map_err(|e| {
            vec![Diagnostic::error(
                &w.path,
                Pos::START,
                format!("cannot write it: {e}"),
            )]
        })?;
    }
    if lock_changed {
        std::fs::create_dir_all(&dir)
            .and_then(|_| write_file(&lock_path, lock_text.as_bytes()))
            .map_err(|e| {
                vec![Diagnostic::error(
                    &lock_path,
                    Pos::START,
                    format!("cannot write it: {e}"),
                )]
            })?;
    }
    Ok(out)
}

/// The record's text: JSON, a line per set and per card.
fn lock_text(l: &LockOut<'_>) -> String {
    let head = serde_json::json!({
        "format": l.format, "source": l.source, "game": l.game, "version": l.version,
    });
    let mut out = String::from("{\n");
    for (k, v) in head.as_object().expect("an object") {
        out.push_str(&format!("{}: {},\n", json_str(k), v));
    }
    for (name, map) in [("sets", &l.sets), ("cards", &l.cards)] {
        out.push_str(&format!("{}: {{", json_str(name)));
        let mut first = true;
        for (id, e) in map {
            out.push_str(if first { "\n" } else { ",\n" });
            first = false;
            let entry = serde_json::to_string(e).expect("an entry serializes");
            out.push_str(&format!("  {}: {entry}", json_str(id)));
        }
        out.push_str(if name == "sets" { "\n},\n" } else { "\n}\n" });
    }
    out.push_str("}\n");
    out
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

fn read_lock(path: &Path) -> Result<Option<Lock>, Vec<Diagnostic>> {
    let text = match crate::read::read_text(path) {
        Ok(t) => t,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => {
            return Err(vec![Diagnostic::error(path, Pos::START, e.to_string())]);
        }
    };
    let lock: Lock = serde_json::from_str(&text).map_err(|e| {
        vec![Diagnostic::error(
            path,
            Pos {
                line: e.line().max(1) as u32,
                col: e.column().max(1) as u32,
            },
            format!("the record of the last import does not read ({e}): restore it, or delete it to import as if for the first time (fields people changed are then kept only where they differ)"),
        )]
    })?;
    // The record names the files to write: each must be `<set>/<file>.yaml` in the folder.
    for (id, e) in lock.sets.iter().chain(&lock.cards) {
        let parts: Vec<&str> = e.file.split('/').collect();
        let ok = parts.len() == 2
            && super::is_safe_id(parts[0])
            && parts[1]
                .strip_suffix(".yaml")
                .is_some_and(super::is_safe_id);
        if !ok {
            return Err(vec![Diagnostic::error(
                path,
                Pos::START,
                format!(
                    "the record of the last import names {:?} for {id}, not a file `<set>/<card>.yaml` of the folder: restore the record, or delete it to import as if for the first time",
                    e.file
                ),
            )]);
        }
    }
    Ok(Some(lock))
}

/// Merges one file: the dataset's `new` fields, the `last` written, and the file as it is.
/// Queues the file when its fields change. Returns whether the record should now hold `new`
/// (false when the file was deleted by a person or does not read).
#[allow(clippy::too_many_arguments)]
fn merge_file(
    path: &Path,
    id: &str,
    new: &Map<String, Value>,
    last: Option<&Map<String, Value>>,
    order: &[&str],
    out: &mut Applied,
    writes: &mut Vec<Write>,
    is_set: bool,
) -> bool {
    let current: Option<Map<String, Value>> = match crate::read::read_text(path) {
        Ok(text) => match crate::yaml::parse(&text).ok().map(|d| d.value) {
            Some(Value::Object(m)) => Some(m),
            _ => {
                out.changes.push(Change {
                    kind: ChangeKind::Unreadable,
                    id: id.to_string(),
                    detail: format!("{} does not read as a mapping: left as it is (fix it, or delete it and import again)", path.display()),
                });
                return false;
            }
        },
        Err(_) => None,
    };
    let Some(current) = current else {
        if last.is_some() {
            out.changes.push(Change {
                kind: ChangeKind::LeftDeleted,
                id: id.to_string(),
                detail: format!("{} was deleted: not written again", path.display()),
            });
            return false;
        }
        out.changes.push(Change {
            kind: if is_set {
                ChangeKind::NewSet
            } else {
                ChangeKind::NewCard
            },
            id: id.to_string(),
            detail: String::new(),
        });
        writes.push(Write {
            path: path.to_path_buf(),
            text: document(new, order),
        });
        return true;
    };
    let empty = Map::new();
    let last = last.unwrap_or(&empty);
    let mut keys: Vec<&String> = Vec::new();
    for k in new.keys().chain(current.keys()).chain(last.keys()) {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mut merged = Map::new();
    let mut errata: Vec<String> = Vec::new();
    for k in keys {
        let (n, l, c) = (new.get(k), last.get(k), current.get(k));
        let value = if c == l {
            if n != l && !is_set {
                describe(id, k, l, n, &mut errata, out);
            }
            n
        } else {
            if n != l && n != c {
                out.changes.push(Change {
                    kind: ChangeKind::KeptYours,
                    id: id.to_string(),
                    detail: format!(
                        "`{k}` changed in the dataset ({} → {}), and you had changed it: yours kept",
                        short(l),
                        short(n)
                    ),
                });
            }
            c
        };
        if let Some(v) = value {
            merged.insert(k.clone(), v.clone());
        }
    }
    if !errata.is_empty() {
        out.changes.push(Change {
            kind: ChangeKind::Errata,
            id: id.to_string(),
            detail: errata.join("; "),
        });
    }
    if merged == current {
        out.unchanged += 1;
        return true;
    }
    let mut ordered = Map::new();
    for k in order
        .iter()
        .copied()
        .chain(merged.keys().map(String::as_str))
    {
        if let Some(v) = merged.get(k)
            && !ordered.contains_key(k)
        {
            ordered.insert(k.to_string(), v.clone());
        }
    }
    writes.push(Write {
        path: path.to_path_buf(),
        text: document(&ordered, order),
    });
    true
}

/// What changed in one field the importer owns: new printings and rulings are told apart;
/// other fields are errata.
fn describe(
    id: &str,
    key: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    errata: &mut Vec<String>,
    out: &mut Applied,
) {
    let codes = |v: Option<&Value>, k: &str| -> Vec<String> {
        v.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|p| p.get(k).and_then(Value::as_str).map(str::to_string))
            .collect()
    };
    let (kind, field_key) = match key {
        "needs_script" if new.is_none() => {
            out.changes.push(Change {
                kind: ChangeKind::ScriptWritten,
                id: id.to_string(),
                detail: "it has a script now: `needs_script` taken off".into(),
            });
            return;
        }
        "printings" => (ChangeKind::NewPrinting, "code"),
        "rulings" => (ChangeKind::NewRuling, "id"),
        _ => {
            errata.push(format!("`{key}`: {} → {}", short(old), short(new)));
            return;
        }
    };
    let before = codes(old, field_key);
    let added: Vec<String> = codes(new, field_key)
        .into_iter()
        .filter(|c| !before.contains(c))
        .collect();
    if !added.is_empty() {
        out.changes.push(Change {
            kind,
            id: id.to_string(),
            detail: added.join(", "),
        });
    }
    if added.is_empty() || codes(new, field_key).len() != before.len() + added.len() {
        errata.push(format!("`{key}` changed"));
    }
}

fn short(v: Option<&Value>) -> String {
    match v {
        None => "(none)".into(),
        Some(v) => {
            let s = v.to_string();
            if s.chars().count() > 60 {
                format!("{}…", s.chars().take(60).collect::<String>())
            } else {
                s
            }
        }
    }
}
