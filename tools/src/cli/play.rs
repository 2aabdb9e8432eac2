//! `riffle play`: play games between agents and print a readable log or a summary.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use riffle::play::{
    Agent, AgentSpec, Played, Stopped, agent, describe_sides, game_seed, play_game_between,
    play_game_with, seat_seed,
};
use riffle::readable::Narrator;
use riffle_core::{
    DeckList, Game, GameConfig, MatchContext, OptionValue, Options, PlayerId, Request, Response,
};

use super::{FOUND_PROBLEMS, RootArgs, default_decks, load_engine};

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
    /// One agent per seat: random, first, greedy, mcts (mcts:N playouts or mcts:Nms an
    /// answer; docs/agents.md) or human (default: random for every seat).
    #[arg(long, value_delimiter = ',', value_parser = trimmed)]
    agents: Vec<String>,
    /// The number of seats (default: one per `--deck`, else the game's fewest players).
    /// Without `--deck`, the game's deck lists are dealt to the seats in turn.
    #[arg(long, value_name = "N")]
    players: Option<u8>,
    /// The game's format: the same as `--option mode=M` (Gundam: standard, battle-royal,
    /// team).
    #[arg(long, value_name = "M")]
    mode: Option<String>,
    /// Play this many games (1 to 1000000) and print a summary. Game k (from 0) plays seed
    /// seed+k, wrapping past 18446744073709551615 to 0. Exit 1 if a game had a script error
    /// or did not finish.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = games_count)]
    games: u64,
    /// Write the log of the (first) game to this file as JSON lines a reader needs no engine
    /// for: a header (format version, game, seed, result, log hash), then every event and
    /// decision with cards named, zones by name, players from 1 (docs/log-format.md).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Write a replay of the game to this file (`riffle replay FILE` plays it again): the
    /// content's hashes, the seed, the decks, the options and every step with the log hash
    /// after it (docs/replays.md). One game only, not with --watch.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// The language of the card names shown to a human player (`en`, `th`...). Default: the
    /// printed language, the names the rules use (game.yaml `names.printed`); a card without
    /// a name in this language shows its printed one.
    #[arg(long, value_name = "TAG")]
    lang: Option<String>,
    /// A game option, `name=value` (repeatable): the ruleset's `options` (a format, a
    /// level...). Options not given take their defaults.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// The games of this run form one match: each game's setup sees the results of the
    /// games before it (`ctx:match()`: who won, so that the loser may start the next). The
    /// match stops at a game that does not finish.
    #[arg(long = "match")]
    is_match: bool,
    /// Hot reload: watch the game's content while it is played; a saved card is checked
    /// and, without errors, plays its new version from the game's next decision (abilities
    /// of cards already in play included); the log records each change. One game only.
    #[arg(long)]
    watch: bool,
    /// Write where the game's scripts spent their time to this file: a sampling profile of
    /// the Lua run during the games (content loading left out), by function and by line,
    /// with the kernel's callbacks counted for the script that called them
    /// (docs/performance.md, "Where the scripts spend their time").
    #[arg(long, value_name = "FILE")]
    profile_lua: Option<PathBuf>,
    #[command(flatten)]
    roots: RootArgs,
}

/// A deck as the log names it: its name in `lang` (else any), its id and its sections' sizes.
fn deck_title(d: &riffle_content::Deck, lang: &str) -> String {
    let name = d
        .name
        .get(lang)
        .or_else(|| d.name.values().next())
        .cloned()
        .unwrap_or_default();
    let sections: Vec<String> = d
        .list
        .sections
        .iter()
        .map(|(s, cards)| format!("{s} {}", cards.values().sum::<u32>()))
        .collect();
    format!("{name} ({}: {})", d.id, sections.join(", "))
}

