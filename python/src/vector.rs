//! Many games stepped at once on Rust threads, without the GIL: one seat learns, the others
//! are played by a fixed agent (random, greedy, mcts...). Each thread loads the content and
//! holds its share of the games (an engine is one thread's).

use std::path::PathBuf;
use std::sync::mpsc;

use pyo3::prelude::*;
use riffle_agents::actions::{ACTIONS, Stepper};
use riffle_agents::encoding::{CARD_ROWS, Encoding};
use riffle_agents::play::seat_seed;
use riffle_agents::{Agent, AgentSpec};
use riffle_core::PlayerId;

use crate::content::{Content, search_paths};
use crate::value_error;

/// Options of the flat observation (3 numbers each); the mask covers every action.
pub const OPTION_SLOTS: usize = 64;

/// A flat observation: card rows, global vector, option slots (-1 where no option).
pub fn flatten(enc: &Encoding, s: &Stepper, seat: PlayerId) -> Vec<f32> {
    let picks = if s.current_player() == Some(seat) {
        &s.picks[..]
    } else {
        &[]
    };
    let o = enc.encode(&s.game.view(seat), picks);
    let mut v = o.cards;
    v.extend(o.global);
    let mut opts = vec![-1f32; 3 * OPTION_SLOTS];
    for (i, x) in o.options.iter().take(3 * OPTION_SLOTS).enumerate() {
        opts[i] = *x as f32;
    }
    v.extend(opts);
    v
}

/// The flat observation's size for `enc`.
pub fn flat_size(enc: &Encoding) -> usize {
    CARD_ROWS * enc.card_width() + enc.global_width() + 3 * OPTION_SLOTS
}

struct Slot {
    stepper: Stepper,
    others: Vec<Box<dyn Agent>>,
    episode: u64,
}

/// The other seats answer until `seat` must act or the game is over.
fn play_others(seat: PlayerId, slot: &mut Slot) {
    while let Some(p) = slot.stepper.current_player() {
        if p == seat {
            return;
        }
        let Some(req) = slot.stepper.game.request().cloned() else {
            return;
        };
        let r = slot.others[p as usize]
            .respond(&slot.stepper.game, &req)
            .unwrap_or_else(|_| req.first_legal());
        if slot.stepper.game.respond(p, r).is_err() {
            return;
        }
    }
}

/// One thread's share of the games.
struct Worker {
    content: Content,
    encoding: Encoding,
    seat: PlayerId,
    opponent: AgentSpec,
    decks: Option<Vec<String>>,
    players: u8,
    /// The games' indices among all `n`, and the games (once reset).
    indices: Vec<usize>,
    slots: Vec<Slot>,
    n: usize,
    seed: u64,
}

/// One game's step: its index, observation, mask, reward, terminated.
type StepOut = (usize, Vec<f32>, Vec<u8>, f64, bool);

enum Command {
    Reset(u64),
    Step(std::sync::Arc<Vec<usize>>),
}

impl Worker {
    /// Game `index`'s episode `episode`: seed `seed + episode × n + index`.
    fn new_game(&self, index: usize, episode: u64) -> Result<Slot, String> {
        let seed = self
            .seed
            .wrapping_add(episode.wrapping_mul(self.n as u64))
            .wrapping_add(index as u64);
        let g = self.content.start(
            seed,
            self.decks.clone(),
            Some(self.players),
            Default::default(),
        )?;
        let others = (0..self.players as usize)
            .map(|p| {
                self.opponent
                    .build(&self.content.engine, seat_seed(seed, p))
            })
            .collect();
        let mut slot = Slot {
            stepper: g.stepper,
            others,
            episode,
        };
        play_others(self.seat, &mut slot);
        Ok(slot)
    }

    fn out(&self, index: usize, slot: &Slot, reward: f64, done: bool) -> StepOut {
        let mut mask = vec![0u8; ACTIONS];
        for a in slot.stepper.legal_actions() {
            mask[a] = 1;
        }
        let obs = flatten(&self.encoding, &slot.stepper, self.seat);
        (index, obs, mask, reward, done)
    }

    fn reward(&self, slot: &Slot) -> f64 {
        match slot.stepper.game.result() {
            Some(r) if r.winners.contains(&self.seat) => 1.0,
            Some(r) if !r.winners.is_empty() => -1.0,
            _ => 0.0,
        }
    }

    fn run(&mut self, cmd: Command) -> Result<Vec<StepOut>, String> {
        let mut out = Vec::new();
        match cmd {
            Command::Reset(seed) => {
                self.seed = seed;
                self.slots.clear();
                for k in 0..self.indices.len() {
                    let i = self.indices[k];
                    let slot = self.new_game(i, 0)?;
                    out.push(self.out(i, &slot, 0.0, false));
                    self.slots.push(slot);
                }
            }
            Command::Step(actions) => {
                if self.slots.len() != self.indices.len() {
                    return Err("step before reset: call reset() first".into());
                }
                for k in 0..self.slots.len() {
                    let i = self.indices[k];
                    let seat = self.seat;
                    let slot = &mut self.slots[k];
                    // An illegal action ends the episode as a loss (Gymnasium has no refusal).
                    let legal = slot.stepper.apply(actions[i]).is_ok();
                    if legal {
                        play_others(seat, slot);
                    }
                    let slot = &self.slots[k];
                    if legal && slot.stepper.current_player().is_some() {
                        out.push(self.out(i, slot, 0.0, false));
                        continue;
                    }
                    let reward = if legal { self.reward(slot) } else { -1.0 };
                    let next = self.new_game(i, slot.episode + 1)?;
                    out.push(self.out(i, &next, reward, true));
                    self.slots[k] = next;
                }
            }
        }
        Ok(out)
    }
}

