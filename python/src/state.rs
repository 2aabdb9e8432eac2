//! One game as an OpenSpiel-shaped state: current player, legal actions and their mask,
//! apply, returns, clone (a fork), serialize, information state, observations, and
//! `resample_from_infostate` (what the player cannot see, dealt again).

use std::collections::BTreeMap;
use std::rc::Rc;

use pyo3::prelude::*;
use riffle_agents::Agent;
use riffle_agents::actions::{ACTIONS, Stepper};
use riffle_agents::encoding::Encoding;
use riffle_core::{PlayerId, Response};

use crate::value_error;

/// `current_player()` once the game is over (OpenSpiel's `kTerminalPlayerId`).
pub const TERMINAL: i64 = -4;

/// What a game started from, for `serialize`.
pub(crate) struct Setup {
    pub game: String,
    pub content_hash: String,
    pub seed: u64,
    pub decks: Vec<String>,
    pub options: BTreeMap<String, String>,
}

/// A game in progress.
#[pyclass(unsendable, module = "riffle._riffle")]
pub struct GameState {
    pub(crate) stepper: Stepper,
    pub(crate) encoding: Rc<Encoding>,
    pub(crate) setup: Rc<Setup>,
    /// The actions taken through `apply_action`.
    pub(crate) history: Vec<usize>,
    /// Every answer the game was given, by whom: what `serialize` records.
    pub(crate) answers: Vec<(PlayerId, Response)>,
    /// Seats played by agents (`set_agents`): their names, and the agents.
    pub(crate) agents: Vec<Option<(String, Box<dyn Agent>)>>,
}

impl GameState {
    pub(crate) fn new(stepper: Stepper, encoding: Rc<Encoding>, setup: Rc<Setup>) -> GameState {
        GameState {
            stepper,
            encoding,
            setup,
            history: Vec::new(),
            answers: Vec::new(),
            agents: Vec::new(),
        }
    }

    pub(crate) fn apply(&mut self, a: usize) -> Result<(), String> {
        let p = self.stepper.current_player();
        if let Some(r) = self.stepper.apply(a)? {
            self.answers
                .push((p.expect("a legal action had a player"), r));
        }
        self.history.push(a);
        Ok(())
    }

    /// Gives the game `response` from `p` (a whole answer, as an agent gives it).
    pub(crate) fn answer(&mut self, p: PlayerId, response: Response) -> Result<(), String> {
        self.stepper
            .game
            .respond(p, response.clone())
            .map_err(|e| e.to_string())?;
        self.answers.push((p, response));
        Ok(())
    }

    /// The agents answer while one of them is asked (a pick in progress waits).
    pub(crate) fn run_agents(&mut self) -> Result<(), String> {
        for _ in 0..riffle_agents::play::DECISION_CAP {
            if !self.stepper.picks.is_empty() {
                return Ok(());
            }
            let Some(req) = self.stepper.game.request().cloned() else {
                return Ok(());
            };
            let p = req.player();
            let Some(Some((_, agent))) = self.agents.get_mut(p as usize) else {
                return Ok(());
            };
            let r = agent.respond(&self.stepper.game, &req)?;
            self.answer(p, r)?;
        }
        Ok(())
    }

    fn copy_with(&self, stepper: Stepper) -> GameState {
        let engine = self.stepper.game.engine().clone();
        GameState {
            stepper,
            encoding: self.encoding.clone(),
            setup: self.setup.clone(),
            history: self.history.clone(),
            answers: self.answers.clone(),
            // A copy's agents start afresh, seeded as the originals were.
            agents: self
                .agents
                .iter()
                .enumerate()
                .map(|(seat, a)| {
                    a.as_ref().map(|(name, _)| {
                        let seed = riffle_agents::play::seat_seed(self.setup.seed, seat);
                        let agent =
                            riffle_agents::agent(name, &engine, seed).expect("checked when set");
                        (name.clone(), agent)
                    })
                })
                .collect(),
        }
    }