/// Whether `s` has the shape of the language tags card names are keyed by.
fn is_language_tag(s: &str) -> bool {
    let mut parts = s.split('-');
    let first = parts.next().unwrap_or_default();
    (2..=3).contains(&first.len())
        && first.chars().all(|c| c.is_ascii_lowercase())
        && parts.all(|p| (2..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// The prompt for `req`, naming the one format [`parse_answer`] accepts.
pub(super) fn prompt(req: &Request) -> String {
    match req {
        Request::Choose {
            options, min, max, ..
        } => {
            let n = options.len();
            let (min, max) = (*min as usize, (*max as usize).min(n));
            let none = if min == 0 {
                ", or an empty line for none"
            } else {
                ""
            };
            if min == max && min == 1 {
                format!("choose one: type its number (1-{n}): ")
            } else if min == max {
                format!("choose {min}: type {min} different numbers (1-{n}) separated by spaces: ")
            } else {
                format!(
                    "choose {min} to {max}: type different numbers (1-{n}) separated by spaces{none}: "
                )
            }
        }
        Request::Number { min, max, .. } => format!("type a number from {min} to {max}: "),
    }
}

/// A word a person typed, as a message quotes it: at most 40 characters, the rest counted
/// (a pasted megabyte is not echoed back).
pub(super) fn quoted(w: &str) -> String {
    const SHOWN: usize = 40;
    let n = w.chars().count();
    if n <= SHOWN {
        return w.to_string();
    }
    let head: String = w.chars().take(SHOWN).collect();
    format!("{head}… ({n} characters)")
}

/// A person's answer to `req`: exactly what [`prompt`] asks for, or a one-line reason.
/// Options are numbered from 1 on screen and from 0 in the response.
pub(super) fn parse_answer(req: &Request, line: &str) -> Result<Response, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let r = match req {
        Request::Choose {
            options, min, max, ..
        } => {
            let n = options.len();
            let (min, max) = (*min as usize, (*max as usize).min(n));
            let hint = if max == 1 {
                format!("type a number from 1 to {n}")
            } else {
                format!("type numbers from 1 to {n}")
            };
            if max == 1 && words.len() > 1 {
                return Err(format!("one number only: {hint}"));
            }
            let mut indices: Vec<u32> = Vec::new();
            for w in &words {
                // Digits only: no sign, no `1.`, no `1,2`.
                if !w.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(format!("'{}' is not an option number: {hint}", quoted(w)));
                }
                let k = w.parse::<usize>().ok().filter(|k| (1..=n).contains(k));
                let Some(k) = k else {
                    return Err(format!("{} is not an option: {hint}", quoted(w)));
                };
                let index = (k - 1) as u32;
                if indices.contains(&index) {
                    return Err(format!("{k} is there twice: choose each option once"));
                }
                indices.push(index);
            }
            let c = indices.len();
            if c < min || c > max {
                return Err(if min == max {
                    format!("choose exactly {min}, not {c}")
                } else {
                    format!("choose {min} to {max}, not {c}")
                });
            }
            Response::Choose { indices }
        }
        Request::Number { min, max, .. } => {
            let [w] = words[..] else {
                return Err(if words.is_empty() {
                    format!("type a number from {min} to {max}")
                } else {
                    format!("one number only: type a number from {min} to {max}")
                });
            };
            // An optional minus and digits: no `+`, no `1.0`, no `1e3`.
            let digits = w.strip_prefix('-').unwrap_or(w);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!(
                    "'{}' is not a whole number: type a number from {min} to {max}",
                    quoted(w)
                ));
            }
            // Too many digits for i64 is out of range as well.
            let Some(value) = w.parse::<i64>().ok().filter(|v| (min..=max).contains(&v)) else {
                return Err(format!(
                    "{} is out of range: type a number from {min} to {max}",
                    quoted(w)
                ));
            };
            Response::Number { value }
        }
    };
    // The kernel's own check, should it ever ask for more than the above.
    req.check(&r).map_err(|e| e.to_string())?;
    Ok(r)
}

/// The `game:` a deck list file names, if it can be read.
fn deck_game(path: &std::path::Path) -> Option<String> {
    let text = riffle_content::read::read_text(path).ok()?;
    let doc = riffle_content::yaml::parse(&text).ok()?;
    doc.value.get("game")?.as_str().map(String::from)
}

/// The arguments that decide the seats and options, as the user gave them (for errors), or
/// the number of seats when none was given.
fn seats_given(args: &Args, seats: usize) -> String {
    let mut parts = Vec::new();
    if let Some(n) = args.players {
        parts.push(format!("--players {n}"));
    }
    if let Some(m) = &args.mode {
        parts.push(format!("--mode {m}"));
    }
    if !args.options.is_empty() {
        parts.push("--option".to_string());
    }
    if parts.is_empty() {
        format!("{seats} seats")
    } else {
        parts.join(", ")
    }
}

