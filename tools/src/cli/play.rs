//! `riffle play`: play games between agents and print a readable log or a summary.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Instant;

use anyhow::{Context, bail};
use riffle::content::{load_deck_file, load_game};
use riffle::play::{Agent, agent, describe, play_game, readable_log_for};
use riffle_core::{DeckList, Engine, Game, GameConfig, PlayerId, Request, Response};

use super::RootArgs;

/// Play games between agents.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game to play (a folder of `scripts/`).
    #[arg(long, default_value = "onepiece")]
    game: String,
    /// A deck list file, once per seat (default: the game's first deck lists).
    #[arg(long, value_name = "FILE")]
    deck: Vec<PathBuf>,
    /// The random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// One agent per seat: random, first or human.
    #[arg(long, value_delimiter = ',', default_value = "random,random")]
    agents: Vec<String>,
    /// Play this many games (seeds seed, seed+1, ...) and print a summary.
    #[arg(long, default_value_t = 1)]
    games: u64,
    /// Write the event log of the (first) game as JSON lines to this file.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    roots: RootArgs,
}

/// Asks the person at the terminal. It shows only what that seat may see: its view, and the
/// log lines since its last decision from its filtered log (`Game::events_for`).
struct Human {
    /// Log lines already shown.
    shown: usize,
}

