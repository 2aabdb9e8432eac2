//! The playtest table: `riffle play` with a person at one seat or more. It shows each
//! person their view, the board and numbered choices, and takes commands between answers:
//! `undo` (back to their previous decision, by a fork kept before it), `save FILE` (the
//! position as a scenario file, checked at once), `load FILE [N]` (play on from a
//! scenario's position), `text N` and `card NAME` (read a card they may see:
//! `table_cards`), `help`, `quit`. With `--watch`, saved cards go live while the
//! person thinks (the decision is shown again with the new cards).

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use riffle::play::{Agent, DECISION_CAP, Played, Stopped};
use riffle::readable::{Narrator, board, translated};
use riffle::scenario::{File as ScenarioFile, export::position_scenario};
use riffle_core::{Game, Request, Response};

use super::play::{parse_answer, prompt};
use super::table_cards::{card_text, option_text};
use super::watch::GameReloads;

/// A line the person typed, or the end of their input.
pub(crate) enum Typed {
    Line(String),
    /// Input that is not text: ignored with a word.
    NotText,
    End,
    Failed(String),
}

/// Everything the table needs besides the game.
pub(crate) struct Table {
    /// One agent per seat; `None` where a person sits.
    pub agents: Vec<Option<Box<dyn Agent>>>,
    /// The language of card names for the people (None: printed names).
    pub lang: Option<String>,
    /// The game's id (for saved scenarios).
    pub game_id: String,
    /// The seed (saved scenarios start from it).
    pub seed: u64,
    /// Hot reloads (`--watch`).
    pub reloads: Option<GameReloads>,
    /// What the people type ([`read_lines`]).
    pub input: std::rc::Rc<mpsc::Receiver<Typed>>,
}

/// What the person asked for at a prompt.
enum Command {
    Answer(Response),
    Undo,
    Save(Option<PathBuf>),
    Load(PathBuf, usize),
    /// `text N`: the cards option N names.
    Text(usize),
    /// `card NAME`: a visible card by its name.
    Card(String),
    Help,
    Quit,
}

const HELP: &str = "commands: a number to answer; text N: the text and values of the card(s) \
option N names; card NAME: the text and values of a card you can see; undo (u): back to your \
previous decision; save [FILE]: the position as a scenario file; load FILE [N]: play on from \
scenario N of FILE; quit (q): stop here";