/// `--games N`: a count from 1, said so for `-1` or `0` (not "unexpected argument").
fn games_count(s: &str) -> Result<u64, String> {
    match s.trim().parse::<i128>() {
        Ok(n) if n >= 1 && n <= u64::MAX as i128 => Ok(n as u64),
        Ok(n) => Err(format!("{n}: give a number of games, 1 or more")),
        Err(_) => Err(format!("{s:?}: give a number of games, 1 or more")),
    }
}

/// An agent's name without the spaces around it (`--agents "random, first"`).
fn trimmed(s: &str) -> Result<String, String> {
    Ok(s.trim().to_string())
}

/// `--option name=value` arguments as game options: each a name, `=`, a value; a name given
/// twice is refused. Whether the ruleset declares them is the kernel's check.
pub(crate) fn parse_options(args: &[String]) -> anyhow::Result<Options> {
    let mut out = Options::new();
    for a in args {
        let Some((name, value)) = a.split_once('=') else {
            bail!(
                "--option {a}: give NAME=VALUE (e.g. --option mode=team for Gundam; each game's options are in docs/reference/<game>.md)"
            );
        };
        let name = name.trim();
        if name.is_empty() {
            bail!("--option {a}: the name is missing before '='");
        }
        if out
            .insert(
                name.to_string(),
                OptionValue::Name(value.trim().to_string()),
            )
            .is_some()
        {
            bail!("--option {name}: given twice");
        }
    }
    Ok(out)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let profile = args.profile_lua.clone();
    let (paths, played) = (args.roots.search_paths(None)?, play(args));
    // The games started the profile (after loading); it is written whatever they came to.
    if let (Some(path), Some(p)) = (profile, riffle_core::profile::finish()) {
        let text = super::profile::report(&p, &paths);
        riffle_content::write::write_file(&path, text.as_bytes())
            .with_context(|| format!("--profile-lua {}", path.display()))?;
    }
    played
}