    fn seat(&self, player: i64) -> PyResult<PlayerId> {
        let n = self.stepper.game.players() as i64;
        if (0..n).contains(&player) {
            Ok(player as PlayerId)
        } else {
            Err(value_error(format!(
                "no player {player}: players are 0 to {}",
                n - 1
            )))
        }
    }
}

#[pymethods]
impl GameState {
    /// The seat to act (from 0), or `TERMINAL` (-4) once the game is over.
    fn current_player(&self) -> i64 {
        self.stepper.current_player().map_or(TERMINAL, i64::from)
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.stepper.current_player().is_none()
    }

    /// The number of seats.
    fn num_players(&self) -> usize {
        self.stepper.game.players() as usize
    }

    /// The size of the action space: option i is action i, `DONE` is the last.
    fn num_distinct_actions(&self) -> usize {
        ACTIONS
    }

    /// The legal actions, ascending.
    fn legal_actions(&self) -> Vec<usize> {
        self.stepper.legal_actions()
    }

    /// One 0 or 1 per action.
    fn legal_actions_mask(&self) -> Vec<u8> {
        let mut m = vec![0u8; ACTIONS];
        for a in self.stepper.legal_actions() {
            m[a] = 1;
        }
        m
    }

    /// Takes an action; an illegal one raises ValueError and changes nothing. Seats given
    /// to agents (`set_agents`) then answer until someone else is asked.
    fn apply_action(&mut self, action: usize) -> PyResult<()> {
        self.apply(action).map_err(value_error)?;
        self.run_agents().map_err(value_error)
    }

    /// What an action means now ("Play Nami (cost 3)", "done").
    fn action_to_string(&self, action: usize) -> String {
        self.stepper.action_label(action)
    }

    /// Per seat: 1 won, -1 lost, 0 drawn or not over.
    fn returns(&self) -> Vec<f64> {
        let n = self.stepper.game.players() as usize;
        match self.stepper.game.result() {
            Some(r) if !r.winners.is_empty() => (0..n)
                .map(|p| {
                    if r.winners.contains(&(p as PlayerId)) {
                        1.0
                    } else {
                        -1.0
                    }
                })
                .collect(),
            _ => vec![0.0; n],
        }
    }

    /// A copy that goes on independently (a fork: fractions of a microsecond at a quiet
    /// point of the game).
    fn clone(&self) -> GameState {
        self.copy_with(self.stepper.fork())
    }

    fn __copy__(&self) -> GameState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> GameState {
        self.clone()
    }

    /// The actions taken so far.
    fn history(&self) -> Vec<usize> {
        self.history.clone()
    }

    /// JSON: game, content hash, seed, decks, options, every answer given (by whom), the
    /// picks in progress and the actions taken; `Content.deserialize` plays it again. (A
    /// copy from `resample_from_infostate` is not its answers: it serializes as the game it
    /// was dealt from.)
    fn serialize(&self) -> String {
        let s = &self.setup;
        let answers: Vec<serde_json::Value> = self
            .answers
            .iter()
            .map(|(p, r)| serde_json::json!({"player": p, "response": r}))
            .collect();
        let agents: BTreeMap<String, String> = self
            .agents
            .iter()
            .enumerate()
            .filter_map(|(i, a)| a.as_ref().map(|(n, _)| (i.to_string(), n.clone())))
            .collect();
        serde_json::json!({
            "game": s.game, "content_hash": s.content_hash, "seed": s.seed,
            "decks": s.decks, "options": s.options, "answers": answers,
            "picks": self.stepper.picks, "actions": self.history, "agents": agents,
        })
        .to_string()
    }

    /// Seats the host-side agents play (`{1: "greedy"}`: seat → random, first, greedy,
    /// mcts, mcts:N), seeded from the game's seed; they answer at once whenever asked, now
    /// and after every action.
    fn set_agents(&mut self, agents: BTreeMap<u8, String>) -> PyResult<()> {
        let n = self.stepper.game.players() as usize;
        let engine = self.stepper.game.engine().clone();
        let mut seats: Vec<Option<(String, Box<dyn Agent>)>> = (0..n).map(|_| None).collect();
        for (seat, name) in agents {
            let i = seat as usize;
            if i >= n {
                return Err(value_error(format!(
                    "no seat {seat}: seats are 0 to {}",
                    n - 1
                )));
            }
            let seed = riffle_agents::play::seat_seed(self.setup.seed, i);
            let agent = riffle_agents::agent(&name, &engine, seed).map_err(value_error)?;
            seats[i] = Some((name, agent));
        }
        self.agents = seats;
        self.run_agents().map_err(value_error)
    }

