//! The first line of a content YAML file that tells an editor's YAML language server which
//! schema checks it: `# yaml-language-server: $schema=<path>`, the path relative to the file
//! so that it works wherever the clone is, and from a mod folder next to it.

use std::path::{Component, Path, PathBuf};

use riffle_content::schema::{DECK_SCHEMA, SCENARIO_SCHEMA, SET_SCHEMA};

/// What yaml-language-server reads on a file's first lines.
pub const PREFIX: &str = "# yaml-language-server: $schema=";

/// The schema a content file under `cardsets/<game>/` is checked against in an editor,
/// relative to the repository root; `None` for a file that is not content (not `.yaml`, or
/// not under `cardsets/<game>/`). A card names the copy of its game's card schema that
/// yaml-language-server can follow (`editor/schema/<game>.card.schema.json`, written by
/// `riffle editor`; docs/editors.md): with the original, whose `$id` is a URL that exists
/// nowhere, it would check nothing.
pub fn schema_for(rel: &Path) -> Option<String> {
    let parts: Vec<&str> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect();
    let [top, game, folder, file] = parts.as_slice() else {
        return None;
    };
    if *top != "cardsets" || !file.ends_with(".yaml") || file.starts_with('.') {
        return None;
    }
    Some(if *folder == "decks" {
        format!("schema/{DECK_SCHEMA}")
    } else if *file == "set.yaml" {
        format!("schema/{SET_SCHEMA}")
    } else if file.ends_with(".test.yaml") {
        format!("schema/{SCENARIO_SCHEMA}")
    } else {
        card_schema(game)
    })
}

/// The card schema an editor checks `game`'s cards against, relative to the repository root.
pub fn card_schema(game: &str) -> String {
    crate::luau_types::card_schema_path(game)
        .to_string_lossy()
        .into_owned()
}

/// The header line for `file` (which may not exist yet) naming `schema` (a path relative to
/// the repository `root`), with the path written relative to the file's folder.
pub fn header_line(file: &Path, root: &Path, schema: &str) -> String {
    let from = absolute(file.parent().unwrap_or(Path::new(".")));
    let to = absolute(&root.join(schema));
    format!("{PREFIX}{}", relative(&from, &to).to_string_lossy())
}

/// Checks the header of a content file at `root.join(rel)` whose text is `text`: the first
/// line must be the header, and its path must lead to the schema the file's kind has. The
/// error says what the line should be.
pub fn check(root: &Path, rel: &Path, text: &str) -> Result<(), String> {
    let Some(schema) = schema_for(rel) else {
        return Ok(());
    };
    let want = header_line(&root.join(rel), root, &schema);
    let first = text.lines().next().unwrap_or("");
    if first == want {
        return Ok(());
    }
    let what = match first.strip_prefix(PREFIX) {
        Some(path) => format!("its schema header names {path}, not {schema}"),
        None => format!("its first line is not a schema header for {schema}"),
    };
    Err(format!(
        "{}:1:1: {what}: make the first line `{want}` (editors check the file against it)",
        rel.display()
    ))
}

/// `p` as an absolute path without `.` or `..`, with symbolic links resolved as far as the
/// path exists (a file about to be written has no canonical path yet).
pub fn absolute(p: &Path) -> PathBuf {
    let p = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(p)
    };
    let mut existing = p.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(c) = existing.canonicalize() {
            let mut out = c;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return lexical(&out);
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => return lexical(&p),
        }
    }
}

/// Removes `.` and resolves `..` by the names alone.
fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The path from folder `from` to `to`, both absolute and clean.
fn relative(from: &Path, to: &Path) -> PathBuf {
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_of_each_kind_of_file() {
        let s = |p: &str| schema_for(Path::new(p));
        assert_eq!(
            s("cardsets/gundam/gx01/GX01-001.yaml").as_deref(),
            Some("editor/schema/gundam.card.schema.json")
        );
        assert_eq!(
            s("cardsets/gundam/gx01/set.yaml").as_deref(),
            Some("schema/set.schema.json")
        );
        assert_eq!(
            s("cardsets/gundam/gx01/GX01-001.test.yaml").as_deref(),
            Some("schema/scenario.schema.json")
        );
        assert_eq!(
            s("cardsets/gundam/decks/iron.yaml").as_deref(),
            Some("schema/deck.schema.json")
        );
        assert_eq!(s("cardsets/gundam/gx01/GX01-001.lua"), None);
        assert_eq!(s("cardsets/gundam/gx01/lib/x.yaml"), None);
        assert_eq!(s("scripts/gundam/game.yaml"), None);
    }

    #[test]
    fn paths_are_relative_to_the_file() {
        let r = |a: &str, b: &str| relative(Path::new(a), Path::new(b));
        assert_eq!(
            r(
                "/w/riffle/cardsets/op/tt",
                "/w/riffle/schema/set.schema.json"
            ),
            Path::new("../../../schema/set.schema.json")
        );
        assert_eq!(
            r(
                "/w/my-mod/cardsets/op/tt",
                "/w/riffle/schema/op/card.schema.json"
            ),
            Path::new("../../../../riffle/schema/op/card.schema.json")
        );
    }
}
