//! Editor support, generated: Luau type definitions of everything a card script sees, one
//! file per game (`editor/<game>.d.luau`: the card handle's fields carry the game's
//! characteristics, and the globals are its ruleset's), and the settings that point
//! luau-lsp and yaml-language-server at them and at the JSON Schemas
//! (`.vscode/settings.json`, `editor/<game>.code-workspace`, and copies of the card
//! schemas that yaml-language-server can follow, `editor/schema/`). `riffle editor` prints,
//! checks or writes them; a test fails while a checked-in one differs (docs/editors.md).
//!
//! The names come from the code itself: the globals from the kernel after it loaded the
//! ruleset ([`probe`]), their parameters and docs from the Lua sources ([`source`]), `ctx`'s
//! methods from the prelude, the card handle from [`kernel`] (checked against card.rs).

pub mod kernel;
pub mod probe;
mod render;
mod settings;

pub use settings::{card_schema, card_schema_path};
pub mod source;

use std::path::{Path, PathBuf};

use crate::reference::games_with_rulesets;
use riffle_content::load_game;

/// The kernel's prelude, where `ctx` is made: the one this tool's kernel runs.
pub const PRELUDE: &str = include_str!("../../../core/src/script/prelude.lua");

/// Where a game's definitions file lives, relative to the repository root.
pub fn definitions_path(game: &str) -> PathBuf {
    Path::new("editor").join(format!("{game}.d.luau"))
}

/// A game's generated definitions, and the standard Luau names its cards do not have (the
/// sandbox removed them: luau-lsp's `types.disabledGlobals`).
pub struct Generated {
    /// The definitions file's text.
    pub definitions: String,
    /// Standard globals and library functions a card cannot use (`print`, `math.random`).
    pub removed: Vec<String>,
}

/// The definitions of `game` at `root`, as the code generates them now.
pub fn definitions(root: &Path, game: &str) -> Result<Generated, String> {
    let loaded = load_game(&[root.to_path_buf()], game)
        .into_result()
        .map_err(|diags| {
            format!(
                "the {game} content has {} error(s), the first: {} (run `riffle validate`)",
                diags.len(),
                diags.first().map(|d| d.to_string()).unwrap_or_default()
            )
        })?;
    let content = &loaded.content;
    let files: Vec<(&str, &str)> = content
        .ruleset
        .scripts
        .iter()
        .map(|s| (s.name.as_str(), s.text.as_str()))
        .collect();
    let declared = source::declared(&files)?;
    let ctx = source::ctx_api(PRELUDE)?;
    let globals = probe::globals(content)?;
    let definitions = render::render(&render::Inputs {
        game,
        manifest: &content.ruleset.manifest,
        declared: &declared,
        ctx: &ctx,
        globals: &globals,
    });
    Ok(Generated {
        definitions,
        removed: removed(&globals),
    })
}

/// The standard names missing from what a card sees.
fn removed(globals: &std::collections::BTreeMap<String, probe::Kind>) -> Vec<String> {
    let mut out: Vec<String> = kernel::LUAU_STANDARD
        .iter()
        .filter(|n| !globals.contains_key(**n))
        .map(|n| n.to_string())
        .collect();
    for path in kernel::REMOVED_FIELDS {
        let (table, field) = path.split_once('.').unwrap_or((path, ""));
        let kept = matches!(globals.get(table), Some(probe::Kind::Table { fields, .. }) if fields.contains_key(field));
        if !kept {
            out.push(path.to_string());
        }
    }
    out
}

/// Every generated file for `games` (paths relative to `root`) with its text now.
pub fn generate(root: &Path, games: &[String]) -> Result<Vec<(PathBuf, String)>, String> {
    let mut out = Vec::new();
    let all = games_with_rulesets(root);
    let default = settings::default_game(&all);
    let mut default_removed = None;
    for g in &all {
        if !games.contains(g) && Some(g) != default {
            continue;
        }
        let made = definitions(root, g)?;
        if Some(g) == default {
            default_removed = Some(made.removed.clone());
        }
        if games.contains(g) {
            out.push((
                settings::workspace_path(g),
                settings::workspace(root, &all, g, &made.removed),
            ));
            out.push((definitions_path(g), made.definitions));
            if let Some(schema) = settings::card_schema(root, g)? {
                out.push((settings::card_schema_path(g), schema));
            }
        }
    }
    if let (Some(g), Some(removed)) = (default, default_removed) {
        out.push((
            settings::vscode_path(),
            settings::vscode(root, &all, g, &removed),
        ));
    }
    Ok(out)
}

/// The generated files under `root` that are missing or differ from what the code
/// generates now, relative to `root`.
pub fn stale(root: &Path, games: &[String]) -> Result<Vec<PathBuf>, String> {
    Ok(generate(root, games)?
        .into_iter()
        .filter(|(rel, now)| {
            riffle_content::read::read_text(root.join(rel))
                .ok()
                .as_deref()
                != Some(now.as_str())
        })
        .map(|(rel, _)| rel)
        .collect())
}

/// Writes the stale files (creating their folders) with [`riffle_content::write::write_file`];
/// returns those written. Every destination is checked before the first is written.
pub fn write(root: &Path, games: &[String]) -> Result<Vec<PathBuf>, String> {
    let todo: Vec<(PathBuf, String)> = generate(root, games)?
        .into_iter()
        .filter(|(rel, now)| {
            riffle_content::read::read_text(root.join(rel))
                .ok()
                .as_deref()
                != Some(now.as_str())
        })
        .collect();
    for (rel, _) in &todo {
        riffle_content::write::check_inside(root, &root.join(rel)).map_err(|e| e.to_string())?;
    }
    for (rel, _) in &todo {
        let path = root.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        riffle_content::write::check_destination(&path).map_err(|e| e.to_string())?;
    }
    let mut written = Vec::new();
    for (rel, text) in todo {
        riffle_content::write::write_file(&root.join(&rel), text.as_bytes())
            .map_err(|e| e.to_string())?;
        written.push(rel);
    }
    Ok(written)
}