fn play(mut args: Args) -> anyhow::Result<ExitCode> {
    let mut options = parse_options(&args.options)?;
    if let Some(m) = &args.mode {
        if options.contains_key("mode") {
            bail!("--mode {m}: the mode is also given with --option mode=...; give it once");
        }
        options.insert("mode".into(), OptionValue::Name(m.clone()));
    }
    let paths = args.roots.search_paths(None)?;
    let (loaded, engine) = load_engine(&paths, &args.game)?;
    let lang = args
        .lang
        .clone()
        .unwrap_or_else(|| loaded.content.ruleset.manifest.names.printed.clone());
    // "Cinder Flag (rf-red, 51 cards)": the decks the log opens with.
    let mut titles: Vec<String> = Vec::new();
    let players = &loaded.content.ruleset.manifest.players;
    if let Some(n) = args.players
        && (n < players.min || n > players.max)
    {
        bail!(
            "--players {n}: {} is for {} to {} players",
            args.game,
            players.min,
            players.max
        );
    }
    let decks: Vec<DeckList> = if args.deck.is_empty() {
        let decks = match args.players {
            Some(n) => super::dealt_decks(&loaded, n as usize)?,
            None => default_decks(&loaded)?,
        };
        titles.extend(
            (0..decks.len()).map(|i| deck_title(&loaded.decks[i % loaded.decks.len()], &lang)),
        );
        decks
    } else {
        let mut v = Vec::new();
        for p in &args.deck {
            if p.is_dir() {
                bail!(
                    "--deck {}: a folder; give a deck list file (cardsets/<game>/decks/<deck>.yaml)",
                    p.display()
                );
            }
            if !p.is_file() {
                bail!("--deck {}: no such file", p.display());
            }
            // A deck list says its game: one of another game is one line that says so.
            if let Some(g) = deck_game(p)
                && g != args.game
            {
                bail!(
                    "--deck {}: a deck list of game '{g}', not '{}': give --game {g}",
                    p.display(),
                    args.game
                );
            }
            // One line on stderr: a deck's problems are joined with "; ".
            let d = riffle_content::Loader::new(Vec::new())
                .load_deck_file_with(p, engine.manifest(), engine.card_ids())
                .map_err(|ds| {
                    anyhow::anyhow!(
                        "{}",
                        ds.iter()
                            .map(|d| d.to_string())
                            .collect::<Vec<_>>()
                            .join("; ")
                    )
                })?;
            titles.push(deck_title(&d, &lang));
            v.push(d.list);
        }
        if let Some(n) = args.players
            && n as usize != v.len()
        {
            bail!(
                "--players {n}: give one --deck per seat ({n}), or leave --deck out (got {})",
                v.len()
            );
        }
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
    // Options first: the deck rules may depend on them, and so do the teams.
    // What the seats and options came from, to name it in an error; the first line of the
    // ruleset's message is the reason (a traceback helps no one here).
    let given = seats_given(&args, decks.len());
    riffle_content::setup::check_seating(&engine, &decks, &options).map_err(|e| match e {
        riffle_content::setup::Unseated::Rules(why) => anyhow::anyhow!("{given}: {why}"),
        illegal => anyhow::anyhow!("{illegal}"),
    })?;
    super::refuse_unscripted(&loaded, &engine, &decks)?;
    if args.agents.is_empty() {
        args.agents = vec!["random".to_string(); decks.len()];
    }
    if args.agents.len() != decks.len() {
        bail!(
            "--agents: give one agent per seat, {} for {} seats (got {})",
            decks.len(),
            decks.len(),
            args.agents.len()
        );
    }
    for a in args.agents.iter().filter(|a| *a != "human") {
        if let Err(e) = a.parse::<AgentSpec>() {
            bail!("--agents: {e}, or human");
        }
    }
    let human = args
        .agents
        .iter()
        .position(|a| a == "human")
        .map(|i| i as PlayerId);
    if human.is_some() && args.json {
        bail!("--json: not with a human agent (the prompts use the standard output)");
    }
    if let Some(lang) = &args.lang
        && !is_language_tag(lang)
    {
        bail!("--lang {lang:?}: not a language tag (en, ja, th, zh-Hant...)");
    }
    if args.games == 0 {
        bail!("--games: give at least 1");
    }
    if args.watch && args.games > 1 {
        bail!("--watch: one game at a time (leave out --games)");
    }
    if args.record.is_some() && args.games > 1 {
        bail!("--record: one game at a time (leave out --games)");
    }
    if args.record.is_some() && args.watch {
        bail!(
            "--record: not with --watch (a replay plays one version of the content; record the game after the edits)"
        );
    }
    if args.watch && args.json {
        bail!("--watch: not with --json (each change is told on the standard output)");
    }
    if args.games > MAX_GAMES {
        bail!(
            "--games: at most {MAX_GAMES} per run (got {}); for more, run again from another --seed",
            args.games
        );
    }
    // A destination that cannot be written fails now, not after the games.
    if let Some(path) = &args.log {
        riffle_content::write::check_destination(path).context("--log")?;
    }
    if let Some(path) = &args.record {
        riffle_content::write::check_destination(path).context("--record")?;
    }
    if let Some(path) = &args.profile_lua {
        riffle_content::write::check_destination(path).context("--profile-lua")?;
        riffle_core::profile::start();
    }
    // One agent per seat; None where a person sits (the playtest table asks them).
    let make_agents = |seed: u64| -> anyhow::Result<Vec<Option<Box<dyn Agent>>>> {
        let mut v = Vec::new();
        for (i, a) in args.agents.iter().enumerate() {
            if a == "human" {
                v.push(None);
            } else {
                v.push(Some(
                    agent(a, &engine, seat_seed(seed, i))
                        .map_err(|e| anyhow::anyhow!("--agents: {e}"))?,
                ));
            }
        }
        Ok(v)
    };
    let machines = |agents: Vec<Option<Box<dyn Agent>>>| -> Vec<Box<dyn Agent>> {
        agents.into_iter().flatten().collect()
    };
    // What people type, read once for the whole run (a reader of its own, so that the
    // table takes hot reloads while they think).
    let input = human.map(|_| std::rc::Rc::new(super::table::read_lines()));
    if args.games == 1 {
        let agents = make_agents(args.seed)?;
        let config = GameConfig {
            seed: args.seed,
            decks: decks.clone(),
            keep_log: true,
        };
        // The log is told as the game goes; with a person at the table it is theirs (no
        // hidden card of the opponent) and comes before each of their decisions.
        let narrator = std::cell::RefCell::new(Narrator::new(human, args.lang.clone()));
        let tell = !args.json;
        if tell {
            for (i, t) in titles.iter().enumerate() {
                println!("P{} plays {t}", i + 1);
            }
        }
        let mut reloads = if args.watch {
            Some(super::watch::game_reloads(
                &paths,
                &args.game,
                &engine,
                &loaded.cards,
            )?)
        } else {
            None
        };
        // The game's own time, as a run of games measures each: from its start to its end.
        let start = Instant::now();
        let (game, played) = if human.is_some() {
            let game = Game::with_options(engine.clone(), config, &options)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let table = super::table::Table {
                agents,
                lang: args.lang.clone(),
                game_id: args.game.clone(),
                seed: args.seed,
                reloads,
                input: input.clone().expect("a person sits"),
            };
            table.play(game, &mut narrator.borrow_mut())
        } else {
            let narrate = |g: &Game| {
                if tell {
                    for l in narrator.borrow_mut().lines(g) {
                        println!("{l}");
                    }
                }
            };
            play_game_between(
                &engine,
                config,
                &options,
                &MatchContext::default(),
                &mut machines(agents),
                false,
                narrate,
                |g| {
                    if let Some(r) = reloads.as_mut()
                        && r.take_in(g)
                    {
                        narrate(g);
                    }
                },
            )
            .map_err(anyhow::Error::msg)?
        };
        let secs = start.elapsed().as_secs_f64();
        write_log(&args, &game)?;
        if let Some(path) = &args.record {
            let header = riffle_content::replay::Header::new(
                &args.game,
                &loaded.manifest,
                args.seed,
                decks.clone(),
                options.clone(),
            );
            let replay = riffle_content::replay::Replay::of_game(header, &game)
                .map_err(|e| anyhow::anyhow!("--record: {e}"))?;
            riffle_content::write::write_file(path, replay.to_text().as_bytes())
                .context("--record")?;
        }
        let mut tally = Tally::new(decks.len());
        tally.add(args.seed, &played);
        if args.json {
            println!("{}", serde_json::to_string_pretty(&tally.json(secs, None))?);
        } else {
            let errors = match played.errors.len() {
                0 => String::new(),
                1 => ", 1 script error".to_string(),
                n => format!(", {n} script errors"),
            };
            println!(
                "{} after {} turns, {} decisions{errors} (log hash {})",
                describe_sides(&played.result, &played.teams),
                played.turns,
                played.decisions,
                &played.hash[..16]
            );
            // Problems on stderr too, so that they are seen even when stdout goes to a file.
            for e in &played.errors {
                eprintln!("script error: {}", first_line(e));
            }
            if let (None, Some(why)) = (&played.result, &played.stopped) {
                eprintln!("unfinished: {why}");
            }
        }
        return Ok(tally.exit_code());
    }
    let start = Instant::now();
    let mut tally = Tally::new(decks.len());
    // A bar only for a person watching: not into a pipe or a CI log, not over a human's prompts.
    let show_bar = super::progress::for_a_person() && human.is_none();
    let bar = super::progress::styled(
        args.games,
        show_bar,
        "{pos}/{len} games, {per_sec}, eta {eta} {msg}",
    );
    let mut cut_short = None;
    let mut context = MatchContext::default();
    for k in 0..args.games {
        let seed = game_seed(args.seed, k);
        let agents = make_agents(seed)?;
        let config = GameConfig {
            seed,
            decks: decks.clone(),
            keep_log: k == 0 && args.log.is_some(),
        };
        let (game, played) = match &input {
            // A person at the table: each game of the run is theirs to play.
            Some(input) => {
                let game = Game::in_match(engine.clone(), config, &options, &context)
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                let table = super::table::Table {
                    agents,
                    lang: args.lang.clone(),
                    game_id: args.game.clone(),
                    seed,
                    reloads: None,
                    input: input.clone(),
                };
                let mut narrator = Narrator::new(human, args.lang.clone());
                narrator.resume_at(&game);
                table.play(game, &mut narrator)
            }
            None => play_game_with(
                &engine,
                config,
                &options,
                &context,
                &mut machines(agents),
                false,
                |_| {},
            )
            .map_err(anyhow::Error::msg)?,
        };
        if k == 0 {
            write_log(&args, &game)?;
        }
        tally.add(seed, &played);
        bar.inc(1);
        if tally.script_errors > 0 || tally.unfinished > 0 {
            bar.set_message(format!(
                "({} script errors, {} unfinished)",
                tally.script_errors, tally.unfinished
            ));
        }
        if args.is_match {
            match &played.result {
                Some(r) => context.previous.push(r.clone()),
                None => {
                    cut_short = Some(format!(
                        "the match stopped after game {} of {}: it did not finish",
                        k + 1,
                        args.games
                    ));
                    break;
                }
            }
        }
        // A person who stopped answering stops the run: the next game would stop at once.
        if let Some(Stopped::Agent(why)) = &played.stopped {
            cut_short = Some(format!(
                "stopped after {} of {} games: {why}",
                k + 1,
                args.games
            ));
            break;
        }
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&tally.json(secs, cut_short.as_deref()))?
        );
    } else {
        for line in tally.text(secs, cut_short.as_deref()) {
            println!("{line}");
        }
    }
    Ok(tally.exit_code())
}

