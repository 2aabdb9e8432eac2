//! The subcommands. Each has an `Args` struct (clap derive; doc comments are the help text)
//! and a `run(args) -> anyhow::Result<ExitCode>`; an `Err` is a usage problem (exit 2).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use riffle_content::{LoadFailure, LoadOptions, LoadedGame, Loader, clean_path, find_root};
use riffle_core::{DeckList, Engine};

mod bench;
mod bench_agents;
mod coverage;
mod docs;
mod editor;
mod export;
mod generated;
mod import;
mod lint;
mod mutants;
mod new;
mod play;
mod profile;
mod progress;
mod replay;
mod schema;
mod serve;
mod sim;
mod table;
mod table_cards;
mod test;
mod validate;
mod watch;

/// Riffle: a data-driven trading card game platform.
#[derive(Debug, Parser)]
#[command(name = "riffle", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Every subcommand.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check rulesets, sets, cards, scripts and deck lists; print every problem as
    /// `path:line:col: message`.
    Validate(validate::Args),
    /// Regenerate (`--write`) or check the generated JSON Schemas in `schema/`.
    Schema(schema::Args),
    /// Print a game's reference of names (events and their fields, prompts, option kinds and
    /// labels, declared names), generated from its `game.yaml` and the kernel; `--write`
    /// writes `docs/reference/<game>.md`, `--check` checks them.
    Docs(docs::Args),
    /// Print a game's Luau type definitions for editors (luau-lsp); `--write` writes
    /// `editor/<game>.d.luau` and the editor settings, `--check` checks them
    /// (docs/editors.md).
    Editor(editor::Args),
    /// Play games between agents (random, first, human): a readable log, or a summary with
    /// `--games K`.
    Play(play::Args),
    /// Play a recorded game again (`riffle play --record FILE`): whether every step agrees
    /// with the recording, or the first that does not and why (the content's files that
    /// changed, another engine); `--seat N --step K` shows what a seat saw at a step.
    Replay(replay::Args),
    /// Simulate many games on worker threads: a job (decks or a league, seeds, agents), one
    /// JSON line per game (`--out`) and win rates per seat and deck with 95% intervals; the
    /// same job gives the same results whatever the number of threads (docs/simulation.md).
    Sim(sim::Args),
    /// Run scenario tests (`*.test.yaml`); the last line is `N passed, N failed`.
    ///
    /// With `--mutants`, test the tests: break each scripted card's script on purpose (emptied,
    /// then each number changed), run the scenarios that name the card against each break,
    /// and report every break they all still pass (docs/testing.md).
    Test(test::Args),
    /// Measure the engine: random playouts, fork cost by decision point, content load time;
    /// a table, or one JSON object with `--json`.
    ///
    /// 1. random playouts: games/s and decisions/s, random legal answers, log not kept (game k
    ///    plays seed S+k, the games of `riffle play --games N --seed S`);
    ///
    /// 2. fork cost by decision point: in the first games of the playouts, at every decision,
    ///    the time of `Game::fork()` and its drop (a batch of 1,000 forks when the game is
    ///    quiescent, of 10 otherwise) and of a fork then one answer (the answer the game gives
    ///    next, 10 times: the cost of a step of a tree search), grouped by the request's
    ///    prompt and by whether the game was quiescent (no script suspended: a fork is a plain
    ///    copy; otherwise it replays the answers given since the last quiescent point), and for
    ///    quiescent points by turn;
    ///
    /// 3. load time: loading, validating and compiling the game's content (ruleset and every
    ///    set, plus a synthetic set with --cards), in ms per 1,000 cards.
    ///
    /// Figures are medians and 95th percentiles. Exit 1 if a playout had a script error or did
    /// not finish, or a fork did not take the answer its game took.
    Bench(bench::Args),
    /// Watch content while you edit it: each saved card is checked and goes live in a
    /// running engine (the last good version stays when it has errors); every change is
    /// reported. `riffle play --watch` does the same inside a game.
    Watch(watch::Args),
    /// Find content that is valid but probably wrong or unfinished: abilities without text,
    /// text without abilities, keywords in the text but not in the data, scripted cards
    /// without scenarios, unused files (docs/lint.md). Exit 1 when it finds any.
    Lint(lint::Args),
    /// Per set: cards, how many play as they are (no text, keywords only, scripted) and how
    /// many still need a script, scripted, tested (a scenario names them), and scripted cards
    /// whose scenarios notice their script emptied (docs/lint.md).
    Coverage(coverage::Args),
    /// Write a game's card database for clients (game UIs, deck builders, servers, AIs):
    /// JSON or SQLite, with `PATH.sha256` beside it (docs/clients.md).
    Export(export::Args),
    /// Import the real cards of a game from a public dataset (One Piece: punk-records;
    /// Gundam: gcg-api) into a content folder; importing again keeps what people changed and
    /// reports what the dataset changed (docs/import.md).
    Import(import::Args),
    /// Host games for clients in any language: the host protocol (docs/protocol.md) as JSON
    /// lines on standard input and output (`--stdio`). A client creates games, joins seats
    /// with secret tokens and answers requests; each seat is sent only what it may see.
    Serve(serve::Args),
    /// Make a new set or card: files that pass `riffle validate` at once, each with its
    /// schema header for editors, and a card scenario that fails until you write it.
    New(new::Args),
}