impl Table {
    /// Plays `game` to its end (or until the person quits or their input ends), telling it
    /// with `narrate` as it goes.
    pub(crate) fn play(mut self, mut game: Game, narrator: &mut Narrator) -> (Game, Played) {
        let input = self.input.clone();
        // Forks kept before each of the people's decisions (undo pops one).
        let mut history: Vec<Game> = Vec::new();
        let mut decisions = 0u64;
        let mut stopped = None;
        let mut saves = 0u32;
        for l in narrator.lines(&game) {
            println!("{l}");
        }
        'game: loop {
            if let Some(r) = self.reloads.as_mut()
                && r.take_in(&mut game)
            {
                for l in narrator.lines(&game) {
                    println!("{l}");
                }
            }
            let Some(req) = game.request().cloned() else {
                break;
            };
            let seat = req.player() as usize % self.agents.len();
            let r = match &mut self.agents[seat] {
                Some(agent) => match agent.respond(&game, &req) {
                    Ok(r) => r,
                    Err(why) => {
                        stopped = Some(Stopped::Agent(why));
                        break;
                    }
                },
                None => {
                    self.show(&game, &req);
                    loop {
                        print!("{}", prompt(&req));
                        let _ = std::io::stdout().flush();
                        let typed = self.wait(&input, &mut game, narrator);
                        let line = match typed {
                            Some(Typed::Line(l)) => l,
                            Some(Typed::NotText) => {
                                println!("that was not text: type the answer again");
                                continue;
                            }
                            Some(Typed::End) => {
                                println!("\nend of input: the game stops here, unfinished");
                                stopped = Some(Stopped::Agent(format!(
                                    "player {}'s input ended",
                                    req.player() + 1
                                )));
                                break 'game;
                            }
                            Some(Typed::Failed(e)) => {
                                stopped = Some(Stopped::Agent(format!(
                                    "cannot read player {}'s input: {e}",
                                    req.player() + 1
                                )));
                                break 'game;
                            }
                            None => {
                                // A reload changed the decision: show it again.
                                println!();
                                continue 'game;
                            }
                        };
                        match command(&req, &line) {
                            Ok(Command::Answer(r)) => {
                                history.push(game.fork());
                                break r;
                            }
                            Ok(Command::Undo) => match history.pop() {
                                Some(before) => {
                                    game = before;
                                    narrator.resume_at(&game);
                                    println!("undone: back to your previous decision");
                                    continue 'game;
                                }
                                None => println!("nothing to undo: this is your first decision"),
                            },
                            Ok(Command::Save(path)) => {
                                saves += 1;
                                self.save(&game, path, saves);
                            }
                            Ok(Command::Load(path, n)) => {
                                if let Some(g) = self.load(&game, &path, n) {
                                    history.push(std::mem::replace(&mut game, g));
                                    narrator.resume_at(&game);
                                    continue 'game;
                                }
                            }
                            Ok(Command::Text(n)) => {
                                let lang = self.lang.as_deref();
                                for l in option_text(&game, req.player(), lang, &req, n) {
                                    println!("{l}");
                                }
                            }
                            Ok(Command::Card(name)) => {
                                let lang = self.lang.as_deref();
                                for l in card_text(&game, req.player(), lang, &name) {
                                    println!("{l}");
                                }
                            }
                            Ok(Command::Help) => println!("{HELP}"),
                            Ok(Command::Quit) => {
                                println!("stopped: the game ends here, unfinished");
                                stopped = Some(Stopped::Agent("the player quit".into()));
                                break 'game;
                            }
                            Err(why) => println!("{why}"),
                        }
                    }
                }
            };
            if let Err(e) = game.respond(req.player(), r) {
                stopped = Some(Stopped::Agent(e.to_string()));
                break;
            }
            decisions += 1;
            for l in narrator.lines(&game) {
                println!("{l}");
            }
            if decisions > DECISION_CAP {
                stopped = Some(Stopped::DecisionCap);
                break;
            }
        }
        let played = Played::of(&game, decisions, stopped);
        (game, played)
    }

    /// The person's view, the board and the numbered choices.
    fn show(&self, game: &Game, req: &Request) {
        let p = req.player();
        let view = match &self.lang {
            Some(lang) => game.view_in(p, lang),
            None => game.view(p),
        };
        println!(
            "\n-- turn {}, player {} to decide ({}) --",
            view.turn,
            p + 1,
            req.prompt()
        );
        for line in board(game, &view) {
            println!("{line}");
        }
        // The request in the person's language: card names, and the labels the ruleset
        // words in it (`log.languages.<lang>.options`).
        let shown = match &self.lang {
            Some(lang) => translated(game, lang, req),
            None => req.clone(),
        };
        if let Request::Choose { options, .. } = &shown {
            for (i, o) in options.iter().enumerate() {
                println!("  {}. {}", i + 1, o.label);
            }
        }
    }

    /// The next thing typed; `None` when a hot reload changed the game meanwhile.
    fn wait(
        &mut self,
        input: &mpsc::Receiver<Typed>,
        game: &mut Game,
        narrator: &mut Narrator,
    ) -> Option<Typed> {
        loop {
            match input.recv_timeout(Duration::from_millis(100)) {
                Ok(t) => return Some(t),
                Err(mpsc::RecvTimeoutError::Disconnected) => return Some(Typed::End),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Some(r) = self.reloads.as_mut()
                        && r.take_in(game)
                    {
                        println!();
                        for l in narrator.lines(game) {
                            println!("{l}");
                        }
                        return None;
                    }
                }
            }
        }
    }

    /// Writes the position as a scenario file and runs it, so that the person knows the
    /// file reproduces the position.
    fn save(&self, game: &Game, path: Option<PathBuf>, n: u32) {
        let path = path.unwrap_or_else(|| {
            PathBuf::from(format!(
                "{}-turn{}-{n}.test.yaml",
                self.game_id,
                game.turn()
            ))
        });
        if game.turn() == 0 {
            println!("not saved: the game has not begun its first turn (a scenario starts in one)");
            return;
        }
        if !path.to_string_lossy().ends_with(".test.yaml") {
            println!(
                "not saved: a scenario file's name ends in .test.yaml ({} does not)",
                path.display()
            );
            return;
        }
        if path.exists() {
            println!("not saved: {} exists; give another name", path.display());
            return;
        }
        let name = format!("saved at turn {}", game.turn());
        let text = position_scenario(game, &self.game_id, &name, self.seed);
        if let Err(e) = riffle_content::write::write_file(&path, text.as_bytes()) {
            println!("not saved: {}: {e}", path.display());
            return;
        }
        let check = ScenarioFile::read(&path).map(|f| {
            let engine = game.engine().latest();
            f.run(&engine, None)
        });
        match check {
            Ok(outcomes) if outcomes.iter().all(|o| o.passed()) => println!(
                "saved {}: it sets this position up and passes; add steps and what should \
                 happen, then `riffle test {}`",
                path.display(),
                path.display()
            ),
            Ok(outcomes) => {
                println!(
                    "saved {}, but it does not reproduce this position yet:",
                    path.display()
                );
                for o in outcomes {
                    for f in o.failures {
                        println!("  {f}");
                    }
                }
            }
            Err(errors) => {
                println!("saved {}, but it does not read back:", path.display());
                for e in errors {
                    println!("  {e}");
                }
            }
        }
    }

    /// The position scenario `n` (1-based) of `path` sets up, on the game's newest engine.
    fn load(&self, game: &Game, path: &Path, n: usize) -> Option<Game> {
        // Only a scenario file is read: another file a person names (a typo, a system
        // file) is not, so none of its text is shown back.
        if !path.to_string_lossy().ends_with(".test.yaml") {
            println!(
                "not loaded: a scenario file's name ends in .test.yaml ({} does not)",
                path.display()
            );
            return None;
        }
        let file = match ScenarioFile::read(path) {
            Ok(f) => f,
            Err(errors) => {
                println!("not loaded:");
                for e in errors {
                    println!("  {e}");
                }
                return None;
            }
        };
        if n == 0 || n > file.len() {
            println!(
                "not loaded: {} has {} scenario(s); give a number from 1",
                path.display(),
                file.len()
            );
            return None;
        }
        let engine = game.engine().latest();
        match file.position(&engine, n - 1) {
            Ok(g) if g.players() == game.players() => {
                println!(
                    "loaded {} (scenario {n}: {})",
                    path.display(),
                    file.name(n - 1)
                );
                Some(g)
            }
            Ok(g) => {
                println!(
                    "not loaded: the scenario has {} players, this table {}",
                    g.players(),
                    game.players()
                );
                None
            }
            Err(e) => {
                println!("not loaded: {e}");
                None
            }
        }
    }
}

