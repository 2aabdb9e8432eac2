//! `riffle sim`: batch simulation (riffle_agents::sim). A job from flags or from a JSON file
//! (`--job`), games on worker threads, one JSON line per game (`--out FILE`) and a summary:
//! win rates per seat and deck with 95% intervals, a league's matrix.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use riffle_agents::sim::{self, Comparison, Job, Rate, Summary};

use super::{FOUND_PROBLEMS, RootArgs};

/// Options of `riffle sim`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A job as JSON (riffle_agents::sim::Job: game, decks or league, players, options,
    /// seed, games, agents); the flags below then only choose threads and outputs. Its
    /// `paths` default to --root and --mod.
    #[arg(long, value_name = "FILE")]
    job: Option<PathBuf>,
    /// The game.
    #[arg(long, value_name = "GAME", required_unless_present = "job")]
    game: Option<String>,
    /// A deck id per seat (a deck list's file name without `.yaml`). Default: the game's
    /// deck lists dealt to the seats in turn.
    #[arg(long, value_name = "ID")]
    deck: Vec<String>,
    /// A league: every ordered pair of these decks plays --games games.
    #[arg(long, value_name = "ID,ID,...", value_delimiter = ',')]
    league: Vec<String>,
    /// Games per pairing.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// The first game's seed (game k plays seed S+k, as `riffle play --games`).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// One agent per seat (random, first, greedy, mcts, mcts:N, mcts:Nms; docs/agents.md).
    #[arg(long, value_delimiter = ',')]
    agents: Vec<String>,
    /// The number of seats.
    #[arg(long, value_name = "N")]
    players: Option<u8>,
    /// The game's format (the option `mode`).
    #[arg(long, value_name = "M")]
    mode: Option<String>,
    /// A game option, NAME=VALUE (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Worker threads, each with its own engine. The results are the same whatever their
    /// number. Default: the machine's cores.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Write one JSON object per game to this file (seed, decks, termination, winners,
    /// turns, decisions, log hash), in the job's order; written whole or not at all.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write each game's replay into this folder (`riffle replay FILE` plays it again, with
    /// its log): `<game>-<index>-seed<seed>.replay`, as each game ends. The job's `record:
    /// replays` needs it.
    #[arg(long, value_name = "DIR", conflicts_with = "compare")]
    replays: Option<PathBuf>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// A mod folder with an edit (a card or deck changed): play the job on the content as
    /// it is and with the mod over it, on the same seeds, and report each win rate's change
    /// with its 95% interval.
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    compare: Option<PathBuf>,
    #[command(flatten)]
    roots: RootArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let paths = args.roots.search_paths(None)?;
    let mut job = match &args.job {
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("--job {}", file.display()))?;
            let mut job: Job = serde_json::from_str(&text)
                .map_err(|e| anyhow::anyhow!("--job {}: {e}", file.display()))?;
            if job.paths.is_empty() {
                job.paths = paths;
            }
            job
        }
        None => {
            let mut options = std::collections::BTreeMap::new();
            for (name, value) in super::play::parse_options(&args.options)? {
                if let riffle_core::OptionValue::Name(v) = value {
                    options.insert(name, v);
                }
            }
            if let Some(m) = &args.mode
                && options.insert("mode".into(), m.clone()).is_some()
            {
                bail!("--mode {m}: the mode is also given with --option mode=...; give it once");
            }
            Job {
                game: args.game.clone().expect("required without --job"),
                paths,
                decks: args.deck.clone(),
                league: args.league.clone(),
                players: args.players,
                options,
                seed: args.seed,
                games: args.games,
                agents: args.agents.iter().map(|a| a.trim().to_string()).collect(),
                record: sim::Record::Results,
            }
        }
    };
    match (&args.replays, job.record) {
        (Some(dir), _) => {
            std::fs::create_dir_all(dir).with_context(|| format!("--replays {}", dir.display()))?;
            job.record = sim::Record::Replays;
        }
        (None, sim::Record::Replays) => {
            bail!("the job records replays: give --replays DIR, the folder to write them to")
        }
        (None, sim::Record::Results) => {}
    }
    if let Some(out) = &args.out {
        riffle_content::write::check_destination(out).context("--out")?;
    }
    let threads = args
        .threads
        .map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if let Some(dir) = &args.compare {
        if !dir.is_dir() {
            bail!(
                "--compare {}: no such folder (give a mod folder)",
                dir.display()
            );
        }
        let c = sim::compare(&job, riffle_content::clean_path(dir), threads)
            .map_err(anyhow::Error::msg)?;
        let mut stdout = std::io::stdout().lock();
        if args.json {
            writeln!(stdout, "{}", serde_json::to_value(&c)?)?;
        } else {
            print_comparison(&mut stdout, &c, &dir.display().to_string())?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let total = job.total_games();
    let bar = super::progress::progress_bar(total, "games");
    let mut lines = Vec::new();
    let started = std::time::Instant::now();
    let mut failed = 0u64;
    let mut unwritten = None;
    let summary = sim::run(&job, threads, |r| {
        bar.inc(1);
        failed += (r.error.is_some()) as u64;
        if let (Some(dir), Some(text)) = (&args.replays, &r.replay) {
            let file = dir.join(format!("{}-{}-seed{}.replay", job.game, r.index, r.seed));
            if let Err(e) = riffle_content::write::write_file(&file, text.as_bytes()) {
                unwritten.get_or_insert(format!("--replays: {}: {e}", file.display()));
            }
        }
        if args.out.is_some() {
            serde_json::to_writer(&mut lines, r).expect("a record serializes");
            lines.push(b'\n');
        }
    })
    .map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();
    if let Some(e) = unwritten {
        bail!(e);
    }
    let secs = started.elapsed().as_secs_f64();
    if let Some(out) = &args.out {
        riffle_content::write::write_file(out, &lines).context("--out")?;
    }
    let mut stdout = std::io::stdout().lock();
    if args.json {
        let mut v = serde_json::to_value(&summary)?;
        v["seconds"] = serde_json::json!(secs);
        v["threads"] = serde_json::json!(threads);
        writeln!(stdout, "{v}")?;
    } else {
        print_summary(&mut stdout, &summary, secs, threads)?;
    }
    Ok(if failed > 0 {
        ExitCode::from(FOUND_PROBLEMS)
    } else {
        ExitCode::SUCCESS
    })
}

fn rate(r: &Rate) -> String {
    format!(
        "{:5.1}% [{:4.1}, {:4.1}] of {}",
        r.rate * 100.0,
        r.low * 100.0,
        r.high * 100.0,
        r.games
    )
}

/// The summary for people: terminations, seats, decks, the league's matrix.
fn print_summary(
    out: &mut impl Write,
    s: &Summary,
    secs: f64,
    threads: usize,
) -> std::io::Result<()> {
    let ends: Vec<String> = s
        .terminations
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    writeln!(
        out,
        "{} games of {} in {secs:.1} s on {threads} threads ({:.1} games/s): {}",
        s.games,
        s.game,
        s.games as f64 / secs.max(1e-9),
        ends.join(", ")
    )?;
    writeln!(
        out,
        "mean {:.1} turns, {:.0} decisions a game; win rates with 95% intervals:",
        s.mean_turns, s.mean_decisions
    )?;
    for (i, r) in s.seats.iter().enumerate() {
        writeln!(out, "  seat {}  {}", i + 1, rate(r))?;
    }
    let width = s.decks.iter().map(|d| d.deck.len()).max().unwrap_or(0);
    for d in &s.decks {
        writeln!(out, "  {:width$}  {}", d.deck, rate(&d.rate))?;
    }
    if let Some(m) = &s.matrix {
        writeln!(
            out,
            "league: the row deck's win rate against the column deck"
        )?;
        let names: Vec<&str> = s.decks.iter().map(|d| d.deck.as_str()).collect();
        write!(out, "  {:width$}", "")?;
        for n in &names {
            write!(out, "  {n:>8.8}")?;
        }
        writeln!(out)?;
        for (a, row) in m.iter().enumerate() {
            write!(out, "  {:width$}", names[a])?;
            for cell in row {
                match cell {
                    Some(r) => write!(out, "  {:>7.1}%", r.rate * 100.0)?,
                    None => write!(out, "  {:>8}", "-")?,
                }
            }
            writeln!(out)?;
        }
    }
    writeln!(out, "log hash {}", s.log_hash)
}

/// Each win rate before and after the edit, and its change with the interval.
fn print_comparison(out: &mut impl Write, c: &Comparison, edit: &str) -> std::io::Result<()> {
    writeln!(
        out,
        "{} games of {} each way; win rates without and with {edit}:",
        c.before.games, c.before.game
    )?;
    let width = c.changes.iter().map(|x| x.of.len()).max().unwrap_or(0);
    for x in &c.changes {
        let noise = if x.low <= 0.0 && x.high >= 0.0 {
            "  (may be noise)"
        } else {
            ""
        };
        writeln!(
            out,
            "  {:width$}  {:5.1}% -> {:5.1}%  change {:+5.1} points [{:+5.1}, {:+5.1}]{noise}",
            x.of,
            x.before.rate * 100.0,
            x.after.rate * 100.0,
            x.change * 100.0,
            x.low * 100.0,
            x.high * 100.0
        )?;
    }
    Ok(())
}
