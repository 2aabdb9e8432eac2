//! `riffle bench`: measure the engine on one game: random playouts, the cost of a fork at
//! each kind of decision point, a search answer and a live game's memory
//! (`bench_agents.rs`), and the time to load the content. The workload is seeded, so
//! two builds can be compared run against run.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use riffle::play::{Agent, RandomAgent, game_seed, play_game_with, seat_seed};
use riffle_content::load_game;
use riffle_core::{
    DeckList, Engine, Game, GameConfig, MatchContext, OptionValue, Options, Request, Response, Rng,
};
use serde_json::{Value, json};

use super::{FOUND_PROBLEMS, RootArgs, check_decks, default_decks, load_engine};

/// The JSON fields, for the help text.
const JSON_HELP: &str = "\
With --json, one object (times: `*_ns` nanoseconds, `*_ms` milliseconds; every \
{median, p95} is over the sampled games or decision points, p95 by nearest rank):
  game, players, mode (null unless --mode), seed, build (\"release\" or \"debug\"), quick
  playouts: games, decisions, turns, seconds, games_per_second, decisions_per_second,
    game_ms {median, p95} (one game's wall time), script_errors, unfinished, log_hash
    (the same as `riffle play --games N --seed S --json` prints)
  forks: games, points (decisions where forks were timed),
    groups: [{prompt, quiescent, count, fork_ns {median, p95},
      fork_answer_ns {median, p95}}] (one per prompt and state, most points first),
    totals: [{quiescent, count, fork_ns, fork_answer_ns}],
    quiescent_by_turn: [{turns (\"0-3\", \"4-7\", \"8+\"), count, fork_ns {median, p95}}]
    (fork_ns: one fork and its drop, a point's batch divided by its size;
    fork_answer_ns: one fork then one answer, drop not timed)
  search: games, playouts_per_answer, answers (searched ones), answer_ms {median, p95},
    playouts_per_second {median, p95} (per answer), playouts_per_second_overall,
    greedy_answers (inside a script, where the game cannot be dealt again), forced_answers
  memory: games (held at once), decisions_in, bytes_per_game (log kept),
    bytes_per_game_no_log, bytes_per_fork (answered once) (bytes held in live allocations,
    from the allocator's heap, divided by the count)
  load: runs, cards, synthetic_cards, ms {median, p95} (one load, validation and
    compilation of the whole content), ms_per_1000_cards (from the median),
    reload_ms {median, p95} (with --cards: one synthetic card's YAML rewritten, read again, checked and swapped
    into the loaded engine, and a game on it moved to the new engine: hot reload after the
    debounce), reloads (how many were timed)
Groups with no point are left out, so every count is at least 1.";

/// Measure the engine (the help text is on `Command::Bench`).
#[derive(Debug, clap::Args)]
#[command(after_help = JSON_HELP)]
pub struct Args {
    /// The game to measure (a folder of `scripts/`).
    #[arg(long, default_value = "onepiece")]
    game: String,
    /// Random playouts to time [default: 200; 5 with --quick].
    #[arg(long, value_name = "N")]
    games: Option<u64>,
    /// Games in which forks are timed at every decision: the first games of the playouts
    /// [default: 20; 1 with --quick].
    #[arg(long, value_name = "N")]
    fork_games: Option<u64>,
    /// Games in which seat 0 is `mcts` and each of its searched answers is timed
    /// [default: 2; 1 with --quick].
    #[arg(long, value_name = "N")]
    search_games: Option<u64>,
    /// Playouts of each timed `mcts` answer [default: 100; 10 with --quick].
    #[arg(long, value_name = "N")]
    search_playouts: Option<u32>,
    /// Games held at once for the memory figure (and forks of one of them)
    /// [default: 1000; 50 with --quick].
    #[arg(long, value_name = "N")]
    live_games: Option<u64>,
    /// Times the content is loaded [default: 5; 1 with --quick].
    #[arg(long, value_name = "N")]
    load_runs: Option<u32>,
    /// Add a set of N synthetic scripted characters (written to a temporary folder) to the
    /// content that is loaded in part 3 (One Piece only; the playouts do not use them). The
    /// folder is removed at the end, on Ctrl-C, and by a later run if this one is killed.
    #[arg(long, value_name = "N", default_value_t = 0)]
    cards: usize,
    /// With --cards: write the synthetic set into DIR, a mod folder (its set is
    /// `DIR/cardsets/onepiece/syn/`, which must not hold files yet), and keep it, instead of a
    /// temporary folder: `riffle play --mod DIR` then plays with those cards loaded in no deck.
    #[arg(long, value_name = "DIR", requires = "cards")]
    cards_dir: Option<PathBuf>,
    /// The seed of the first game: game k plays seed S+k.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// The number of seats: the game's deck lists are dealt to them in turn (default: the
    /// game's fewest players).
    #[arg(long, value_name = "N")]
    players: Option<u8>,
    /// The game's format, as `--option mode=M` (Gundam: standard, battle-royal, team).
    #[arg(long, value_name = "M")]
    mode: Option<String>,
    /// A run of a few seconds: fewer games and load runs (figures noisier).
    #[arg(long)]
    quick: bool,
    /// Print one JSON object (fields below).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    roots: RootArgs,
}

/// Most games or load runs one run may take (a typo is refused, not started).
const MAX_RUNS: u64 = 100_000;
/// Most synthetic cards.
const MAX_CARDS: usize = 1_000_000;
/// Forks timed in one batch at a quiescent decision point (a plain copy: well under 1 µs).
const QUIESCENT_FORKS: u32 = 1_000;
/// Forks timed in one batch where a script is suspended (a copy too: the replay that rebuilds
/// the script comes at the fork's first answer, which "fork then answer" times).
const SUSPENDED_FORKS: u32 = 10;
/// Forks then an answer timed at each decision point.
const ANSWERS: u32 = 10;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let games = args.games.unwrap_or(if args.quick { 5 } else { 200 });
    let fork_games = args.fork_games.unwrap_or(if args.quick { 1 } else { 20 });
    let load_runs = args.load_runs.unwrap_or(if args.quick { 1 } else { 5 });
    let search_games = args.search_games.unwrap_or(if args.quick { 1 } else { 2 });
    let search_playouts = args
        .search_playouts
        .unwrap_or(if args.quick { 10 } else { 100 });
    let live_games = args
        .live_games
        .unwrap_or(if args.quick { 50 } else { 1000 });
    for (name, n) in [
        ("--games", games),
        ("--fork-games", fork_games),
        ("--search-games", search_games),
        ("--search-playouts", u64::from(search_playouts)),
        ("--live-games", live_games),
        ("--load-runs", load_runs as u64),
    ] {
        if n == 0 || n > MAX_RUNS {
            bail!("{name}: give 1 to {MAX_RUNS} (got {n})");
        }
    }
    if args.cards > MAX_CARDS {
        bail!("--cards: at most {MAX_CARDS} (got {})", args.cards);
    }
    let paths = args.roots.search_paths(None)?;
    let (loaded, engine) = load_engine(&paths, &args.game)?;
    if args.cards > 0 && load_runs == 0 {
        bail!("--cards: give --load-runs 1 or more");
    }
    if args.cards > 0 && args.game != "onepiece" {
        bail!("--cards: the synthetic cards are One Piece cards (give --game onepiece)");
    }
    let players = &loaded.content.ruleset.manifest.players;
    let decks = match args.players {
        Some(n) if n < players.min || n > players.max => bail!(
            "--players {n}: {} is for {} to {} players",
            args.game,
            players.min,
            players.max
        ),
        Some(n) => super::dealt_decks(&loaded, n as usize)?,
        None => default_decks(&loaded)?,
    };
    let mut options = Options::new();
    if let Some(m) = &args.mode {
        options.insert("mode".into(), OptionValue::Name(m.clone()));
    }
    engine.seats(decks.len() as u8, &options).map_err(|e| {
        let why = e.lines().next().unwrap_or_default().to_string();
        let why = why
            .split_once("runtime error: ")
            .map_or(why.clone(), |(_, w)| w.to_string());
        anyhow::anyhow!("--players/--mode: {why}")
    })?;
    check_decks(&engine, &decks)?;
    super::refuse_unscripted(&loaded, &engine, &decks)?;
    drop(loaded);

    let mut problems = Vec::new();
    let playouts = playouts(&engine, &decks, &options, args.seed, games, &mut problems)?;
    let forks = forks(
        &engine,
        &decks,
        &options,
        args.seed,
        fork_games,
        &mut problems,
    )?;
    // A fork game is one of the playouts: it must have gone the same way.
    for (k, (a, b)) in playouts.hashes.iter().zip(&forks.hashes).enumerate() {
        if a != b {
            problems.push(format!(
                "seed {}: the game played with forks timed ended with another log hash than the playout",
                game_seed(args.seed, k as u64)
            ));
        }
    }
    let search = super::bench_agents::search(
        &engine,
        &decks,
        &options,
        args.seed,
        search_games,
        search_playouts,
    )?;
    let memory = super::bench_agents::memory(&engine, &decks, &options, args.seed, live_games)?;
    let load = load(
        &paths,
        &args.game,
        args.cards,
        args.cards_dir.as_deref(),
        load_runs,
    )?;

    let report = json!({
        "game": args.game,
        "players": decks.len(),
        "mode": args.mode,
        "seed": args.seed,
        "build": if cfg!(debug_assertions) { "debug" } else { "release" },
        "quick": args.quick,
        "playouts": playouts.json(),
        "forks": forks.json(),
        "search": search.json(),
        "memory": memory.json(),
        "load": load.json(),
    });
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        for line in text(&report) {
            println!("{line}");
        }
    }
    // The first few problems, one line each.
    for p in problems.iter().take(5) {
        eprintln!("riffle bench: {p}");
    }
    if problems.len() > 5 {
        eprintln!("riffle bench: and {} more problems", problems.len() - 5);
    }
    Ok(if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(FOUND_PROBLEMS)
    })
}

/// Random agents seeded as `riffle play` seeds them, one per seat.
fn random_agents(seed: u64, seats: usize) -> Vec<Box<dyn Agent>> {
    (0..seats)
        .map(|i| Box::new(RandomAgent(Rng::new(seat_seed(seed, i)))) as Box<dyn Agent>)
        .collect()
}

/// One game with these options, to its end.
fn play_with(
    engine: &Rc<Engine>,
    config: GameConfig,
    options: &Options,
    agents: &mut [Box<dyn Agent>],
) -> anyhow::Result<(Game, riffle::play::Played)> {
    play_game_with(
        engine,
        config,
        options,
        &MatchContext::default(),
        agents,
        false,
        |_| {},
    )
    .map_err(anyhow::Error::msg)
}

pub(super) fn config(seed: u64, decks: &[DeckList]) -> GameConfig {
    GameConfig {
        seed,
        decks: decks.to_vec(),
        keep_log: false,
    }
}

/// What the playouts measured.
struct Playouts {
    games: u64,
    decisions: u64,
    turns: u64,
    seconds: f64,
    game_ms: Vec<f64>,
    script_errors: u64,
    unfinished: u64,
    /// Each game's log hash, in order.
    hashes: Vec<String>,
}

fn playouts(
    engine: &Rc<Engine>,
    decks: &[DeckList],
    options: &Options,
    seed: u64,
    games: u64,
    problems: &mut Vec<String>,
) -> anyhow::Result<Playouts> {
    let mut p = Playouts {
        games,
        decisions: 0,
        turns: 0,
        seconds: 0.0,
        game_ms: Vec::new(),
        script_errors: 0,
        unfinished: 0,
        hashes: Vec::new(),
    };
    let start = Instant::now();
    for k in 0..games {
        let seed = game_seed(seed, k);
        let mut agents = random_agents(seed, decks.len());
        let t = Instant::now();
        let (_, played) = play_with(engine, config(seed, decks), options, &mut agents)?;
        p.game_ms.push(t.elapsed().as_secs_f64() * 1e3);
        p.decisions += played.decisions;
        p.turns += played.turns as u64;
        if !played.errors.is_empty() {
            p.script_errors += played.errors.len() as u64;
            problems.push(format!(
                "seed {seed}: {} script error(s), the first: {}",
                played.errors.len(),
                played.errors[0].lines().next().unwrap_or("")
            ));
        }
        if played.result.is_none() {
            p.unfinished += 1;
            let why = played.stopped.map(|s| s.to_string()).unwrap_or_default();
            problems.push(format!("seed {seed}: unfinished ({why})"));
        }
        p.hashes.push(played.hash);
    }
    p.seconds = start.elapsed().as_secs_f64();
    Ok(p)
}

impl Playouts {
    fn json(&self) -> Value {
        let mut run = blake3::Hasher::new();
        for h in &self.hashes {
            run.update(h.as_bytes());
        }
        let rate = |n: u64| {
            if self.seconds > 0.0 {
                n as f64 / self.seconds
            } else {
                0.0
            }
        };
        json!({
            "games": self.games,
            "decisions": self.decisions,
            "turns": self.turns,
            "seconds": self.seconds,
            "games_per_second": rate(self.games),
            "decisions_per_second": rate(self.decisions),
            "game_ms": stats(&self.game_ms),
            "script_errors": self.script_errors,
            "unfinished": self.unfinished,
            "log_hash": run.finalize().to_hex().to_string(),
        })
    }
}

/// One decision point where forks were timed.
struct Point {
    prompt: String,
    quiescent: bool,
    turn: u32,
    /// Nanoseconds per fork.
    fork_ns: f64,
    /// Nanoseconds per fork then one answer.
    fork_answer_ns: f64,
}

/// Answers as `inner` does, after timing forks of the game at the request.
struct Timing {
    inner: Box<dyn Agent>,
    points: Rc<RefCell<Vec<Point>>>,
    problems: Rc<RefCell<Vec<String>>>,
}

impl Agent for Timing {
    fn respond(&mut self, game: &Game, req: &Request) -> Result<Response, String> {
        let r = self.inner.respond(game, req)?;
        let (fork_ns, fork_answer_ns) = time_forks(game, req, &r).unwrap_or_else(|e| {
            self.problems.borrow_mut().push(e);
            (0.0, 0.0)
        });
        self.points.borrow_mut().push(Point {
            prompt: req.prompt().to_string(),
            quiescent: game.quiescent(),
            turn: game.turn(),
            fork_ns,
            fork_answer_ns,
        });
        Ok(r)
    }
}

/// Nanoseconds per fork of `game` (a batch of [`QUIESCENT_FORKS`] at a quiescent point, of
/// [`SUSPENDED_FORKS`] otherwise; each fork is dropped in the loop, as a search drops the
/// forks it has done with), and per fork then the answer `r` to `req` ([`ANSWERS`] times,
/// the drop not timed). The counts depend on the game only, so two builds do the same work.
fn time_forks(game: &Game, req: &Request, r: &Response) -> Result<(f64, f64), String> {
    let n = if game.quiescent() {
        QUIESCENT_FORKS
    } else {
        SUSPENDED_FORKS
    };
    let t = Instant::now();
    for _ in 0..n {
        drop(std::hint::black_box(game.fork()));
    }
    let fork_ns = t.elapsed().as_nanos() as f64 / n as f64;

    let mut total = Duration::ZERO;
    for _ in 0..ANSWERS {
        let r = r.clone();
        let t = Instant::now();
        let mut g = game.fork();
        let ok = g.respond(req.player(), r);
        total += t.elapsed();
        ok.map_err(|e| {
            format!(
                "a fork at a `{}` decision refused the answer its game took: {e}",
                req.prompt()
            )
        })?;
    }
    Ok((fork_ns, total.as_nanos() as f64 / ANSWERS as f64))
}

/// What the fork timings measured.
struct Forks {
    games: u64,
    points: Vec<Point>,
    /// Each game's log hash, in order.
    hashes: Vec<String>,
}

fn forks(
    engine: &Rc<Engine>,
    decks: &[DeckList],
    options: &Options,
    seed: u64,
    games: u64,
    problems: &mut Vec<String>,
) -> anyhow::Result<Forks> {
    let points = Rc::new(RefCell::new(Vec::new()));
    let found = Rc::new(RefCell::new(Vec::new()));
    let mut hashes = Vec::new();
    for k in 0..games {
        let seed = game_seed(seed, k);
        let mut agents: Vec<Box<dyn Agent>> = random_agents(seed, decks.len())
            .into_iter()
            .map(|inner| {
                Box::new(Timing {
                    inner,
                    points: points.clone(),
                    problems: found.clone(),
                }) as Box<dyn Agent>
            })
            .collect();
        let (_, played) = play_with(engine, config(seed, decks), options, &mut agents)?;
        hashes.push(played.hash);
    }
    problems.extend(found.take());
    Ok(Forks {
        games,
        points: points.take(),
        hashes,
    })
}

/// The turn buckets of the flatness figures: (label, first turn, last turn).
const TURNS: [(&str, u32, u32); 3] = [("0-3", 0, 3), ("4-7", 4, 7), ("8+", 8, u32::MAX)];

impl Forks {
    fn json(&self) -> Value {
        let group = |points: &[&Point]| {
            let fork: Vec<f64> = points.iter().map(|p| p.fork_ns).collect();
            let answer: Vec<f64> = points.iter().map(|p| p.fork_answer_ns).collect();
            json!({
                "count": points.len(),
                "fork_ns": stats(&fork),
                "fork_answer_ns": stats(&answer),
            })
        };
        // By prompt and state, most points first, then by name.
        let mut keys: Vec<(&str, bool)> = Vec::new();
        for p in &self.points {
            if !keys.contains(&(p.prompt.as_str(), p.quiescent)) {
                keys.push((p.prompt.as_str(), p.quiescent));
            }
        }
        let of = |prompt: &str, q: bool| -> Vec<&Point> {
            self.points
                .iter()
                .filter(|p| p.prompt == prompt && p.quiescent == q)
                .collect()
        };
        keys.sort_by_key(|&(prompt, q)| (std::cmp::Reverse(of(prompt, q).len()), prompt, !q));
        let groups: Vec<Value> = keys
            .iter()
            .map(|&(prompt, q)| {
                let mut v = group(&of(prompt, q));
                v["prompt"] = json!(prompt);
                v["quiescent"] = json!(q);
                v
            })
            .collect();
        let totals: Vec<Value> = [true, false]
            .into_iter()
            .filter_map(|q| {
                let ps: Vec<&Point> = self.points.iter().filter(|p| p.quiescent == q).collect();
                (!ps.is_empty()).then(|| {
                    let mut v = group(&ps);
                    v["quiescent"] = json!(q);
                    v
                })
            })
            .collect();
        let by_turn: Vec<Value> = TURNS
            .iter()
            .filter_map(|&(label, lo, hi)| {
                let fork: Vec<f64> = self
                    .points
                    .iter()
                    .filter(|p| p.quiescent && (lo..=hi).contains(&p.turn))
                    .map(|p| p.fork_ns)
                    .collect();
                (!fork.is_empty())
                    .then(|| json!({"turns": label, "count": fork.len(), "fork_ns": stats(&fork)}))
            })
            .collect();
        json!({
            "games": self.games,
            "points": self.points.len(),
            "groups": groups,
            "totals": totals,
            "quiescent_by_turn": by_turn,
        })
    }
}

/// What the load runs measured.
struct Load {
    runs: u32,
    cards: usize,
    synthetic: usize,
    ms: Vec<f64>,
    reload_ms: Vec<f64>,
}

/// Hot reloads timed after the loads.
const RELOADS: usize = 40;

fn load(
    paths: &[PathBuf],
    game: &str,
    synthetic: usize,
    kept: Option<&Path>,
    runs: u32,
) -> anyhow::Result<Load> {
    let mut roots = paths.to_vec();
    // Removed when dropped, after the runs.
    let mut _temp = None;
    if synthetic > 0 {
        let root = match kept {
            Some(dir) => dir.to_path_buf(),
            None => {
                // Removed on Ctrl-C too, and by a later start if this one is killed outright.
                let dir = riffle::scratch::Scratch::new("riffle-bench-")
                    .context("--cards: cannot make a temporary folder")?;
                let root = dir.path().to_path_buf();
                _temp = Some(dir);
                root
            }
        };
        let set = root.join("cardsets").join(game).join("syn");
        if kept.is_some() && std::fs::read_dir(&set).is_ok_and(|mut d| d.next().is_some()) {
            bail!(
                "--cards-dir: {} holds files already: give a new folder (cards left from another \
                 run would be loaded too)",
                set.display()
            );
        }
        riffle::synthetic::write_onepiece_set(&set, synthetic).with_context(|| {
            format!(
                "--cards: cannot write the synthetic cards in {}",
                set.display()
            )
        })?;
        roots.push(root);
    }
    let mut load = Load {
        runs,
        cards: 0,
        synthetic,
        ms: Vec::new(),
        reload_ms: Vec::new(),
    };
    let mut last = None;
    for _ in 0..runs {
        // The previous load goes first: a load is timed (and holds memory) on its own.
        drop(last.take());
        let t = Instant::now();
        // As `load_engine` and `riffle validate` load.
        let loading = riffle::memory::Loading::start();
        let mut loaded = load_game(&roots, game).into_result().map_err(|d| {
            anyhow::anyhow!(
                "the content with {synthetic} synthetic cards has {} error(s), the first: {}",
                d.len(),
                d.first().map(|d| d.to_string()).unwrap_or_default()
            )
        })?;
        let cards = loaded.content.cards.len();
        let content = riffle_core::Content {
            ruleset: loaded.content.ruleset.clone(),
            libraries: loaded.content.libraries.clone(),
            cards: std::mem::take(&mut loaded.content.cards),
        };
        let engine = Engine::from_content(content)
            .map_err(|e| anyhow::anyhow!("the scripts do not compile: {}", e[0]))?;
        drop(loading);
        load.ms.push(t.elapsed().as_secs_f64() * 1e3);
        load.cards = cards;
        last = Some((loaded, engine));
    }
    // Only a synthetic card is rewritten: the repository's files are not touched.
    if let (Some((loaded, engine)), true) = (last, synthetic > 0) {
        load.reload_ms = reloads(&roots, game, &loaded, engine)?;
    }
    Ok(load)
}

/// Times hot reloads of one card with everything loaded: its YAML is rewritten (a comment
/// line that changes each time), then read again, checked, swapped in, and a game on the
/// engine moved to it. The card is the last synthetic card (in the temporary folder).
fn reloads(
    roots: &[PathBuf],
    game: &str,
    loaded: &riffle_content::LoadedGame,
    engine: Rc<Engine>,
) -> anyhow::Result<Vec<f64>> {
    let card = loaded
        .cards
        .iter()
        .rev()
        .find(|c| c.script.is_some() && c.id.is_some())
        .context("no scripted card to reload")?;
    let yaml = riffle_content::read::read_text(&card.path)?;
    let decks = default_decks(loaded)?;
    let mut g = Game::new(
        engine.clone(),
        GameConfig {
            seed: 1,
            decks,
            keep_log: false,
        },
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut live = riffle::live::Live::new(
        riffle_content::Loader::new(roots.to_vec()),
        game,
        engine,
        &loaded.cards,
    );
    let mut ms = Vec::new();
    engine_memory(&live, "before the reloads");
    for k in 0..RELOADS {
        std::fs::write(&card.path, format!("# edit {k}\n{yaml}"))?;
        let t = Instant::now();
        let outcomes = live.apply(std::slice::from_ref(&card.path));
        g.follow_reloads();
        ms.push(t.elapsed().as_secs_f64() * 1e3);
        if !matches!(
            outcomes.as_slice(),
            [riffle::live::Outcome::Reloaded { .. }]
        ) {
            std::fs::write(&card.path, &yaml)?;
            bail!("a reload of {} failed: {outcomes:?}", card.path.display());
        }
    }
    std::fs::write(&card.path, &yaml)?;
    engine_memory(&live, "after them");
    Ok(ms)
}

/// Prints the VM's memory after a full collection (stderr: the report stays one table or
/// one JSON object): the cards' old versions must not pile up.
fn engine_memory(live: &riffle::live::Live, when: &str) {
    let e = live.engine();
    e.collect_garbage();
    eprintln!(
        "script memory {when}: {:.1} MiB",
        e.script_memory() as f64 / (1 << 20) as f64
    );
}

impl Load {
    fn json(&self) -> Value {
        let ms = stats(&self.ms);
        let per_1000 = ms["median"].as_f64().unwrap_or(0.0) * 1000.0 / self.cards.max(1) as f64;
        json!({
            "runs": self.runs,
            "cards": self.cards,
            "synthetic_cards": self.synthetic,
            "ms": ms,
            "ms_per_1000_cards": per_1000,
            "reload_ms": stats(&self.reload_ms),
            "reloads": self.reload_ms.len(),
        })
    }
}

/// `{median, p95}` of `xs` by nearest rank (the median of an even count is the lower middle).
pub(super) fn stats(xs: &[f64]) -> Value {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let rank = |p: f64| -> f64 {
        if v.is_empty() {
            return 0.0;
        }
        let k = ((p * v.len() as f64).ceil() as usize).clamp(1, v.len());
        v[k - 1]
    };
    json!({"median": rank(0.5), "p95": rank(0.95)})
}

/// A duration in nanoseconds, with a unit that keeps three or four digits.
fn duration(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

/// A count with thousands separators.
fn count(n: f64) -> String {
    let s = format!("{:.0}", n.max(0.0));
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1 game`, `2,000 games`.
fn counted(n: &Value, word: &str) -> String {
    let n = n.as_f64().unwrap_or(0.0);
    format!("{} {word}{}", count(n), if n == 1.0 { "" } else { "s" })
}

/// A prompt cut in the middle to fit a column (rulesets may prompt with a whole target
/// description; the JSON has it in full).
fn short(prompt: &str) -> String {
    const MAX: usize = 40;
    let chars: Vec<char> = prompt.chars().collect();
    if chars.len() <= MAX {
        return prompt.to_string();
    }
    let tail = MAX / 3;
    let head: String = chars[..MAX - 1 - tail].iter().collect();
    let tail: String = chars[chars.len() - tail..].iter().collect();
    format!("{head}…{tail}")
}

/// Rows as aligned columns: the first left-aligned, the others right-aligned.
fn table(rows: &[Vec<String>]) -> Vec<String> {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    rows.iter()
        .map(|r| {
            let mut line = String::from(" ");
            for (c, cell) in r.iter().enumerate() {
                let pad = " ".repeat(width[c] - cell.chars().count());
                if c == 0 {
                    line.push_str(&format!(" {cell}{pad}"));
                } else {
                    line.push_str(&format!("  {pad}{cell}"));
                }
            }
            line.trim_end().to_string()
        })
        .collect()
}

/// The readable report, from the JSON one (so the two cannot disagree).
fn text(r: &Value) -> Vec<String> {
    let f = |v: &Value| v.as_f64().unwrap_or(0.0);
    let ns = |v: &Value| duration(f(v));
    let ms = |v: &Value| duration(f(v) * 1e6);
    let seats = match (r["players"].as_u64(), r["mode"].as_str()) {
        (Some(n), Some(m)) => format!(" ({n} players, {m})"),
        (Some(n), None) => format!(" ({n} players)"),
        _ => String::new(),
    };
    let mut out = vec![format!(
        "riffle bench: {}{seats}, seed {}, {} build{}",
        r["game"].as_str().unwrap_or(""),
        r["seed"],
        r["build"].as_str().unwrap_or(""),
        if r["build"] == "debug" {
            " (figures not representative: build with --release)"
        } else {
            ""
        }
    )];

    let p = &r["playouts"];
    out.push(String::new());
    out.push(format!(
        "Random playouts: {}, {}, {} in {:.2} s (log not kept)",
        counted(&p["games"], "game"),
        counted(&p["decisions"], "decision"),
        counted(&p["turns"], "turn"),
        f(&p["seconds"])
    ));
    out.extend(table(&[
        vec![
            "games/s".into(),
            format!("{:.1}", f(&p["games_per_second"])),
        ],
        vec!["decisions/s".into(), count(f(&p["decisions_per_second"]))],
        vec!["game, median".into(), ms(&p["game_ms"]["median"])],
        vec!["game, p95".into(), ms(&p["game_ms"]["p95"])],
        vec![
            "script errors, unfinished".into(),
            format!("{}, {}", p["script_errors"], p["unfinished"]),
        ],
        vec![
            "log hash".into(),
            p["log_hash"]
                .as_str()
                .unwrap_or("")
                .chars()
                .take(16)
                .collect(),
        ],
    ]));

    let k = &r["forks"];
    out.push(String::new());
    out.push(format!(
        "Fork cost by decision point: {} in {}",
        counted(&k["points"], "point"),
        counted(&k["games"], "game"),
    ));
    let state = |q: &Value| if q == true { "quiescent" } else { "suspended" };
    let mut rows = vec![vec![
        "prompt".into(),
        "state".into(),
        "points".into(),
        "fork median".into(),
        "p95".into(),
        "fork+answer median".into(),
        "p95".into(),
    ]];
    let row = |prompt: &str, g: &Value| {
        vec![
            prompt.to_string(),
            state(&g["quiescent"]).into(),
            count(f(&g["count"])),
            ns(&g["fork_ns"]["median"]),
            ns(&g["fork_ns"]["p95"]),
            ns(&g["fork_answer_ns"]["median"]),
            ns(&g["fork_answer_ns"]["p95"]),
        ]
    };
    for g in k["groups"].as_array().into_iter().flatten() {
        rows.push(row(&short(g["prompt"].as_str().unwrap_or("")), g));
    }
    for g in k["totals"].as_array().into_iter().flatten() {
        rows.push(row("(all)", g));
    }
    out.extend(table(&rows));
    out.push(format!(
        "  fork: {} forks and drops per quiescent point, {SUSPENDED_FORKS} where a script is \
         suspended (its replay comes with the first answer)",
        count(QUIESCENT_FORKS as f64)
    ));
    out.push(format!(
        "  fork+answer: {ANSWERS} forks per point, each then given the game's next answer"
    ));
    out.push(String::new());
    out.push("Fork at quiescent points by turn (flat if the game's size does not matter)".into());
    let mut rows = vec![vec![
        "turns".into(),
        "points".into(),
        "fork median".into(),
        "p95".into(),
    ]];
    for g in k["quiescent_by_turn"].as_array().into_iter().flatten() {
        rows.push(vec![
            g["turns"].as_str().unwrap_or("").into(),
            count(f(&g["count"])),
            ns(&g["fork_ns"]["median"]),
            ns(&g["fork_ns"]["p95"]),
        ]);
    }
    out.extend(table(&rows));

    let sr = &r["search"];
    out.push(String::new());
    out.push(format!(
        "Search: mcts at seat 0 with {} playouts an answer, random at the others, {}",
        sr["playouts_per_answer"],
        counted(&sr["games"], "game"),
    ));
    out.extend(table(&[
        vec!["answers searched".into(), count(f(&sr["answers"]))],
        vec!["answer, median".into(), ms(&sr["answer_ms"]["median"])],
        vec!["answer, p95".into(), ms(&sr["answer_ms"]["p95"])],
        vec![
            "playouts/s, median answer".into(),
            count(f(&sr["playouts_per_second"]["median"])),
        ],
        vec![
            "playouts/s, all answers".into(),
            count(f(&sr["playouts_per_second_overall"])),
        ],
        vec![
            "answered as greedy (in a script), forced".into(),
            format!("{}, {}", sr["greedy_answers"], sr["forced_answers"]),
        ],
    ]));
    let m = &r["memory"];
    out.push(String::new());
    out.push(format!(
        "Memory: {} held at once, {} decisions in",
        counted(&m["games"], "game"),
        m["decisions_in"]
    ));
    let kib = |v: &Value| format!("{:.1} KiB", f(v) / 1024.0);
    out.extend(table(&[
        vec!["per live game, log kept".into(), kib(&m["bytes_per_game"])],
        vec![
            "per live game, log not kept".into(),
            kib(&m["bytes_per_game_no_log"]),
        ],
        vec!["per fork, answered once".into(), kib(&m["bytes_per_fork"])],
    ]));

    let l = &r["load"];
    out.push(String::new());
    out.push(format!(
        "Load + validate + compile: {} ({} synthetic), {}",
        counted(&l["cards"], "card"),
        count(f(&l["synthetic_cards"])),
        counted(&l["runs"], "run"),
    ));
    let mut rows = vec![
        vec!["median".into(), ms(&l["ms"]["median"])],
        vec!["p95".into(), ms(&l["ms"]["p95"])],
        vec!["per 1,000 cards".into(), ms(&l["ms_per_1000_cards"])],
    ];
    if f(&l["reloads"]) > 0.0 {
        rows.push(vec![
            format!(
                "reload one card, median ({} reloads)",
                count(f(&l["reloads"]))
            ),
            ms(&l["reload_ms"]["median"]),
        ]);
        rows.push(vec![
            "reload one card, p95".into(),
            ms(&l["reload_ms"]["p95"]),
        ]);
    }
    out.extend(table(&rows));
    out
}