    /// The observation `riffle.env` uses: card rows, global vector and 64 option slots
    /// (card row, target row, picked; -1 where none), flat.
    fn flat_observation(&self, player: i64) -> PyResult<Vec<f32>> {
        let p = self.seat(player)?;
        Ok(crate::vector::flatten(&self.encoding, &self.stepper, p))
    }

    /// Everything `player` knows, as JSON: their view (with the pick in progress) and every
    /// event they were shown. Two states with the same string are one information state.
    fn information_state_string(&self, player: i64) -> PyResult<String> {
        let p = self.seat(player)?;
        let g = &self.stepper.game;
        Ok(serde_json::json!({
            "view": g.view(p),
            "picks": if self.stepper.current_player() == Some(p) { self.stepper.picks.clone() } else { Vec::new() },
            "events": g.events_for(p),
        })
        .to_string())
    }

    /// What `player` sees now, as JSON (the kernel's view).
    fn observation_string(&self, player: i64) -> PyResult<String> {
        let p = self.seat(player)?;
        serde_json::to_string(&self.stepper.game.view(p)).map_err(value_error)
    }

    /// What `player` sees now as numbers: (card rows, flat; global vector; options as
    /// card row, target row, picked), in the game's encoding (`encoding_version`).
    fn observation_tensor(&self, player: i64) -> PyResult<(Vec<f32>, Vec<f32>, Vec<i32>)> {
        let p = self.seat(player)?;
        let picks = if self.stepper.current_player() == Some(p) {
            &self.stepper.picks[..]
        } else {
            &[]
        };
        let o = self.encoding.encode(&self.stepper.game.view(p), picks);
        Ok((o.cards, o.global, o.options))
    }

    /// The encoding's version and sizes: (version, card rows, card width, global width).
    fn encoding(&self) -> (String, usize, usize, usize) {
        let e = &self.encoding;
        (
            e.version.clone(),
            riffle_agents::encoding::CARD_ROWS,
            e.card_width(),
            e.global_width(),
        )
    }

    /// The pending request as JSON (None when over): prompt, options with labels, min, max.
    fn request_json(&self) -> Option<String> {
        self.stepper
            .game
            .request()
            .and_then(|r| serde_json::to_string(r).ok())
    }

    /// A copy in which what `player` cannot see is dealt again at random (`seed`): hands,
    /// decks, face-down cards and their order; what they see and were shown stays. The
    /// copy looks the same to them (`information_state_string`). Raises ValueError inside
    /// an effect's question (a script suspended), or in a pick in progress.
    fn resample_from_infostate(&self, player: i64, seed: u64) -> PyResult<GameState> {
        let p = self.seat(player)?;
        let game = self.stepper.game.redeal(p, seed).map_err(value_error)?;
        let mut stepper = Stepper::new(game);
        stepper.picks = self.stepper.picks.clone();
        Ok(self.copy_with(stepper))
    }

    /// The log hash: the same game, the same hash.
    fn log_hash(&self) -> String {
        self.stepper.game.log_hash()
    }

    /// The turn number.
    fn turn(&self) -> u32 {
        self.stepper.game.turn()
    }

    /// Script errors so far.
    fn errors(&self) -> Vec<String> {
        self.stepper.game.errors().to_vec()
    }

    fn __str__(&self) -> String {
        let g = &self.stepper.game;
        match self.stepper.current_player() {
            Some(p) => format!("{} turn {}: player {p} to act", self.setup.game, g.turn()),
            None => format!(
                "{} over after {} turns: returns {:?}",
                self.setup.game,
                g.turn(),
                self.returns()
            ),
        }
    }
}
