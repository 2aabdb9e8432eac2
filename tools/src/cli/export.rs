//! `riffle export`: a game's card database for clients, as JSON or SQLite
//! (`riffle_content::database`, docs/clients.md).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use riffle_content::LoadOptions;
use riffle_content::database::{self, Format as DbFormat};
use riffle_content::diagnostic::display_path;

use super::{RootArgs, load_valid};

/// Options of `riffle export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game whose cards to export (`onepiece`, `gundam`...).
    #[arg(long)]
    game: String,
    /// The file format: one JSON object (schema/card-database.schema.json) or an SQLite
    /// database (schema/card-database.sql).
    #[arg(long, value_enum)]
    format: Format,
    /// The file to write; `PATH.sha256` is written beside it. An existing file is replaced
    /// whole (never half-written).
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    output: PathBuf,
    #[command(flatten)]
    roots: RootArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// One JSON object.
    Json,
    /// An SQLite database file.
    Sqlite,
}

/// Loads, builds and writes the database.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let paths = args.roots.search_paths(None)?;
    // A bad destination fails before the content is read.
    riffle_content::write::check_destination(&args.output)
        .with_context(|| format!("-o {}", display_path(&args.output)))?;
    let game = load_valid(&paths, &args.game, LoadOptions { records: true })?;
    let db = database::build(&game)?;
    let format = match args.format {
        Format::Json => DbFormat::Json,
        Format::Sqlite => DbFormat::Sqlite,
    };
    let sum = database::write(&db, format, &args.output)
        .with_context(|| format!("writing {}", display_path(&args.output)))?;
    let playable = db
        .cards
        .iter()
        .filter(|c| c.playability != "needs_script")
        .count();
    println!(
        "wrote {} ({} cards, {} playable; {} sets; languages {}) and {}",
        display_path(&args.output),
        db.cards.len(),
        playable,
        db.sets.len(),
        db.languages.join(", "),
        display_path(&sum)
    );
    Ok(ExitCode::SUCCESS)
}