impl Agent for Human {
    fn respond(&mut self, game: &Game, req: &Request) -> Response {
        let p = req.player();
        let lines = readable_log_for(game, Some(p));
        for l in lines.iter().skip(self.shown) {
            println!("{l}");
        }
        self.shown = lines.len();
        let view = game.view(p);
        println!(
            "\n-- turn {}, player {} to decide ({}) --",
            view.turn,
            p + 1,
            req.prompt()
        );
        for z in &view.zones {
            if z.count == 0 {
                continue;
            }
            let who = z.owner.map(|o| format!("P{}", o + 1)).unwrap_or_default();
            let cards: Vec<String> = z
                .cards
                .iter()
                .map(|c| match &c.name {
                    Some(n) => format!(
                        "{n}{}",
                        c.values
                            .get("power")
                            .map(|p| format!(" {p}"))
                            .unwrap_or_default()
                    ),
                    None => "?".into(),
                })
                .collect();
            if cards.iter().all(|c| c == "?") {
                // Nothing to see but the count (a deck, the opponent's hand).
                println!("{who} {} ({})", z.name, z.count);
            } else {
                println!("{who} {} ({}): {}", z.name, z.count, cards.join(", "));
            }
        }
        loop {
            match req {
                Request::Choose {
                    options, min, max, ..
                } => {
                    for (i, o) in options.iter().enumerate() {
                        println!("  {}. {}", i + 1, o.label);
                    }
                    print!("choose {min}..{max} (numbers separated by spaces): ");
                }
                Request::Number { min, max, .. } => print!("a number in {min}..={max}: "),
            }
            let _ = std::io::stdout().flush();
            let mut line = String::new();
            if std::io::stdin().lock().read_line(&mut line).unwrap_or(0) == 0 {
                return req.first_legal(); // end of input: take the first option
            }
            let nums: Vec<i64> = line
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            let r = match req {
                Request::Choose { .. } => Response::Choose {
                    indices: nums.iter().map(|n| (*n - 1).max(0) as u32).collect(),
                },
                Request::Number { .. } => Response::Number {
                    value: nums.first().copied().unwrap_or(i64::MIN),
                },
            };
            match req.check(&r) {
                Ok(()) => return r,
                Err(e) => println!("{e}"),
            }
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let paths = args.roots.search_paths(None)?;
    let games = riffle::content::Loader::new(paths.clone()).games();
    if !games.contains(&args.game) {
        bail!(
            "--game {}: no such game here (games: {})",
            args.game,
            games.join(", ")
        );
    }
    let load = load_game(&paths, &args.game);
    let loaded = match load.into_result() {
        Ok(l) => l,
        // One line: the first problem and how many; `riffle validate` lists them all.
        Err(diags) => bail!(
            "the {} content has {} error(s), the first: {} (run `riffle validate`)",
            args.game,
            diags.len(),
            diags.first().map(|d| d.to_string()).unwrap_or_default()
        ),
    };
    let engine = Engine::new(&loaded.content).map_err(|es| {
        anyhow::anyhow!(
            "the {} scripts have {} error(s), the first: {} (run `riffle validate`)",
            args.game,
            es.len(),
            es.first().map(|e| e.to_string()).unwrap_or_default()
        )
    })?;
    let n = loaded.content.ruleset.manifest.players.min as usize;
    let decks: Vec<DeckList> = if args.deck.is_empty() {
        if loaded.decks.len() < n {
            bail!(
                "the game has {} deck lists; give --deck FILE for each of {n} players",
                loaded.decks.len()
            );
        }
        loaded
            .decks
            .iter()
            .take(n)
            .map(|d| d.list.clone())
            .collect()
    } else {
        let mut v = Vec::new();
        for p in &args.deck {
            if !p.is_file() {
                bail!("--deck {}: no such file", p.display());
            }
            // One line on stderr: a deck's problems are joined with "; ".
            let d = load_deck_file(p, &loaded.content).map_err(|ds| {
                anyhow::anyhow!(
                    "{}",
                    ds.iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            })?;
            v.push(d.list);
        }
        let players = &loaded.content.ruleset.manifest.players;
        if v.len() < players.min as usize || v.len() > players.max as usize {
            bail!(
                "--deck: give one deck per seat, {}-{} for {} (got {})",
                players.min,
                players.max,
                args.game,
                v.len()
            );
        }
        v
    };
    for (i, d) in decks.iter().enumerate() {
        let problems = engine.validate_deck(d);
        if !problems.is_empty() {
            bail!("deck {} is not legal: {}", i + 1, problems.join("; "));
        }
    }
    if args.agents.len() != decks.len() {
        bail!("--agents: give one agent per seat ({} seats)", decks.len());
    }
    for a in &args.agents {
        if !matches!(a.as_str(), "random" | "first" | "human") {
            bail!("--agents: unknown agent '{a}' (random, first, human)");
        }
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    // A destination that cannot be written fails now, not after the games.
    if let Some(path) = &args.log {
        riffle::files::check_destination(path).context("--log")?;
    }
    let make_agents = |seed: u64| -> Vec<Box<dyn Agent>> {
        args.agents
            .iter()
            .enumerate()
            .map(|(i, a)| -> Box<dyn Agent> {
                if a == "human" {
                    Box::new(Human { shown: 0 })
                } else {
                    agent(a, seed.wrapping_mul(31).wrapping_add(i as u64)).expect("checked")
                }
            })
            .collect()
    };
    if args.games == 1 {
        let mut agents = make_agents(args.seed);
        let config = GameConfig {
            seed: args.seed,
            decks: decks.clone(),
            keep_log: true,
        };
        let (game, played) =
            play_game(&engine, config, &mut agents, false, |_| {}).map_err(anyhow::Error::msg)?;
        write_log(&args, &game)?;
        if args.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&summary(&[played], 0.0, &engine))?
            );
        } else {
            // With a human at the table, the log is theirs: no hidden card of the opponent.
            let human = args
                .agents
                .iter()
                .position(|a| a == "human")
                .map(|i| i as PlayerId);
            for l in readable_log_for(&game, human) {
                println!("{l}");
            }
            println!(
                "{} after {} turns, {} decisions (log hash {})",
                describe(&played.result),
                played.turns,
                played.decisions,
                &played.hash[..16]
            );
            for e in &played.errors {
                eprintln!("script error: {e}");
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let start = Instant::now();
    let mut all = Vec::new();
    for k in 0..args.games {
        let seed = args.seed + k;
        let mut agents = make_agents(seed);
        let config = GameConfig {
            seed,
            decks: decks.clone(),
            keep_log: k == 0 && args.log.is_some(),
        };
        let (game, played) =
            play_game(&engine, config, &mut agents, false, |_| {}).map_err(anyhow::Error::msg)?;
        if k == 0 {
            write_log(&args, &game)?;
        }
        all.push(played);
    }
    let secs = start.elapsed().as_secs_f64();
    let s = summary(&all, secs, &engine);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&s)?);
    } else {
        println!(
            "{} games: wins {}, draws {}, unfinished {}, mean turns {:.1}, {:.1} games/s, {:.0} decisions/s, log hash {}",
            all.len(),
            s["wins"]
                .as_array()
                .map(|w| w
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join("/"))
                .unwrap_or_default(),
            s["draws"],
            s["unfinished"],
            s["mean_turns"].as_f64().unwrap_or(0.0),
            s["games_per_second"].as_f64().unwrap_or(0.0),
            s["decisions_per_second"].as_f64().unwrap_or(0.0),
            s["log_hash"].as_str().unwrap_or(""),
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn write_log(args: &Args, game: &Game) -> anyhow::Result<()> {
    let Some(path) = &args.log else { return Ok(()) };
    let mut text = String::new();
    for e in game.log() {
        text.push_str(&serde_json::to_string(&e)?);
        text.push('\n');
    }
    riffle::files::write_file(path, text.as_bytes()).context("--log")?;
    Ok(())
}

fn summary(all: &[riffle::play::Played], secs: f64, engine: &Rc<Engine>) -> serde_json::Value {
    let n = engine.manifest().players.max as usize;
    let mut wins = vec![0u64; n];
    let (mut draws, mut unfinished, mut turns, mut decisions) = (0u64, 0u64, 0u64, 0u64);
    let mut hasher = blake3::Hasher::new();
    for p in all {
        match &p.result {
            Some(r) if r.winners.len() == 1 => wins[r.winners[0] as usize] += 1,
            Some(_) => draws += 1,
            None => unfinished += 1,
        }
        turns += p.turns as u64;
        decisions += p.decisions;
        hasher.update(p.hash.as_bytes());
    }
    serde_json::json!({
        "games": all.len(),
        "wins": wins,
        "draws": draws,
        "unfinished": unfinished,
        "mean_turns": turns as f64 / all.len().max(1) as f64,
        "decisions": decisions,
        "seconds": secs,
        "games_per_second": if secs > 0.0 { all.len() as f64 / secs } else { 0.0 },
        "decisions_per_second": if secs > 0.0 { decisions as f64 / secs } else { 0.0 },
        "script_errors": all.iter().map(|p| p.errors.len()).sum::<usize>(),
        "log_hash": hasher.finalize().to_hex().to_string(),
    })
}
