//! Each game's reference, `docs/reference/<game>.md`: the names a designer needs (events
//! and their fields, prompts, option kinds and labels, declared names), generated from the
//! game's `game.yaml` and the kernel's tables, so that it says what the code says. `riffle
//! docs` prints, checks or writes it; a test fails while a checked-in one differs.
//! [`usage`] holds the ruleset to its declarations: what scenarios and games really asked
//! and emitted.

mod render;
pub mod usage;

use std::path::{Path, PathBuf};

use riffle_core::RulesetManifest;

pub use render::render;
use riffle_content::load_game;

/// Where a game's reference lives, relative to the repository root.
pub fn reference_path(game: &str) -> PathBuf {
    Path::new("docs")
        .join("reference")
        .join(format!("{game}.md"))
}

/// The games of the repository at `root` that have a ruleset (`scripts/<game>/game.yaml`),
/// sorted.
pub fn games_with_rulesets(root: &Path) -> Vec<String> {
    let mut games: Vec<String> = std::fs::read_dir(root.join("scripts"))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.path().join("game.yaml").is_file())
        .filter_map(|e| e.file_name().to_str().map(String::from))
        .collect();
    games.sort();
    games
}

/// The manifest of `game` as the content pipeline loads it from `roots` (the repository
/// first), or one line saying why it cannot be had.
pub fn manifest_of(roots: &[PathBuf], game: &str) -> Result<RulesetManifest, String> {
    match load_game(roots, game).into_result() {
        Ok(loaded) => Ok(loaded.content.ruleset.manifest),
        Err(diags) => Err(format!(
            "the {game} content has {} error(s), the first: {} (run `riffle validate`)",
            diags.len(),
            diags.first().map(|d| d.to_string()).unwrap_or_default()
        )),
    }
}

/// The reference of `game` at `root`, as the code generates it now.
pub fn generate(root: &Path, game: &str) -> Result<String, String> {
    let m = manifest_of(&[root.to_path_buf()], game)?;
    let source = format!("scripts/{game}/game.yaml");
    Ok(render(&m, &source))
}

/// The references under `root` (for `games`) that are missing or differ from what the code
/// generates now, as paths relative to `root`.
pub fn stale_references(root: &Path, games: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut stale = Vec::new();
    for g in games {
        let rel = reference_path(g);
        let now = generate(root, g)?;
        if riffle_content::read::read_text(root.join(&rel))
            .ok()
            .as_deref()
            != Some(now.as_str())
        {
            stale.push(rel);
        }
    }
    Ok(stale)
}

/// Writes the stale references of `games` under `root` (creating `docs/reference/`) with
/// [`riffle_content::write::write_file`]; returns those written. Every destination is checked before
/// the first is written: all or nothing.
pub fn write_references(root: &Path, games: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut todo = Vec::new();
    for g in games {
        let rel = reference_path(g);
        let now = generate(root, g)?;
        if riffle_content::read::read_text(root.join(&rel))
            .ok()
            .as_deref()
            != Some(now.as_str())
        {
            todo.push((rel, now));
        }
    }
    if todo.is_empty() {
        return Ok(Vec::new());
    }
    for (rel, _) in &todo {
        riffle_content::write::check_inside(root, &root.join(rel)).map_err(|e| e.to_string())?;
    }
    let dir = root.join("docs").join("reference");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (rel, _) in &todo {
        riffle_content::write::check_destination(&root.join(rel)).map_err(|e| e.to_string())?;
    }
    let mut written = Vec::new();
    for (rel, text) in todo {
        riffle_content::write::write_file(&root.join(&rel), text.as_bytes())
            .map_err(|e| e.to_string())?;
        written.push(rel);
    }
    Ok(written)
}