/// Most games one run may play (a typo's `--games 1000000000000` is refused, not started).
const MAX_GAMES: u64 = 1_000_000;

/// How many games, script errors or unfinished games a summary names one by one.
const NAMED: usize = 5;

/// The first line of a message (Lua tracebacks run over several), for one-line reports.
fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// What a run of games added up to, game by game (nothing per game is kept but the first few
/// problems, so a long run needs no more memory than a short one).
struct Tally {
    games: u64,
    wins: Vec<u64>,
    /// With teams: wins by team (each team's win counts once here, and once for each of its
    /// members in `wins`).
    team_wins: Vec<u64>,
    /// The teams (0-based seats), when the game has any.
    teams: Vec<Vec<PlayerId>>,
    draws: u64,
    unfinished: u64,
    turns: u64,
    decisions: u64,
    hasher: blake3::Hasher,
    script_errors: u64,
    games_with_errors: u64,
    /// The first games with script errors: seed, count, first message.
    error_games: Vec<(u64, usize, String)>,
    /// The first unfinished games: seed, why.
    unfinished_games: Vec<(u64, String)>,
}

impl Tally {
    fn new(seats: usize) -> Tally {
        Tally {
            games: 0,
            wins: vec![0; seats],
            team_wins: Vec::new(),
            teams: Vec::new(),
            draws: 0,
            unfinished: 0,
            turns: 0,
            decisions: 0,
            hasher: blake3::Hasher::new(),
            script_errors: 0,
            games_with_errors: 0,
            error_games: Vec::new(),
            unfinished_games: Vec::new(),
        }
    }