/// A command or an answer: the answer's format is [`parse_answer`]'s.
fn command(req: &Request, line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["undo" | "u"] => Ok(Command::Undo),
        ["help" | "?"] => Ok(Command::Help),
        ["quit" | "q"] => Ok(Command::Quit),
        ["save"] => Ok(Command::Save(None)),
        ["save", file] => Ok(Command::Save(Some(PathBuf::from(file)))),
        ["load", file] => Ok(Command::Load(PathBuf::from(file), 1)),
        ["load", file, n] => match n.parse::<usize>() {
            Ok(n) => Ok(Command::Load(PathBuf::from(file), n)),
            Err(_) => Err(format!(
                "load FILE N: '{}' is not a scenario number",
                super::play::quoted(n)
            )),
        },
        ["text", n] => match n.parse::<usize>() {
            Ok(n) => Ok(Command::Text(n)),
            Err(_) => Err(format!(
                "text N: '{}' is not an option number",
                super::play::quoted(n)
            )),
        },
        ["card", _, ..] => Ok(Command::Card(
            line.trim_start()["card".len()..].trim().to_string(),
        )),
        [w, ..]
            if [
                "save", "load", "undo", "u", "help", "quit", "q", "text", "card",
            ]
            .contains(w) =>
        {
            Err(HELP.to_string())
        }
        _ => parse_answer(req, line).map(Command::Answer),
    }
}

/// Reads stdin on a thread of its own, so that the table can take hot reloads while the
/// person thinks.
pub(crate) fn read_lines() -> mpsc::Receiver<Typed> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        loop {
            let mut line = String::new();
            let t = match stdin.read_line(&mut line) {
                Ok(0) => Typed::End,
                Ok(_) => Typed::Line(line),
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => Typed::NotText,
                Err(e) => Typed::Failed(e.to_string()),
            };
            let last = matches!(t, Typed::End | Typed::Failed(_));
            if tx.send(t).is_err() || last {
                return;
            }
        }
    });
    rx
}
