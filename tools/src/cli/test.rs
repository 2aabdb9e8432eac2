//! `riffle test`: run scenario files and report `N passed, N failed`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use riffle::content::diagnostic::{OneLine, display_path};
use riffle::content::{Loader, load_game};
use riffle::scenario::{File, discover, walk};
use riffle_core::Engine;

use super::{FOUND_PROBLEMS, RootArgs};

/// Run scenario tests.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Scenario files or folders (default: every `*.test.yaml` of every game).
    paths: Vec<PathBuf>,
    /// Only scenarios whose name contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Print every scenario, not only failures.
    #[arg(long, short)]
    verbose: bool,
    #[command(flatten)]
    roots: RootArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let paths = args
        .roots
        .search_paths(args.paths.first().map(|p| p.as_path()))?;
    let mut files = Vec::new();
    if args.paths.is_empty() {
        // Every search path's scenarios: a mod's cards are tested with the base's.
        for game in Loader::new(paths.clone()).games() {
            for path in &paths {
                files.extend(discover(path, &game));
            }
        }
    } else {
        for p in &args.paths {
            if p.is_dir() {
                let mut found = Vec::new();
                walk(p, &mut found);
                files.extend(found);
            } else if p.exists() {
                files.push(p.clone());
            } else {
                bail!("{}: no such file or folder", p.display());
            }
        }
    }
    let mut by_game: BTreeMap<String, Vec<File>> = BTreeMap::new();
    let (mut passed, mut failed) = (0usize, 0usize);
    for f in &files {
        // Never open a FIFO, socket or device: reading a FIFO blocks until it is written.
        if std::fs::metadata(f).is_ok_and(|m| !m.is_file()) {
            eprintln!(
                "{}:1:1: warning: skipped: not a regular file (a FIFO, socket or device)",
                display_path(f)
            );
            continue;
        }
        match File::read(f) {
            Ok(file) => match file.game() {
                Some(g) => by_game.entry(g).or_default().push(file),
                None => {
                    eprintln!(
                        "{}:1:1: cannot tell the game: add `game:` or put it under cardsets/<game>/",
                        f.display()
                    );
                    failed += 1;
                }
            },
            Err(es) => {
                for e in es {
                    eprintln!("{}", OneLine(&e));
                }
                failed += 1;
            }
        }
    }
    for (game, files) in by_game {
        let loaded = match load_game(&paths, &game).into_result() {
            Ok(l) => l,
            Err(diags) => {
                for d in diags.iter().take(20) {
                    eprintln!("{d}");
                }
                eprintln!("the {game} content has errors: its scenarios were not run");
                failed += files.len();
                continue;
            }
        };
        let engine = match Engine::new(&loaded.content) {
            Ok(e) => e,
            Err(es) => {
                for e in es {
                    eprintln!("{}", OneLine(&e.to_string()));
                }
                failed += files.len();
                continue;
            }
        };
        for file in files {
            for o in file.run(&engine, args.filter.as_deref()) {
                if o.passed() {
                    passed += 1;
                    if args.verbose {
                        println!("ok   {} {}", OneLine(&o.at), OneLine(&o.name));
                    }
                } else {
                    failed += 1;
                    println!("FAIL {} {}", OneLine(&o.at), OneLine(&o.name));
                    // Failures quote script errors: one line each, escapes shown, never raw.
                    for f in &o.failures {
                        println!("    {}", OneLine(f));
                    }
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed > 0 {
        ExitCode::from(FOUND_PROBLEMS)
    } else {
        ExitCode::SUCCESS
    })
}
