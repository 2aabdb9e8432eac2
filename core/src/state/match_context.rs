//! Where a game stands in its match: the results of the games before it. A ruleset reads
//! it in `setup` (the previous game's loser chooses who starts, a best-of-three decider)
//! with `ctx:match()`. Plain data, fixed when the game starts.
//!
//! Seats are the same people from game to game: seat 2 of the previous game is seat 2
//! of this one. A client that seats players differently maps the results itself.

use crate::state::GameResult;

/// The games of this match already played, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchContext {
    /// Their results (a draw has no winners).
    pub previous: Vec<GameResult>,
}

impl MatchContext {
    /// A match in which `previous` were played before this game.
    pub fn after(previous: Vec<GameResult>) -> MatchContext {
        MatchContext { previous }
    }

    /// This game's number in the match, 1-based.
    pub fn game_number(&self) -> usize {
        self.previous.len() + 1
    }

    /// Whether a seat is beyond the `nplayers` of this game in some previous result:
    /// the error to give, if so.
    pub fn check_seats(&self, nplayers: u8) -> Result<(), String> {
        for (g, r) in self.previous.iter().enumerate() {
            if let Some(&p) = r.winners.iter().find(|&&p| p >= nplayers) {
                return Err(format!(
                    "match: game {} lists player {} as a winner, but this game has {nplayers} players",
                    g + 1,
                    p as u16 + 1
                ));
            }
        }
        Ok(())
    }
}
