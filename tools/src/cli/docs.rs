//! `riffle docs`: each game's reference of names, `docs/reference/<game>.md`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use riffle::content::diagnostic::display_path;
use riffle::reference::{games_with_rulesets, generate, stale_references, write_references};

use super::{FOUND_PROBLEMS, repo_root};

/// Options of `riffle docs`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game (default: every game with a ruleset; printing needs one).
    #[arg(long)]
    game: Option<String>,
    /// Write the references that differ from what the code generates into
    /// `docs/reference/<game>.md`.
    #[arg(long, conflicts_with = "check")]
    write: bool,
    /// Check that the checked-in references are what the code generates (exit 1 if not).
    #[arg(long)]
    check: bool,
    /// The repository root. Default: found by walking up from the current folder.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

/// Prints (default), checks or writes the references.
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
        let written = write_references(&root, &games).map_err(anyhow::Error::msg)?;
        for p in &written {
            println!("wrote {}", display_path(&root.join(p)));
        }
        if written.is_empty() {
            eprintln!("references are up to date");
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.check {
        let stale = stale_references(&root, &games).map_err(anyhow::Error::msg)?;
        if stale.is_empty() {
            eprintln!("references are up to date");
            return Ok(ExitCode::SUCCESS);
        }
        for p in &stale {
            println!("{}: out of date", display_path(&root.join(p)));
        }
        eprintln!("run `cargo run -p riffle -- docs --write`");
        return Ok(ExitCode::from(FOUND_PROBLEMS));
    }
    let [game] = games.as_slice() else {
        bail!("which game? --game GAME (games: {})", games.join(", "));
    };
    print!("{}", generate(&root, game).map_err(anyhow::Error::msg)?);
    Ok(ExitCode::SUCCESS)
}