/// Exit code: the command found problems.
pub const FOUND_PROBLEMS: u8 = 1;
/// Exit code: the command could not run (bad usage, missing path).
pub const USAGE: u8 = 2;

/// Parses the command line and runs the subcommand.
pub fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so printing into a closed pipe (`riffle play | head`) would panic.
    // SAFETY: called first thing, before any thread exists; only restores the default action.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = e.print();
                return ExitCode::from(USAGE);
            }
            // Bad usage is one clear line (the first of clap's message) and exit 2.
            let text = e.to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("bad usage")
                .trim_start_matches("error: ");
            eprintln!("riffle: {first} (see `riffle --help`)");
            return ExitCode::from(USAGE);
        }
    };
    let result = match cli.command {
        Command::Validate(args) => validate::run(args),
        Command::Schema(args) => schema::run(args),
        Command::Docs(args) => docs::run(args),
        Command::Editor(args) => editor::run(args),
        Command::Play(args) => play::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Sim(args) => sim::run(args),
        Command::Test(args) => test::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Watch(args) => watch::run(args),
        Command::Lint(args) => lint::run(args),
        Command::Coverage(args) => coverage::run(args),
        Command::New(args) => new::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Export(args) => export::run(args),
        Command::Import(args) => import::run(args),
    };
    // An interrupt is being handled (a scratch folder being removed): the command's own
    // failure from its folder vanishing is not the story, and the process must not end
    // before the folder is gone.
    riffle::scratch::wait_if_interrupted();
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("riffle: {e:#}");
            ExitCode::from(USAGE)
        }
    }
}

/// Where content is read from: shared by every subcommand that reads content.
#[derive(Debug, Clone, clap::Args)]
pub struct RootArgs {
    /// The repository root (the folder with `scripts/` and `cardsets/`). Default: found by
    /// walking up from the current folder.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// A mod: a further search path layered over the root, in the order given. Its sets may
    /// replace cards only when their `set.yaml` lists them in `overrides`.
    #[arg(long = "mod", value_name = "DIR")]
    pub mods: Vec<PathBuf>,
}

impl RootArgs {
    /// The search paths, root first. Paths are kept as given (relative to the current
    /// folder when found by walking up) so diagnostics print short paths.
    pub fn search_paths(&self, hint: Option<&Path>) -> anyhow::Result<Vec<PathBuf>> {
        let mut paths = vec![repo_root(self.root.as_deref(), hint)?];
        for m in &self.mods {
            if !m.is_dir() {
                bail!("--mod {}: no such folder", m.display());
            }
            paths.push(clean_path(m));
        }
        Ok(paths)
    }
}

