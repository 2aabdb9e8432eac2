//! `riffle editor`: the generated editor support, `editor/<game>.d.luau` (Luau type
//! definitions for luau-lsp) and the settings that use them (docs/editors.md).

use std::path::PathBuf;
use std::process::ExitCode;

use riffle::luau_types::{definitions, stale, write};

use super::generated::Generated;

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
    Generated {
        what: "editor files",
        command: "editor",
        write,
        stale,
        print: |root, game| definitions(root, game).map(|g| g.definitions),
    }
    .run(
        args.root.as_deref(),
        args.game.as_deref(),
        args.write,
        args.check,
    )
}
