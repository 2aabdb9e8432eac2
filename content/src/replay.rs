//! Replays: a played game as a file that plays it again (docs/replays.md).
//!
//! A replay holds what a game was started from (the game, the content's manifest with every
//! file's hash, the engine's version, the seed, the decks, the options) and every step a
//! player took (a response, or a concession), each with the log hash after it. Playing the
//! steps again on the same content and engine gives the same hashes: where one differs, the
//! replay says at which step, and why it may (which files changed, another engine).
//!
//! The file is JSON lines: a `header`, one `step` per line, then an `end`. Players are
//! counted from 1, as in every file Riffle writes.

use std::rc::Rc;

use riffle_core::{
    DeckList, Engine, Entry, Game, GameConfig, GameResult, MatchContext, Options, PlayerId,
    Response,
};
use serde::{Deserialize, Serialize};

use crate::manifest::ContentManifest;

/// The `format` of a replay's header.
pub const FORMAT: &str = "riffle-replay";
/// This format's version. A reader refuses a newer one; fields it does not know are ignored.
pub const VERSION: u32 = 1;
/// The engine that writes and reads replays: the workspace's version.
pub const ENGINE: &str = env!("CARGO_PKG_VERSION");

/// What a game was started from.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// The format's version ([`VERSION`] when written).
    pub version: u32,
    /// The engine's version that recorded it.
    pub engine: String,
    /// The game's id.
    pub game: String,
    /// The content it ran on: every file with its hash.
    pub content: ContentManifest,
    /// The game's seed.
    pub seed: u64,
    /// One deck list per seat.
    pub decks: Vec<DeckList>,
    /// The game options given (the others took their defaults).
    #[serde(default)]
    pub options: Options,
    /// The results of the match's games before this one (seats from 0, as the kernel).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub previous: Vec<GameResult>,
}

impl Header {
    /// What a game of `game` on `content`, started with this seed, decks and options (not
    /// in a match), starts from, written by this engine in this format.
    pub fn new(
        game: &str,
        content: &ContentManifest,
        seed: u64,
        decks: Vec<DeckList>,
        options: Options,
    ) -> Header {
        Header {
            format: FORMAT.into(),
            version: VERSION,
            engine: ENGINE.into(),
            game: game.into(),
            content: content.clone(),
            seed,
            decks,
            options,
            previous: Vec::new(),
        }
    }
}

/// One step a player took.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The seat, from 1.
    pub player: u32,
    /// What they did.
    #[serde(flatten)]
    pub act: Act,
    /// The log hash after it.
    pub hash: String,
}

/// What a player did at a step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Act {
    /// Answered the pending request (option indices from 0, as the request lists them).
    Response(Response),
    /// Conceded.
    Concede(bool),
}

/// How the recorded game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct End {
    /// The winners, from 1 (empty: a draw); none when the game did not finish.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winners: Option<Vec<u32>>,
    /// Why it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The log hash at the end.
    pub log_hash: String,
}

/// A whole replay.
#[derive(Clone, Debug)]
pub struct Replay {
    /// What the game started from.
    pub header: Header,
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// How it ended (None: the file was cut short).
    pub end: Option<End>,
}

/// One line of the file.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Line {
    Header(Box<Header>),
    Step(Step),
    End(End),
}

/// Where a replay played again parts from its recording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The step (from 1; 0: the game's start).
    pub step: usize,
    /// What differs.
    pub what: String,
}

/// A replay played again, up to a step or to where it diverged.
pub struct Rerun {
    /// The game after the last step that agreed (or the step asked for).
    pub game: Game,
    /// The steps played.
    pub steps: usize,
    /// Where it parted from the recording, if it did.
    pub diverged: Option<Divergence>,
}

impl Replay {
    /// The replay of `game`, started from `header` (its engine must be the game's): its steps
    /// are the decisions and concessions of the game's log, and each step's hash comes from
    /// playing them again. Refuses a game whose log does not tell it whole (kept without
    /// entries, or with hot reloads), and one that does not play again the same.
    pub fn of_game(header: Header, game: &Game) -> Result<Replay, String> {
        // (A game that kept no entries has no steps: playing it again tells it apart.)
        let log = game.log();
        let mut conceded: Vec<PlayerId> = Vec::new();
        let mut steps = Vec::new();
        for e in &log {
            match e {
                Entry::CardReloaded { card, .. } => {
                    return Err(format!(
                        "the game took a hot reload ({card}): a replay plays one version of the content, so it cannot be recorded"
                    ));
                }
                // A player who conceded is asked nothing more: a decision of theirs after it is
                // the kernel's first legal answer in a running effect, which conceding again
                // gives.
                Entry::Decision {
                    player, response, ..
                } if !conceded.contains(player) => steps.push(Step {
                    player: *player as u32 + 1,
                    act: Act::Response(response.clone()),
                    hash: String::new(),
                }),
                Entry::Event(ev)
                    if ev.name == "eliminated" && ev.reason.as_deref() == Some("concession") =>
                {
                    if let Some(p) = ev.player {
                        conceded.push(p);
                        steps.push(Step {
                            player: p as u32 + 1,
                            act: Act::Concede(true),
                            hash: String::new(),
                        });
                    }
                }
                _ => {}
            }
        }
        let mut replay = Replay {
            header,
            steps,
            end: Some(End {
                winners: game
                    .result()
                    .map(|r| r.winners.iter().map(|p| *p as u32 + 1).collect()),
                reason: game.result().map(|r| r.reason),
                log_hash: game.log_hash(),
            }),
        };
        // Each step's hash, from playing the steps again.
        let mut again = replay.start(game.engine().clone())?;
        for i in 0..replay.steps.len() {
            if let Err(e) = apply(&mut again, &replay.steps[i]) {
                return Err(format!(
                    "step {}: {e}: the game does not play again the same",
                    i + 1
                ));
            }
            replay.steps[i].hash = again.log_hash();
        }
        if again.log_hash() != game.log_hash() {
            return Err(format!(
                "played again, the game ends with log hash {} instead of {}: it cannot be recorded",
                again.log_hash(),
                game.log_hash()
            ));
        }
        Ok(replay)
    }

