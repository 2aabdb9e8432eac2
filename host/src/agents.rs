//! Agents the host seats itself (`create`'s `agents`): it answers their requests right after
//! each step, so a client can play against them. Small on purpose: the agents' home may later
//! be a crate of its own, behind the same [`Agent::named`] and [`Agent::decide`].

use riffle_core::{Request, Response, Rng};

/// The agents a seat may be given, by name.
pub const AGENT_NAMES: [&str; 2] = ["random", "first"];

/// An agent playing a seat.
pub enum Agent {
    /// A legal answer drawn at random (its own generator, seeded from the game's seed).
    Random(Rng),
    /// Always the first legal answer.
    First,
}

impl Agent {
    /// The agent called `name` for `seat` of a game of seed `seed`, or None for an unknown
    /// name. Seeded as `riffle play` seeds its agents, so one seed plays one game.
    pub fn named(name: &str, seed: u64, seat: u8) -> Option<Agent> {
        match name {
            "random" => Some(Agent::Random(Rng::new(seat_seed(seed, seat)))),
            "first" => Some(Agent::First),
            _ => None,
        }
    }

    /// Its answer to `req`.
    pub fn decide(&mut self, req: &Request) -> Response {
        match self {
            Agent::Random(rng) => req.random_legal(rng),
            Agent::First => req.first_legal(),
        }
    }
}

/// The seed of the agent at `seat` in a game of seed `seed` (as `riffle play` seeds its own).
fn seat_seed(seed: u64, seat: u8) -> u64 {
    seed.wrapping_mul(31).wrapping_add(u64::from(seat))
}
