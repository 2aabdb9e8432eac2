//! Players for Riffle games, in Rust: something that answers a seat's requests.
//!
//! - `random`, `first`: no thought, for tests and playouts.
//! - `greedy`: one ply. Each candidate answer is tried on a fork of the game and the result
//!   scored from the seat's own view (a game-independent score refined by the ruleset's
//!   `evaluation`, see [`Evaluation`]).
//! - `mcts`: information-set Monte Carlo tree search. Each playout starts from a copy of the
//!   game in which what the seat cannot see is dealt again ([`riffle_core::Game::redeal`]),
//!   so the search never reads an opponent's hand or the order of a deck.
//!
//! docs/agents.md says how to choose and tune them.

pub mod actions;
mod basic;
mod candidates;
pub mod encoding;
mod evaluation;
mod greedy;
mod mcts;
pub mod play;
pub mod sim;
mod spec;

use riffle_core::{Game, Request, Response};

pub use basic::{FirstAgent, RandomAgent};
pub use candidates::candidates;
pub use evaluation::Evaluation;
pub use greedy::GreedyAgent;
pub use mcts::{Budget, MctsAgent, MctsStats};
pub use spec::{AGENT_NAMES, AgentSpec, agent};

/// Something that answers requests.
pub trait Agent {
    /// The answer to `req` in `game`, or why this agent cannot answer (a person's input
    /// ended): the game then stops there, unfinished, rather than someone playing for them.
    fn respond(&mut self, game: &Game, req: &Request) -> Result<Response, String>;
}