/// The repository root: `root` when given, else found by walking up from the current folder
/// (or from `hint`).
pub fn repo_root(root: Option<&Path>, hint: Option<&Path>) -> anyhow::Result<PathBuf> {
    match root {
        Some(r) if !r.is_dir() => bail!("--root {}: no such folder", r.display()),
        Some(r) => Ok(clean_path(r)),
        None => discover_root(hint),
    }
}

/// The repository root above the current folder (as a relative path like `..`), or above
/// `hint`.
fn discover_root(hint: Option<&Path>) -> anyhow::Result<PathBuf> {
    let cwd = std::env::current_dir().context("cannot read the current folder")?;
    if let Some(found) = find_root(&cwd) {
        let up = cwd.components().count() - found.components().count();
        return Ok((0..up).map(|_| "..").collect());
    }
    if let Some(found) = hint.and_then(find_root) {
        return Ok(clean_path(&found));
    }
    bail!(
        "no Riffle content here: run inside a repository (a folder with scripts/ and cardsets/) or pass --root DIR"
    )
}

/// A game's valid content and its compiled engine: what `play` and `bench` start from; the
/// card definitions are the engine's (`loaded.content.cards` is left empty). An
/// unknown game names the games there are; invalid content is one line naming the first
/// problem (`riffle validate` lists them all).
pub fn load_engine(paths: &[PathBuf], game: &str) -> anyhow::Result<(LoadedGame, Rc<Engine>)> {
    let _loading = riffle::memory::Loading::start();
    let mut loaded = load_valid(paths, game, LoadOptions::default())?;
    let engine = riffle_content::setup::engine(&mut loaded).map_err(anyhow::Error::msg)?;
    Ok((loaded, engine))
}

/// A game's valid content, or one line: an unknown `--game` names the games there are;
/// invalid content names its first error.
pub fn load_valid(
    paths: &[PathBuf],
    game: &str,
    options: LoadOptions,
) -> anyhow::Result<LoadedGame> {
    Loader::new(paths.to_vec())
        .load_valid(game, options)
        .map_err(|e| match e {
            LoadFailure::UnknownGame { game, games } => anyhow::anyhow!(
                "--game {game}: no such game here (games: {})",
                games.join(", ")
            ),
            invalid => anyhow::anyhow!("{invalid}"),
        })
}

/// The game's first deck lists, one per seat of its smallest table.
pub fn default_decks(loaded: &LoadedGame) -> anyhow::Result<Vec<DeckList>> {
    riffle_content::setup::default_decks(loaded).map_err(anyhow::Error::msg)
}

/// The game's deck lists dealt to `n` seats in turn (seat k gets list k mod their number).
pub fn dealt_decks(loaded: &LoadedGame, n: usize) -> anyhow::Result<Vec<DeckList>> {
    riffle_content::setup::dealt_decks(loaded, n).map_err(anyhow::Error::msg)
}

/// Refuses decks that hold a card whose text still needs a script (`needs_script: true`).
pub fn refuse_unscripted(
    loaded: &LoadedGame,
    engine: &Engine,
    decks: &[DeckList],
) -> anyhow::Result<()> {
    riffle_content::setup::refuse_unscripted(loaded, engine, decks).map_err(anyhow::Error::msg)
}

/// Refuses a deck the ruleset does not allow.
pub fn check_decks(engine: &Engine, decks: &[DeckList]) -> anyhow::Result<()> {
    for (i, d) in decks.iter().enumerate() {
        let problems = engine.validate_deck(d);
        if !problems.is_empty() {
            bail!("deck {} is not legal: {}", i + 1, problems.join("; "));
        }
    }
    Ok(())
}