    fn add(&mut self, seed: u64, p: &Played) {
        self.games += 1;
        if p.teams.iter().any(|t| t.len() > 1) && self.teams.is_empty() {
            self.teams = p.teams.clone();
            self.team_wins = vec![0; p.teams.len()];
        }
        match &p.result {
            // A team's win: each member wins.
            Some(r) if !r.winners.is_empty() && !self.teams.is_empty() => {
                for w in &r.winners {
                    if let Some(n) = self.wins.get_mut(*w as usize) {
                        *n += 1;
                    }
                }
                if let Some(t) = self.teams.iter().position(|t| t.contains(&r.winners[0])) {
                    self.team_wins[t] += 1;
                }
            }
            Some(r) if r.winners.len() == 1 => {
                if let Some(w) = self.wins.get_mut(r.winners[0] as usize) {
                    *w += 1;
                }
            }
            Some(_) => self.draws += 1,
            None => {
                self.unfinished += 1;
                if self.unfinished_games.len() < NAMED {
                    let why = p
                        .stopped
                        .as_ref()
                        .map_or_else(|| "unfinished".into(), |s| s.to_string());
                    self.unfinished_games.push((seed, why));
                }
            }
        }
        self.turns += p.turns as u64;
        self.decisions += p.decisions;
        // The log hash of a run: blake3 over each game's log hash, in order.
        self.hasher.update(p.hash.as_bytes());
        if let Some(first) = p.errors.first() {
            self.script_errors += p.errors.len() as u64;
            self.games_with_errors += 1;
            if self.error_games.len() < NAMED {
                let first = first_line(first).to_string();
                self.error_games.push((seed, p.errors.len(), first));
            }
        }
    }

    /// 1 (FOUND_PROBLEMS) when a game had a script error or did not finish.
    fn exit_code(&self) -> ExitCode {
        if self.script_errors > 0 || self.unfinished > 0 {
            ExitCode::from(FOUND_PROBLEMS)
        } else {
            ExitCode::SUCCESS
        }
    }

