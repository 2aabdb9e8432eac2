//! Playing a game to its end: one agent per seat, a cap on decisions, and how it went.
//! Used by `riffle play`, `riffle sim`, the random-game tests and the benchmarks.

use std::rc::Rc;

use riffle_core::{Engine, Game, GameConfig, GameResult, MatchContext, Options, PlayerId};

use crate::Agent;

/// The seed of game `k` (0-based) of a run that starts at `seed`: `seed + k`, wrapping from
/// u64::MAX to 0. Below the wrap this is plain addition, so runs recorded before the wrap was
/// defined replay the same (same log hash).
pub fn game_seed(seed: u64, k: u64) -> u64 {
    seed.wrapping_add(k)
}

/// The seed of the agent at `seat` in a game of seed `game_seed` (`riffle play` and
/// `riffle bench` seed their agents alike, so the same seed plays the same game).
pub fn seat_seed(game_seed: u64, seat: usize) -> u64 {
    game_seed.wrapping_mul(31).wrapping_add(seat as u64)
}

/// How a played game went.
#[derive(Clone, Debug)]
pub struct Played {
    /// The result (None if the game did not finish: see `stopped`).
    pub result: Option<GameResult>,
    /// Why an unfinished game stopped.
    pub stopped: Option<Stopped>,
    /// Turns played.
    pub turns: u32,
    /// Decisions answered.
    pub decisions: u64,
    /// The log hash.
    pub hash: String,
    /// Script errors.
    pub errors: Vec<String>,
    /// The teams (0-based seats, each team's first seat first); every player alone when the
    /// ruleset forms none.
    pub teams: Vec<Vec<PlayerId>>,
}

/// Why a game stopped before its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// An agent could not answer (a person's input ended): its reason.
    Agent(String),
    /// [`DECISION_CAP`] decisions were taken.
    DecisionCap,
    /// No decision pending and no result: the kernel has nothing left to do.
    Stuck,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::Agent(why) => f.write_str(why),
            Stopped::DecisionCap => write!(f, "stopped at the cap of {DECISION_CAP} decisions"),
            Stopped::Stuck => f.write_str("no decision pending and no result"),
        }
    }
}

/// Most decisions one game may take before it is stopped as unfinished.
pub const DECISION_CAP: u64 = 200_000;

/// Plays a game to the end with one agent per seat, or until an agent cannot answer or
/// [`DECISION_CAP`] decisions were taken (then `Played::stopped` says which). `check` runs the
/// kernel's invariant checks after every step (slower; for tests). `on_step` sees the game
/// once it has started and after every decision.
pub fn play_game(
    engine: &Rc<Engine>,
    config: GameConfig,
    agents: &mut [Box<dyn Agent>],
    check: bool,
    on_step: impl FnMut(&Game),
) -> Result<(Game, Played), String> {
    play_game_with(
        engine,
        config,
        &Options::new(),
        &MatchContext::default(),
        agents,
        check,
        on_step,
    )
}

/// [`play_game`] with game options (by name; the others take their defaults) and the
/// results of the match's games before this one.
pub fn play_game_with(
    engine: &Rc<Engine>,
    config: GameConfig,
    options: &Options,
    context: &MatchContext,
    agents: &mut [Box<dyn Agent>],
    check: bool,
    on_step: impl FnMut(&Game),
) -> Result<(Game, Played), String> {
    play_game_between(
        engine,
        config,
        options,
        context,
        agents,
        check,
        on_step,
        |_| {},
    )
}

/// [`play_game_with`] with `between` run before each decision, with the game: a host's
/// chance to change it (`riffle play --watch` brings hot reloads in there).
#[allow(clippy::too_many_arguments)]
pub fn play_game_between(
    engine: &Rc<Engine>,
    config: GameConfig,
    options: &Options,
    context: &MatchContext,
    agents: &mut [Box<dyn Agent>],
    check: bool,
    mut on_step: impl FnMut(&Game),
    mut between: impl FnMut(&mut Game),
) -> Result<(Game, Played), String> {
    let mut game =
        Game::in_match(engine.clone(), config, options, context).map_err(|e| e.to_string())?;
    let mut decisions = 0u64;
    if check {
        game.check_invariants()?;
    }
    on_step(&game);
    let mut stopped = None;
    loop {
        between(&mut game);
        // Shared, not copied: a copy of every request cost 0.7% of a One Piece playout.
        let Some(req) = game.shared_request() else {
            break;
        };
        let p = req.player() as usize;
        let r = match agents[p % agents.len()].respond(&game, &req) {
            Ok(r) => r,
            Err(why) => {
                stopped = Some(Stopped::Agent(why));
                break;
            }
        };
        game.respond(req.player(), r).map_err(|e| e.to_string())?;
        decisions += 1;
        on_step(&game);
        if check {
            game.check_invariants()
                .map_err(|e| format!("after decision {decisions}: {e}"))?;
        }
        if decisions > DECISION_CAP {
            stopped = Some(Stopped::DecisionCap);
            break;
        }
    }
    let played = Played::of(&game, decisions, stopped);
    Ok((game, played))
}

impl Played {
    /// How `game` went after `decisions` answers; `stopped` says why it stopped early, if it
    /// did (a game with neither a result nor a reason is [`Stopped::Stuck`]).
    pub fn of(game: &Game, decisions: u64, stopped: Option<Stopped>) -> Played {
        let result = game.result();
        let stopped = match (&result, stopped) {
            (None, None) => Some(Stopped::Stuck),
            (_, s) => s,
        };
        Played {
            result,
            stopped,
            turns: game.turn(),
            decisions,
            hash: game.log_hash(),
            errors: game.errors().to_vec(),
            teams: game.teams(),
        }
    }
}
