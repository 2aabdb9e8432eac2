//! `riffle lint`: content that is valid but probably wrong or unfinished (`riffle::lint`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use riffle::lint::{Scope, lint_game};
use riffle::render::{ColorChoice, Render, Stream};
use riffle_content::Loader;
use riffle_content::diagnostic::OneLine;

use super::test::not_outside_the_search_paths;
use super::{FOUND_PROBLEMS, RootArgs};

/// Options of `riffle lint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to lint: set folders, card files, a game's cardsets folder. Default: every card
    /// of the repository, or with `--mod` the mods' cards.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Output format of the findings (on stdout).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Draw findings for people (the source line, a caret, colours): `auto` on a terminal
    /// unless `NO_COLOR` is set.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    #[command(flatten)]
    roots: RootArgs,
}

/// How findings are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// One `path:line:col: message` line each (drawn for people on a terminal).
    Text,
    /// A JSON array of diagnostic objects (with `code` and `hint`).
    Json,
}

/// The search paths, and the content `paths` name (each must exist and be in a search
/// path); with none, the modder's own content: the mods when there are some, else the
/// repository. `riffle lint` and `riffle coverage` look at this much.
pub(super) fn roots_and_scope(
    roots: &RootArgs,
    paths: &[PathBuf],
) -> anyhow::Result<(Vec<PathBuf>, Scope)> {
    let search = roots.search_paths(paths.first().map(PathBuf::as_path))?;
    for p in paths {
        if !p.exists() {
            bail!("{}: no such file or folder", p.display());
        }
        not_outside_the_search_paths(p, &search)?;
    }
    let scope = if paths.is_empty() {
        Scope::new(if search.len() > 1 {
            &search[1..]
        } else {
            &search
        })
    } else {
        Scope::new(paths)
    };
    Ok((search, scope))
}

/// Runs the checks.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (roots, scope) = roots_and_scope(&args.roots, &args.paths)?;
    let loader = Loader::new(roots.clone());
    let games = loader.games();
    if games.is_empty() {
        bail!("no games found: expected scripts/<game>/game.yaml");
    }
    let mut diags = Vec::new();
    let mut problems = 0usize;
    let mut cards = 0usize;
    // Loading a game of many cards takes a while: a bar on a terminal says which.
    let bar = super::progress::progress_bar(games.len() as u64, "games");
    for game in &games {
        bar.set_message(game.clone());
        let mut load = loader.load_game(game);
        let errors = load.errors().count();
        if errors > 0 {
            bar.suspend(|| eprintln!(
                "the {game} content has {errors} error(s): `riffle validate` lists them; lint checked what loaded"
            ));
            problems += 1;
        }
        let found = lint_game(&load, &roots, &scope);
        // Scripts that do not load (an error at a card script's top level): lint read their
        // files, the engine refuses them, so "no problems" would not be true.
        let compiled: Vec<_> = super::validate::compile(&mut load)
            .into_iter()
            .filter(|d| d.is_error())
            .collect();
        if let Some(first) = compiled.first() {
            bar.suspend(|| {
                eprintln!(
                    "the {game} content's scripts do not load: {} error(s), the first: {}; `riffle validate` lists them",
                    compiled.len(),
                    OneLine(&first.to_string())
                )
            });
            problems += 1;
        }
        bar.suspend(|| {
            for e in &found.unread_scenarios {
                eprintln!("{}", OneLine(e));
            }
        });
        bar.inc(1);
        problems += found.unread_scenarios.len();
        cards += found.cards;
        diags.extend(found.diagnostics);
    }
    bar.finish_and_clear();
    match args.format {
        Format::Text => {
            let render = Render::for_stream(args.color, Stream::Stdout);
            for d in &diags {
                println!("{}", render.render(d));
            }
        }
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&diags).context("writing JSON")?
        ),
    }
    if cards == 0 && diags.is_empty() && !args.paths.is_empty() {
        eprintln!(
            "warning: no card under the paths given: give set folders, card files or a game's cardsets folder"
        );
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    eprintln!(
        "lint: {cards} card(s): {}",
        match (errors, warnings) {
            (0, 0) if problems > 0 =>
                "no findings in what loaded, but the content has problems (above)".to_string(),
            (0, 0) => "no problems".to_string(),
            (e, w) => format!("{e} error(s), {w} warning(s)"),
        }
    );
    Ok(if diags.is_empty() && problems == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(FOUND_PROBLEMS)
    })
}
