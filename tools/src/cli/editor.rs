//! `riffle editor`: the generated editor support, `editor/<game>.d.luau` (Luau type
//! definitions for luau-lsp) and the settings that use them (docs/editors.md).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use riffle::content::diagnostic::display_path;
use riffle::luau_types::{definitions, stale, write};
use riffle::reference::games_with_rulesets;

use super::{FOUND_PROBLEMS, repo_root};

/// Options of `riffle editor`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game (default: every game with a ruleset; printing needs one).
    #[arg(long)]
    game: Option<String>,
    /// Write the generated files that differ from what the code generates:
    /// `editor/<game>.d.luau`, `editor/<game>.code-workspace`, `.vscode/settings.json`.
    #[arg(long, conflicts_with = "check")]
    write: bool,
    /// Check that the checked-in files are what the code generates (exit 1 if not).
    #[arg(long)]
    check: bool,
    /// The repository root. Default: found by walking up from the current folder.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

/// Prints a game's definitions (default), checks or writes the generated files.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let root = repo_root(args.root.as_deref(), None)?;
    let all = games_with_rulesets(&root);
    let games = match &args.game {
        Some(g) if !all.contains(g) => bail!(
            "--game {g}: no ruleset scripts/{g}/game.yaml here (games: {})",
            all.join(", ")
        ),
        Some(g) => vec![g.clone()],
        None => all,
    };
    if args.write {
        let written = write(&root, &games).map_err(anyhow::Error::msg)?;
        for p in &written {
            println!("wrote {}", display_path(&root.join(p)));
        }
        if written.is_empty() {
            eprintln!("editor files are up to date");
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.check {
        let stale = stale(&root, &games).map_err(anyhow::Error::msg)?;
        if stale.is_empty() {
            eprintln!("editor files are up to date");
            return Ok(ExitCode::SUCCESS);
        }
        for p in &stale {
            println!("{}: out of date", display_path(&root.join(p)));
        }
        eprintln!("run `cargo run -p riffle -- editor --write`");
        return Ok(ExitCode::from(FOUND_PROBLEMS));
    }
    let [game] = games.as_slice() else {
        bail!("which game? --game GAME (games: {})", games.join(", "));
    };
    print!(
        "{}",
        definitions(&root, game)
            .map_err(anyhow::Error::msg)?
            .definitions
    );
    Ok(ExitCode::SUCCESS)
}
