//! The schemas a mod carries: `riffle new` writing into a mod folder puts copies of the
//! schemas its files' headers name under `<mod>/editor/schema/`, so that every header is a
//! path inside the mod. The mod can then move, or be shared, without a header climbing out
//! of it to the checkout it was made from (docs/editors.md).

use std::io::Write;
use std::path::{Path, PathBuf};

use riffle_content::diagnostic::display_path;
use riffle_content::schema::{DECK_SCHEMA, SCENARIO_SCHEMA, SET_SCHEMA};
use serde_json::Value;

use super::NewFile;
use super::header;

/// Where a mod keeps them, relative to the mod folder (the repository keeps the card
/// schemas' editor copies in the same place).
pub const DIR: &str = "editor/schema";

/// The common card schema every game's card schema refers to.
const COMMON_CARD: &str = "card.schema.json";

/// The schema a file of kind `schema` (a path as [`header::schema_for`] gives it, relative to
/// the repository) is checked against in a mod: its copy in the mod's [`DIR`].
pub fn in_mod(schema: &str) -> String {
    let name = Path::new(schema)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("{DIR}/{name}")
}

/// The copies the mod at `base` needs for `game`'s files, made from the repository at `root`
/// (or, for a game the mod itself adds, from the mod's own `schema/<game>/`): the game's card
/// schema, the common card schema it refers to, and the set, scenario and deck schemas.
pub fn copies(root: &Path, base: &Path, game: &str) -> Result<Vec<NewFile>, String> {
    let dir = base.join(DIR);
    let card = match crate::luau_types::card_schema(root, game)? {
        Some(text) => Some(text),
        None => crate::luau_types::card_schema(base, game)?,
    };
    let mut out = Vec::new();
    if let Some(text) = card {
        let mut v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        // The editor copy refers to `../../schema/card.schema.json`; here it is a sibling.
        siblings(&mut v);
        out.push(file(dir.join(format!("{game}.card.schema.json")), &v));
    }
    for name in [COMMON_CARD, SET_SCHEMA, SCENARIO_SCHEMA, DECK_SCHEMA] {
        let from = root.join("schema").join(name);
        let text = riffle_content::read::read_text(&from)
            .map_err(|e| format!("cannot read {}: {e}", display_path(&from)))?;
        let v: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", display_path(&from)))?;
        out.push(file(dir.join(name), &v));
    }
    Ok(out)
}

fn file(path: PathBuf, v: &Value) -> NewFile {
    let mut text = serde_json::to_string_pretty(v).unwrap_or_default();
    text.push('\n');
    NewFile {
        path,
        text,
        why: Some("the mod's copy of a schema its headers name".into()),
    }
}

/// `"$ref": "../../schema/x.json"` → `"x.json"`.
fn siblings(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match x {
                    Value::String(r) if k == "$ref" => {
                        if let Some(rest) = r.strip_prefix("../../schema/") {
                            *r = rest.to_string();
                        }
                    }
                    x => siblings(x),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(siblings),
        _ => {}
    }
}

/// Writes each copy that is missing or differs (an older Riffle's), each whole (a temporary
/// file renamed into place); returns the ones written. A copy is generated: replacing it
/// loses nothing.
pub fn refresh(files: &[NewFile]) -> Result<Vec<&NewFile>, String> {
    let mut written = Vec::new();
    for f in files {
        if let Ok(meta) = std::fs::symlink_metadata(&f.path) {
            if !meta.file_type().is_file() {
                return Err(format!(
                    "{} is not a regular file: not replacing it (remove it, and `riffle new` \
                     writes the schema copy there)",
                    display_path(&f.path)
                ));
            }
            if riffle_content::read::read_text(&f.path).is_ok_and(|t| t == f.text) {
                continue;
            }
        }
        replace(&f.path, f.text.as_bytes())?;
        written.push(f);
    }
    Ok(written)
}

fn replace(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", display_path(path));
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(fail)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".schema.")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(fail)?;
    tmp.write_all(bytes).map_err(fail)?;
    tmp.flush().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// The header line of `file`, a content file of kind `schema` (relative to the repository),
/// in the search path `base`: the repository's schema when `base` is the repository (`root`),
/// else the mod's copy.
pub fn header_line(
    file: &Path,
    root: &Path,
    base: &Path,
    in_mod_folder: bool,
    schema: &str,
) -> String {
    if in_mod_folder {
        header::header_line(file, base, &in_mod(schema))
    } else {
        header::header_line(file, root, schema)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_is_written_when_missing_or_changed_and_left_when_current() {
        let dir = tempfile::tempdir().unwrap();
        let f = |text: &str| NewFile {
            path: dir.path().join("editor/schema/set.schema.json"),
            text: text.into(),
            why: None,
        };
        assert_eq!(refresh(&[f("{}\n")]).unwrap().len(), 1); // missing
        assert_eq!(refresh(&[f("{}\n")]).unwrap().len(), 0); // current
        assert_eq!(refresh(&[f("{\"a\": 1}\n")]).unwrap().len(), 1); // an older Riffle's
        let path = dir.path().join("editor/schema/set.schema.json");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"a\": 1}\n");
        // Only the copy: no temporary file left beside it.
        assert_eq!(
            std::fs::read_dir(path.parent().unwrap()).unwrap().count(),
            1
        );
    }

    #[test]
    fn a_folder_in_the_copys_place_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("editor/schema/set.schema.json");
        std::fs::create_dir_all(&path).unwrap();
        let e = refresh(&[NewFile {
            path: path.clone(),
            text: "{}".into(),
            why: None,
        }])
        .unwrap_err();
        assert!(e.contains("is not a regular file"), "{e}");
        assert!(path.is_dir());
    }

    #[test]
    fn the_game_card_schema_refers_to_its_sibling() {
        let mut v =
            serde_json::json!({"$ref": "../../schema/card.schema.json", "a": [{"$ref": "#/x"}]});
        siblings(&mut v);
        assert_eq!(
            v,
            serde_json::json!({"$ref": "card.schema.json", "a": [{"$ref": "#/x"}]})
        );
    }
}
