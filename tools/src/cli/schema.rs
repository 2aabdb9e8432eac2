//! `riffle schema`: the generated JSON Schemas in `schema/`.

use std::path::PathBuf;
use std::process::ExitCode;

use riffle_content::diagnostic::display_path;
use riffle_content::schema::{stale_schemas, write_schemas};

use super::{FOUND_PROBLEMS, repo_root};

/// Options of `riffle schema`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write the generated schemas (ruleset, set, card, deck, the host protocol's messages)
    /// into `schema/`.
    #[arg(long)]
    write: bool,
    /// The repository root. Default: found by walking up from the current folder.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

/// Checks (default) or rewrites the generated schemas.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let dir = repo_root(args.root.as_deref(), None)?.join("schema");
    let protocol = dir.join(riffle_host::schema::PROTOCOL_DIR);
    let prefixed = |names: Vec<String>| {
        names
            .into_iter()
            .map(|n| format!("{}/{n}", riffle_host::schema::PROTOCOL_DIR))
    };
    if args.write {
        // All or nothing: the protocol's destinations are checked before any is written.
        riffle_host::schema::check_protocol_destinations(&protocol)?;
        let mut changed = write_schemas(&dir)?;
        changed.extend(prefixed(riffle_host::schema::write_protocol_schemas(
            &protocol,
        )?));
        for name in &changed {
            println!("wrote {}", display_path(&dir.join(name)));
        }
        if changed.is_empty() {
            eprintln!("schemas are up to date");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut stale = stale_schemas(&dir);
    stale.extend(prefixed(riffle_host::schema::stale_protocol_schemas(
        &protocol,
    )));
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