    /// The game at its start, on `engine`.
    pub fn start(&self, engine: Rc<Engine>) -> Result<Game, String> {
        let config = GameConfig {
            seed: self.header.seed,
            decks: self.header.decks.clone(),
            keep_log: true,
        };
        let context = MatchContext::after(self.header.previous.clone());
        Game::in_match(engine, config, &self.header.options, &context).map_err(|e| e.to_string())
    }

    /// Plays the steps again on `engine` up to step `until` (None: all of them), stopping at
    /// the first that does not agree with the recording.
    pub fn rerun(&self, engine: Rc<Engine>, until: Option<usize>) -> Result<Rerun, String> {
        let mut game = self.start(engine)?;
        let last = until.unwrap_or(self.steps.len()).min(self.steps.len());
        for (i, step) in self.steps[..last].iter().enumerate() {
            let before = game.fork();
            let what = match apply(&mut game, step) {
                Err(e) => Some(e),
                Ok(()) if game.log_hash() != step.hash => Some(format!(
                    "the log hash is {} where the recording has {}",
                    game.log_hash(),
                    step.hash
                )),
                Ok(()) => None,
            };
            if let Some(what) = what {
                return Ok(Rerun {
                    game: before,
                    steps: i,
                    diverged: Some(Divergence { step: i + 1, what }),
                });
            }
        }
        let diverged = match (&self.end, until) {
            (Some(end), None) if end.log_hash != game.log_hash() => Some(Divergence {
                step: last,
                what: format!(
                    "the game ends with log hash {} where the recording has {}",
                    game.log_hash(),
                    end.log_hash
                ),
            }),
            _ => None,
        };
        Ok(Rerun {
            game,
            steps: last,
            diverged,
        })
    }

    /// The file's text: JSON lines.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let mut line = |l: &Line| {
            out.push_str(&serde_json::to_string(l).expect("a replay serializes"));
            out.push('\n');
        };
        line(&Line::Header(Box::new(self.header.clone())));
        for s in &self.steps {
            line(&Line::Step(s.clone()));
        }
        if let Some(end) = &self.end {
            line(&Line::End(end.clone()));
        }
        out
    }

    /// Reads a replay's text; `name` (its path) starts each error, with the line.
    pub fn parse(text: &str, name: &str) -> Result<Replay, String> {
        let mut header = None;
        let mut steps = Vec::new();
        let mut end = None;
        for (i, raw) in text.lines().enumerate() {
            let at = format!("{name}:{}", i + 1);
            if raw.trim().is_empty() {
                continue;
            }
            let line: Line = serde_json::from_str(raw).map_err(|e| format!("{at}: {e}"))?;
            match line {
                Line::Header(h) if header.is_none() && i == 0 => {
                    if h.format != FORMAT {
                        return Err(format!("{at}: format {:?} is not {FORMAT:?}", h.format));
                    }
                    if h.version > VERSION {
                        return Err(format!(
                            "{at}: a version {} replay; this riffle reads version {VERSION} and older: update riffle",
                            h.version
                        ));
                    }
                    header = Some(*h);
                }
                Line::Header(_) => {
                    return Err(format!("{at}: a header can only be the first line"));
                }
                _ if header.is_none() => {
                    return Err(format!("{at}: the first line must be the replay's header"));
                }
                _ if end.is_some() => return Err(format!("{at}: a line after the end")),
                Line::Step(s) => steps.push(s),
                Line::End(e) => end = Some(e),
            }
        }
        let header = header.ok_or_else(|| format!("{name}: empty: no replay header"))?;
        Ok(Replay { header, steps, end })
    }
}

/// Takes `step` in `game`.
fn apply(game: &mut Game, step: &Step) -> Result<(), String> {
    let Some(p) = step
        .player
        .checked_sub(1)
        .and_then(|p| PlayerId::try_from(p).ok())
    else {
        return Err(format!("no player {}", step.player));
    };
    match &step.act {
        Act::Response(r) => {
            let Some(req) = game.request() else {
                return Err("the game asks nothing here".into());
            };
            if req.player() != p {
                return Err(format!(
                    "player {} is asked here, not player {}",
                    req.player() + 1,
                    step.player
                ));
            }
            game.respond(p, r.clone())
                .map_err(|e| format!("the response is refused: {e}"))
        }
        Act::Concede(_) => game.concede(p).map_err(|e| e.to_string()),
    }
}

/// What changed between the content a replay was recorded on and `now`: each file changed,
/// added or removed (`changed: cardsets/op01/OP01-001.lua`).
pub fn content_changes(recorded: &ContentManifest, now: &ContentManifest) -> Vec<String> {
    use std::collections::BTreeMap;
    let files = |m: &ContentManifest| -> BTreeMap<String, blake3::Hash> {
        m.files.iter().map(|f| (f.path.clone(), f.hash)).collect()
    };
    let (was, is) = (files(recorded), files(now));
    let mut out = Vec::new();
    for (path, hash) in &was {
        match is.get(path) {
            None => out.push(format!("removed: {path}")),
            Some(h) if h != hash => out.push(format!("changed: {path}")),
            _ => {}
        }
    }
    for path in is.keys().filter(|p| !was.contains_key(*p)) {
        out.push(format!("added: {path}"));
    }
    out
}
