//! Agents the host seats itself (`create`'s `agents`): it answers their requests right after
//! each step, so a client can play against them. The agents are `riffle_agents`'; the host
//! only bounds what one answer may cost, since a session thread serves other games too.

use riffle_agents::{AgentSpec, Budget};
use riffle_core::Engine;

/// An agent playing a seat.
pub type Agent = Box<dyn riffle_agents::Agent>;

/// The agents a seat may be given, by name (docs/agents.md).
pub const AGENT_NAMES: &str = "random, first, greedy, mcts, mcts:N (N up to 1000 playouts)";

/// Most playouts an `mcts` seat may spend on one answer.
const MOST_PLAYOUTS: u32 = 1000;

/// Whether the agent called `name` searches (`mcts`): its answers cost up to
/// [`MOST_PLAYOUTS`] playouts each, on the session's thread.
pub fn searches(name: &str) -> bool {
    matches!(name.parse::<AgentSpec>(), Ok(AgentSpec::Mcts(_)))
}

/// The agent called `name` for `seat` of a game of seed `seed`, or why not. Seeded as
/// `riffle play` seeds its agents, so one seed plays one game. A budget by the clock is
/// refused: it would make the game depend on the server's load.
pub fn named(name: &str, engine: &Engine, seed: u64, seat: u8) -> Result<Agent, String> {
    let spec: AgentSpec = name.parse()?;
    match spec {
        AgentSpec::Mcts(Budget::Time(_)) => {
            return Err(format!(
                "agent '{name}': a budget in time is not hosted (give mcts:N playouts, N up to {MOST_PLAYOUTS})"
            ));
        }
        AgentSpec::Mcts(Budget::Playouts(n)) if n > MOST_PLAYOUTS => {
            return Err(format!(
                "agent '{name}': at most {MOST_PLAYOUTS} playouts an answer here"
            ));
        }
        _ => {}
    }
    let seat_seed = riffle_agents::play::seat_seed(seed, usize::from(seat));
    Ok(spec.build(engine, seat_seed))
}
