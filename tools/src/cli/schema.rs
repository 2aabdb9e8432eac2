//! `riffle schema`: the generated JSON Schemas in `schema/`.

use std::process::ExitCode;

use riffle::content::diagnostic::display_path;
use riffle::content::schema::{stale_schemas, write_schemas};

use super::{FOUND_PROBLEMS, RootArgs};

/// Options of `riffle schema`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write the generated schemas (ruleset, set, card, deck) into `schema/`.
    #[arg(long)]
    write: bool,
    #[command(flatten)]
    roots: RootArgs,
}

/// Checks (default) or rewrites the generated schemas.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let roots = args.roots.search_paths(None)?;
    let dir = roots[0].join("schema");
    if args.write {
        let changed = write_schemas(&dir)?;
        for name in &changed {
            println!("wrote {}", display_path(&dir.join(name)));
        }
        if changed.is_empty() {
            eprintln!("schemas are up to date");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let stale = stale_schemas(&dir);
    if stale.is_empty() {
        eprintln!("schemas are up to date");
        return Ok(ExitCode::SUCCESS);
    }
    for name in &stale {
        println!("{}: out of date", display_path(&dir.join(name)));
    }
    eprintln!("run `cargo run -p riffle -- schema --write`");
    Ok(ExitCode::from(FOUND_PROBLEMS))
}
