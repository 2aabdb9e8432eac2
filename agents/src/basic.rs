//! Agents that do not look at the game.

use riffle_core::{Game, Request, Response, Rng};

use crate::Agent;

/// Answers uniformly at random from the legal responses (seeded).
pub struct RandomAgent(pub Rng);

impl Agent for RandomAgent {
    fn respond(&mut self, _: &Game, req: &Request) -> Result<Response, String> {
        Ok(req.random_legal(&mut self.0))
    }
}

/// Always answers with the first legal response.
pub struct FirstAgent;

impl Agent for FirstAgent {
    fn respond(&mut self, _: &Game, req: &Request) -> Result<Response, String> {
        Ok(req.first_legal())
    }
}
