//! What `riffle docs` and `riffle editor` share: files generated from the code, per game,
//! printed for one game, checked (`--check`, exit 1 when one is out of date) or written
//! (`--write`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;
use riffle::reference::games_with_rulesets;
use riffle_content::diagnostic::display_path;

use super::{FOUND_PROBLEMS, repo_root};

/// One kind of generated file.
pub(super) struct Generated {
    /// What they are, for "... are up to date" (`references`, `editor files`).
    pub what: &'static str,
    /// The subcommand that writes them.
    pub command: &'static str,
    /// Writes those that differ; returns them.
    pub write: fn(&Path, &[String]) -> Result<Vec<PathBuf>, String>,
    /// Those that differ.
    pub stale: fn(&Path, &[String]) -> Result<Vec<PathBuf>, String>,
    /// One game's text, printed.
    pub print: fn(&Path, &str) -> Result<String, String>,
}

impl Generated {
    /// Runs the subcommand: `game` (None: every game with a ruleset), `write` or `check`
    /// (neither: print the one game's text), from the repository `root`.
    pub(super) fn run(
        &self,
        root: Option<&Path>,
        game: Option<&str>,
        write: bool,
        check: bool,
    ) -> anyhow::Result<ExitCode> {
        let root = repo_root(root, None)?;
        let all = games_with_rulesets(&root);
        let games = match game {
            Some(g) if !all.iter().any(|a| a == g) => bail!(
                "--game {g}: no ruleset scripts/{g}/game.yaml here (games: {})",
                all.join(", ")
            ),
            Some(g) => vec![g.to_string()],
            None => all,
        };
        let up_to_date = || eprintln!("{} are up to date", self.what);
        if write {
            let written = (self.write)(&root, &games).map_err(anyhow::Error::msg)?;
            for p in &written {
                println!("wrote {}", display_path(&root.join(p)));
            }
            if written.is_empty() {
                up_to_date();
            }
            return Ok(ExitCode::SUCCESS);
        }
        if check {
            let stale = (self.stale)(&root, &games).map_err(anyhow::Error::msg)?;
            if stale.is_empty() {
                up_to_date();
                return Ok(ExitCode::SUCCESS);
            }
            for p in &stale {
                println!("{}: out of date", display_path(&root.join(p)));
            }
            eprintln!("run `cargo run -p riffle -- {} --write`", self.command);
            return Ok(ExitCode::from(FOUND_PROBLEMS));
        }
        let [game] = games.as_slice() else {
            bail!("which game? --game GAME (games: {})", games.join(", "));
        };
        print!("{}", (self.print)(&root, game).map_err(anyhow::Error::msg)?);
        Ok(ExitCode::SUCCESS)
    }
}