/// Step results gathered from the threads, flat in game order: observations as bytes (f32,
/// little-endian: numpy reads them at once, where a list of floats cost most of a step),
/// masks, rewards, terminated.
type Batch = (Vec<u8>, Vec<u8>, Vec<f64>, Vec<bool>);

/// `n` games of one game on `threads` threads; `seat` learns, the others play `opponent`.
/// `reset` and `step` run without the GIL and return flat arrays: observations (n × size),
/// masks (n × ACTIONS), rewards, terminated. A finished game starts the next at once: its
/// final reward and `terminated` come with the new game's first observation.
#[pyclass(module = "riffle._riffle")]
pub struct VectorGames {
    senders: Vec<mpsc::Sender<Command>>,
    replies: std::sync::Mutex<mpsc::Receiver<Result<Vec<StepOut>, String>>>,
    n: usize,
    size: usize,
}

impl VectorGames {
    fn gather(&self, py: Python<'_>, make: impl Fn() -> Command) -> PyResult<Batch> {
        for s in &self.senders {
            s.send(make())
                .map_err(|_| value_error("a worker thread stopped"))?;
        }
        let (n, size, threads) = (self.n, self.size, self.senders.len());
        let replies = &self.replies;
        py.detach(|| {
            let replies = replies.lock().map_err(|_| "a worker failed".to_string())?;
            let mut obs = vec![0f32; n * size];
            let mut masks = vec![0u8; n * ACTIONS];
            let mut rewards = vec![0f64; n];
            let mut done = vec![false; n];
            for _ in 0..threads {
                let outs = replies
                    .recv()
                    .map_err(|_| "a worker thread stopped".to_string())??;
                for (i, o, m, r, d) in outs {
                    obs[i * size..(i + 1) * size].copy_from_slice(&o);
                    masks[i * ACTIONS..(i + 1) * ACTIONS].copy_from_slice(&m);
                    rewards[i] = r;
                    done[i] = d;
                }
            }
            let obs = obs.iter().flat_map(|f| f.to_le_bytes()).collect();
            Ok::<_, String>((obs, masks, rewards, done))
        })
        .map_err(value_error)
    }
}

#[pymethods]
impl VectorGames {
    #[new]
    #[pyo3(signature = (game, n, threads=2, seat=0, opponent="random", players=None, decks=None, paths=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &str,
        n: usize,
        threads: usize,
        seat: u8,
        opponent: &str,
        players: Option<u8>,
        decks: Option<Vec<String>>,
        paths: Option<Vec<PathBuf>>,
    ) -> PyResult<VectorGames> {
        if n == 0 || n > 100_000 {
            return Err(value_error("n: from 1 to 100000 games"));
        }
        let opponent: AgentSpec = opponent.parse().map_err(value_error)?;
        let paths = search_paths(paths)?;
        // Checked once here: the threads then only fail on what cannot be foreseen.
        let probe = Content::load(game, paths.clone()).map_err(value_error)?;
        let players = players
            .or(decks.as_ref().map(|d| d.len() as u8))
            .unwrap_or(probe.players.0);
        if seat >= players {
            return Err(value_error(format!(
                "seat {seat}: the game has {players} seats (from 0)"
            )));
        }
        let g = probe
            .start(1, decks.clone(), Some(players), Default::default())
            .map_err(value_error)?;
        let size = flat_size(&g.encoding);
        let threads = threads.clamp(1, n);
        let (reply_tx, replies) = mpsc::channel();
        let mut senders = Vec::new();
        for t in 0..threads {
            let (tx, rx) = mpsc::channel::<Command>();
            senders.push(tx);
            let reply = reply_tx.clone();
            let (game, paths, decks) = (game.to_string(), paths.clone(), decks.clone());
            let indices: Vec<usize> = (t..n).step_by(threads).collect();
            std::thread::spawn(move || {
                let content = match Content::load(&game, paths) {
                    Ok(c) => c,
                    Err(e) => {
                        let _ = reply.send(Err(e));
                        return;
                    }
                };
                let encoding = Encoding::of(&content.engine, players as usize);
                let mut w = Worker {
                    content,
                    encoding,
                    seat: seat as PlayerId,
                    opponent,
                    decks,
                    players,
                    indices,
                    slots: Vec::new(),
                    n,
                    seed: 0,
                };
                // Ends when the VectorGames is dropped (its senders with it).
                for cmd in rx {
                    if reply.send(w.run(cmd)).is_err() {
                        return;
                    }
                }
            });
        }
        Ok(VectorGames {
            senders,
            replies: std::sync::Mutex::new(replies),
            n,
            size,
        })
    }

    /// The number of games.
    #[getter]
    fn n(&self) -> usize {
        self.n
    }

    /// The flat observation's size.
    #[getter]
    fn observation_size(&self) -> usize {
        self.size
    }

    /// Deals every game again (game i plays seed `seed + i`, then `seed + i + n`...).
    fn reset(&self, py: Python<'_>, seed: u64) -> PyResult<Batch> {
        self.gather(py, || Command::Reset(seed))
    }

    /// One action per game (the learner's).
    fn step(&self, py: Python<'_>, actions: Vec<usize>) -> PyResult<Batch> {
        if actions.len() != self.n {
            return Err(value_error(format!(
                "give one action per game: {} (got {})",
                self.n,
                actions.len()
            )));
        }
        let actions = std::sync::Arc::new(actions);
        self.gather(py, || Command::Step(actions.clone()))
    }
}
