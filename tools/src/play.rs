//! Playing games: the agents and the loop that plays a game to its end (both
//! `riffle_agents`'), and the one-line result. Used by `riffle play`, the random-game tests
//! and the benchmarks.

use riffle_core::{GameResult, PlayerId};

pub use riffle_agents::play::{
    DECISION_CAP, Played, Stopped, game_seed, play_game, play_game_between, play_game_with,
    seat_seed,
};
pub use riffle_agents::{Agent, AgentSpec, FirstAgent, RandomAgent, agent};

/// A one-line result naming the winning team when the game has teams: "team 1 (players 1,
/// 3) wins (reason)"; otherwise as [`describe`].
pub fn describe_sides(result: &Option<GameResult>, teams: &[Vec<PlayerId>]) -> String {
    if let Some(r) = result
        && teams.iter().any(|t| t.len() > 1)
        && !r.winners.is_empty()
        && let Some(t) = teams.iter().position(|t| t.contains(&r.winners[0]))
    {
        let mut members = teams[t].clone();
        members.sort();
        let names: Vec<String> = members.iter().map(|p| (p + 1).to_string()).collect();
        return format!(
            "team {} (players {}) wins ({})",
            t + 1,
            names.join(", "),
            r.reason
        );
    }
    describe(result)
}

/// A one-line result.
pub fn describe(result: &Option<GameResult>) -> String {
    match result {
        Some(r) if r.winners.len() == 1 => {
            format!("player {} wins ({})", r.winners[0] + 1, r.reason)
        }
        Some(r) if r.winners.is_empty() => format!("draw ({})", r.reason),
        Some(r) => format!(
            "players {:?} win ({})",
            r.winners.iter().map(|p| p + 1).collect::<Vec<PlayerId>>(),
            r.reason
        ),
        None => "unfinished".into(),
    }
}
