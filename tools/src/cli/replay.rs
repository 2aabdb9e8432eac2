//! `riffle replay FILE`: plays a recorded game again and says whether every step agrees,
//! or where it parts and why; `--seat N --step K` shows what a seat saw at a step.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use riffle::readable::{Narrator, board};
use riffle_content::replay::{self, Replay};

use super::{FOUND_PROBLEMS, RootArgs, load_engine};

/// Most changed files named when the content differs (the rest are counted).
const MAX_CHANGES_SHOWN: usize = 20;

#[derive(Debug, Parser)]
pub struct Args {
    /// The replay (`riffle play --record FILE` wrote it).
    file: PathBuf,
    /// Show what this seat (from 1) saw: its readable log up to the step, then its board.
    #[arg(long, value_name = "N")]
    seat: Option<u8>,
    /// Stop after this step (from 1; 0: the game's start). Default: the last.
    #[arg(long, value_name = "K")]
    step: Option<usize>,
    /// The language of the card names shown (`en`, `th`...).
    #[arg(long, value_name = "TAG")]
    lang: Option<String>,
    #[command(flatten)]
    roots: RootArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let name = args.file.display().to_string();
    let text = riffle_content::read::read_text(&args.file).with_context(|| name.clone())?;
    let replay = Replay::parse(&text, &name).map_err(anyhow::Error::msg)?;
    let h = &replay.header;
    let paths = args.roots.search_paths(None)?;
    let (loaded, engine) = load_engine(&paths, &h.game)?;
    if let Some(seat) = args.seat
        && (seat == 0 || seat as usize > h.decks.len())
    {
        anyhow::bail!("--seat {seat}: this game has seats 1 to {}", h.decks.len());
    }
    if let Some(k) = args.step
        && k > replay.steps.len()
    {
        anyhow::bail!(
            "--step {k}: this replay has {} steps (0 is the game's start)",
            replay.steps.len()
        );
    }
    println!(
        "{}: {}, seed {}, {} players, {} steps, recorded by riffle {}",
        name,
        h.game,
        h.seed,
        h.decks.len(),
        replay.steps.len(),
        h.engine
    );
    let rerun = replay
        .rerun(engine.clone(), args.step)
        .map_err(|e| anyhow::anyhow!("{name}: the game does not start: {e}"))?;
    let diverged = rerun.diverged.clone();
    if args.seat.is_some() || args.step.is_some() {
        let viewer = args.seat.map(|s| s - 1);
        if let Some(d) = &diverged
            && args.step.is_some_and(|k| k >= d.step)
        {
            println!(
                "(step {} parts from the recording: shown as it was after step {})",
                d.step, rerun.steps
            );
        }
        let mut narrator = Narrator::new(viewer, args.lang.clone());
        for l in narrator.lines(&rerun.game) {
            println!("{l}");
        }
        let view = match &args.lang {
            Some(lang) => rerun.game.view_in(viewer.unwrap_or(0), lang),
            None => rerun.game.view(viewer.unwrap_or(0)),
        };
        if viewer.is_some() {
            println!(
                "-- what P{} sees after step {} --",
                viewer.unwrap_or(0) + 1,
                rerun.steps
            );
            for l in board(&rerun.game, &view) {
                println!("{l}");
            }
        }
    }
    match diverged {
        None => {
            let end = match (&replay.end, args.step) {
                (_, Some(k)) => format!("steps 1 to {k} agree with the recording"),
                (Some(end), None) => format!(
                    "all {} steps agree with the recording: {} (log hash {})",
                    replay.steps.len(),
                    match (&end.winners, &end.reason) {
                        (Some(w), Some(r)) if w.is_empty() => format!("a draw ({r})"),
                        (Some(w), Some(r)) => format!(
                            "{} ({r})",
                            w.iter()
                                .map(|p| format!("player {p}"))
                                .collect::<Vec<_>>()
                                .join(" and ")
                                + if w.len() == 1 { " wins" } else { " win" }
                        ),
                        _ => "unfinished".into(),
                    },
                    &end.log_hash[..end.log_hash.len().min(16)]
                ),
                (None, None) => format!(
                    "all {} steps agree; the file has no end line (it was cut short)",
                    replay.steps.len()
                ),
            };
            println!("{end}");
            Ok(ExitCode::SUCCESS)
        }
        Some(d) => {
            println!("step {} parts from the recording: {}", d.step, d.what);
            for why in reasons(&replay, &loaded.manifest) {
                println!("{why}");
            }
            Ok(ExitCode::from(FOUND_PROBLEMS))
        }
    }
}

/// Why a replay may part from its recording: the content's files that changed, another
/// engine; neither is a bug worth reporting.
fn reasons(replay: &Replay, now: &riffle_content::manifest::ContentManifest) -> Vec<String> {
    let h = &replay.header;
    let mut out = Vec::new();
    let changes = replay::content_changes(&h.content, now);
    if !changes.is_empty() {
        out.push(format!(
            "the content changed since it was recorded ({} file{}):",
            changes.len(),
            if changes.len() == 1 { "" } else { "s" }
        ));
        for c in changes.iter().take(MAX_CHANGES_SHOWN) {
            out.push(format!("  {c}"));
        }
        if changes.len() > MAX_CHANGES_SHOWN {
            out.push(format!("  and {} more", changes.len() - MAX_CHANGES_SHOWN));
        }
    } else if h.content.hash != now.hash {
        out.push("the content is the same files in other search paths (a mod moved)".to_string());
    }
    if h.engine != replay::ENGINE {
        out.push(format!(
            "the engine changed: recorded by riffle {}, this is riffle {}",
            h.engine,
            replay::ENGINE
        ));
    }
    if out.is_empty() {
        out.push(
            "the content and the engine are the ones it was recorded with: a game that does not play again the same is a bug; please report it with this file"
                .to_string(),
        );
    }
    out
}
