//! Agents by name, as `--agents` and the host's `create` give them: `random`, `first`,
//! `greedy`, `mcts` (200 playouts an answer), `mcts:N` (N playouts) or `mcts:Nms` (N
//! milliseconds an answer).

use std::time::Duration;

use riffle_core::{Engine, Rng};

use crate::{Agent, Budget, Evaluation, FirstAgent, GreedyAgent, MctsAgent, RandomAgent};

/// The agents' names, for messages that list them.
pub const AGENT_NAMES: &[&str] = &["random", "first", "greedy", "mcts", "mcts:N", "mcts:Nms"];

/// Playouts per answer of a bare `mcts`.
pub const DEFAULT_PLAYOUTS: u32 = 200;
/// Most playouts or milliseconds an answer may be given (a typo of a few zeros would
/// otherwise stall a game for hours).
const MOST_BUDGET: u64 = 1_000_000;

/// An agent's name, read and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// `random`.
    Random,
    /// `first`.
    First,
    /// `greedy`.
    Greedy,
    /// `mcts`, `mcts:N`, `mcts:Nms`.
    Mcts(Budget),
}

impl std::str::FromStr for AgentSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<AgentSpec, String> {
        let s = s.trim();
        match s {
            "random" => return Ok(AgentSpec::Random),
            "first" => return Ok(AgentSpec::First),
            "greedy" => return Ok(AgentSpec::Greedy),
            "mcts" => return Ok(AgentSpec::Mcts(Budget::Playouts(DEFAULT_PLAYOUTS))),
            _ => {}
        }
        let Some(budget) = s.strip_prefix("mcts:") else {
            return Err(format!(
                "unknown agent '{s}' (the agents: {})",
                AGENT_NAMES.join(", ")
            ));
        };
        let (digits, ms) = match budget.strip_suffix("ms") {
            Some(d) => (d, true),
            None => (budget, false),
        };
        let n: u64 = digits
            .parse()
            .ok()
            .filter(|n| (1..=MOST_BUDGET).contains(n))
            .ok_or_else(|| {
                format!(
                    "agent '{s}': give mcts:N playouts or mcts:Nms milliseconds an answer, N from 1 to {MOST_BUDGET}"
                )
            })?;
        Ok(AgentSpec::Mcts(if ms {
            Budget::Time(Duration::from_millis(n))
        } else {
            Budget::Playouts(n as u32)
        }))
    }
}

impl AgentSpec {
    /// The agent, for a game of `engine`, seeded with `seed`.
    pub fn build(self, engine: &Engine, seed: u64) -> Box<dyn Agent> {
        match self {
            AgentSpec::Random => Box::new(RandomAgent(Rng::new(seed))),
            AgentSpec::First => Box::new(FirstAgent),
            AgentSpec::Greedy => Box::new(GreedyAgent::new(Evaluation::of(engine), seed)),
            AgentSpec::Mcts(b) => Box::new(MctsAgent::new(Evaluation::of(engine), b, seed)),
        }
    }
}

/// Makes an agent by name for a game of `engine` (see the module's names), seeded.
pub fn agent(name: &str, engine: &Engine, seed: u64) -> Result<Box<dyn Agent>, String> {
    Ok(name.parse::<AgentSpec>()?.build(engine, seed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_bad_ones_say_what_to_give() {
        assert_eq!("greedy".parse(), Ok(AgentSpec::Greedy));
        assert_eq!("mcts:50".parse(), Ok(AgentSpec::Mcts(Budget::Playouts(50))));
        assert_eq!(
            " mcts:20ms".parse(),
            Ok(AgentSpec::Mcts(Budget::Time(Duration::from_millis(20))))
        );
        let e = "mcts:0".parse::<AgentSpec>().unwrap_err();
        assert!(e.contains("N from 1"), "{e}");
        assert!("mcts:10s".parse::<AgentSpec>().is_err());
        let e = "minimax".parse::<AgentSpec>().unwrap_err();
        assert!(e.contains("greedy") && e.contains("mcts"), "{e}");
    }
}