    fn json(&self, secs: f64, cut_short: Option<&str>) -> serde_json::Value {
        let games = self.games as f64;
        let mut v = serde_json::json!({
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "unfinished": self.unfinished,
            "mean_turns": self.turns as f64 / games.max(1.0),
            "decisions": self.decisions,
            "seconds": secs,
            "games_per_second": if secs > 0.0 { games / secs } else { 0.0 },
            "decisions_per_second": if secs > 0.0 { self.decisions as f64 / secs } else { 0.0 },
            "script_errors": self.script_errors,
            "games_with_script_errors": self.games_with_errors,
            "script_error_games": self.error_games.iter().map(|(seed, n, first)| {
                serde_json::json!({"seed": seed, "errors": n, "first": first})
            }).collect::<Vec<_>>(),
            "unfinished_games": self.unfinished_games.iter().map(|(seed, why)| {
                serde_json::json!({"seed": seed, "why": why})
            }).collect::<Vec<_>>(),
            "stopped": cut_short,
            "log_hash": self.hasher.finalize().to_hex().to_string(),
        });
        if !self.teams.is_empty() {
            v["teams"] = serde_json::json!(
                self.teams
                    .iter()
                    .map(|t| t.iter().map(|p| p + 1).collect::<Vec<_>>())
                    .collect::<Vec<_>>()
            );
            v["team_wins"] = serde_json::json!(self.team_wins);
        }
        v
    }

    /// The text summary: one line of figures, then a line per kind of problem.
    fn text(&self, secs: f64, cut_short: Option<&str>) -> Vec<String> {
        let s = self.json(secs, cut_short);
        let mut out = vec![format!(
            "{} {}: wins {}, draws {}, unfinished {}, script errors {}, mean turns {:.1}, {:.1} games/s, {:.0} decisions/s, log hash {}",
            self.games,
            plural(self.games, "game"),
            self.wins
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join("/"),
            self.draws,
            self.unfinished,
            self.script_errors,
            s["mean_turns"].as_f64().unwrap_or(0.0),
            s["games_per_second"].as_f64().unwrap_or(0.0),
            s["decisions_per_second"].as_f64().unwrap_or(0.0),
            s["log_hash"].as_str().unwrap_or(""),
        )];
        if !self.teams.is_empty() {
            let teams: Vec<String> = self
                .teams
                .iter()
                .zip(&self.team_wins)
                .enumerate()
                .map(|(i, (t, w))| {
                    let members: Vec<String> = t.iter().map(|p| (p + 1).to_string()).collect();
                    format!("team {} (players {}) {w}", i + 1, members.join(", "))
                })
                .collect();
            out.push(format!("team wins: {}", teams.join(", ")));
        }
        if let Some((seed, _, first)) = self.error_games.first() {
            let games = plural(self.games_with_errors, "game");
            let seeds = if self.games_with_errors == 1 {
                String::new()
            } else {
                let seeds = self.error_games.iter().map(|(s, _, _)| s.to_string());
                format!("seeds {}; ", named(self.games_with_errors, seeds, ", "))
            };
            out.push(format!(
                "script errors: {} in {} {games} ({seeds}first: seed {seed}: {first})",
                self.script_errors, self.games_with_errors,
            ));
        }
        if self.unfinished > 0 {
            let games = self
                .unfinished_games
                .iter()
                .map(|(s, why)| format!("seed {s}: {why}"));
            out.push(format!(
                "unfinished: {} {} ({})",
                self.unfinished,
                plural(self.unfinished, "game"),
                named(self.unfinished, games, "; "),
            ));
        }
        if let Some(why) = cut_short {
            out.push(why.to_string());
        }
        out
    }
}

/// `word` or `words`.
fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        word.into()
    } else {
        format!("{word}s")
    }
}

/// The first few names, then "and N more".
fn named(total: u64, names: impl Iterator<Item = String>, sep: &str) -> String {
    let names: Vec<String> = names.collect();
    let more = total.saturating_sub(names.len() as u64);
    if more > 0 {
        format!("{}{sep}and {more} more", names.join(sep))
    } else {
        names.join(sep)
    }
}

fn write_log(args: &Args, game: &Game) -> anyhow::Result<()> {
    let Some(path) = &args.log else { return Ok(()) };
    let mut text = String::new();
    for line in riffle::log_file::lines(game, &args.game, args.seed) {
        text.push_str(&line);
        text.push('\n');
    }
    riffle_content::write::write_file(path, text.as_bytes()).context("--log")?;
    Ok(())
}
