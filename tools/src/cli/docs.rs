//! `riffle docs`: each game's reference of names, `docs/reference/<game>.md`.

use std::path::PathBuf;
use std::process::ExitCode;

use riffle::reference::{generate, stale_references, write_references};

use super::generated::Generated;

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
    Generated {
        what: "references",
        command: "docs",
        write: write_references,
        stale: stale_references,
        print: generate,
    }
    .run(
        args.root.as_deref(),
        args.game.as_deref(),
        args.write,
        args.check,
    )
}
