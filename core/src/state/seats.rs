//! Seats and sides: the direction of play, the teams, the game's option values, and where
//! an open phase with several players is. Plain data, fixed when the game starts (the
//! direction may change by an operation).
//!
//! One function says who comes after whom: [`State::players_from`]. Everything "in turn
//! order" (trigger and replacement order, loop declarations, the next turn, `ctx:turn_order`,
//! `ctx:others`) goes through it, so it follows the direction and skips players who left.
//!
//! A *side* is a team; with no teams, every player is a side alone. The turn belongs to a
//! side: all its members are turn players, and `turn_player` is its first seat still in the
//! game (the team's list order), which also controls the rules' own abilities.

use crate::content::{Direction, OptionValue};
use crate::state::{PlayerId, State, ZoneId};

/// Who sits where and with whom.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seats {
    /// Which way play goes around the table.
    pub direction: Direction,
    /// The teams, each a list of seats with its first seat first.
    pub teams: Vec<Vec<PlayerId>>,
    /// Each seat's team: an index into `teams`.
    pub team_of: Vec<u8>,
    /// The game's option values, by declaration index.
    pub options: Vec<OptionValue>,
}

impl Seats {
    /// Every player a team alone.
    pub fn alone(nplayers: u8, direction: Direction, options: Vec<OptionValue>) -> Seats {
        Seats {
            direction,
            teams: (0..nplayers).map(|p| vec![p]).collect(),
            team_of: (0..nplayers).collect(),
            options,
        }
    }

    /// Teams as a ruleset gave them (0-based seats): every seat in exactly one non-empty
    /// team, or an error saying what is wrong.
    pub fn with_teams(
        nplayers: u8,
        teams: Vec<Vec<PlayerId>>,
        direction: Direction,
        options: Vec<OptionValue>,
    ) -> Result<Seats, String> {
        let mut team_of = vec![u8::MAX; nplayers as usize];
        if teams.len() > nplayers as usize {
            return Err(format!(
                "{} teams for {nplayers} players: each team needs a player",
                teams.len()
            ));
        }
        for (t, members) in teams.iter().enumerate() {
            if members.is_empty() {
                return Err(format!("team {} has no player", t + 1));
            }
            for &p in members {
                match team_of.get_mut(p as usize) {
                    None => {
                        return Err(format!(
                            "team {}: no player {} (players are 1..{nplayers})",
                            t + 1,
                            p as u16 + 1
                        ));
                    }
                    Some(slot) if *slot != u8::MAX => {
                        return Err(format!("player {} is in two teams", p + 1));
                    }
                    Some(slot) => *slot = t as u8,
                }
            }
        }
        if let Some(p) = team_of.iter().position(|t| *t == u8::MAX) {
            return Err(format!("player {} is in no team", p + 1));
        }
        Ok(Seats {
            direction,
            teams,
            team_of,
            options,
        })
    }

    /// Whether some team has more than one member.
    pub fn has_teams(&self) -> bool {
        self.teams.iter().any(|t| t.len() > 1)
    }
}

/// Where an open phase that asks several players is: who is asked, and how many have
/// passed in a row since the last action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Round {
    /// The player asked now (None: the first of the round).
    pub asked: Option<PlayerId>,
    /// Passes in a row.
    pub passes: u8,
}

impl State {
    /// Whether a player is still in the game.
    pub fn in_game(&self, p: PlayerId) -> bool {
        !self.players[p as usize].out
    }

    /// The seat after `p` in the direction of play, whether in the game or not.
    fn seat_after(&self, p: PlayerId) -> PlayerId {
        let n = self.nplayers;
        match self.seats.direction {
            Direction::Clockwise => (p + 1) % n,
            Direction::Counterclockwise => (p + n - 1) % n,
        }
    }

    /// The players still in the game in turn order starting with `p` (left out when not in
    /// the game), following the direction of play: the one order the kernel uses.
    pub fn players_from(&self, p: PlayerId) -> Vec<PlayerId> {
        let mut out = Vec::with_capacity(self.nplayers as usize);
        let mut q = p;
        for _ in 0..self.nplayers {
            if self.in_game(q) {
                out.push(q);
            }
            q = self.seat_after(q);
        }
        out
    }

    /// Players still in the game in turn order, starting with the turn player.
    pub fn turn_order(&self) -> Vec<PlayerId> {
        self.players_from(self.turn_player)
    }

    /// A player's team (an index into `seats.teams`).
    pub fn team_of(&self, p: PlayerId) -> u8 {
        self.seats.team_of[p as usize]
    }

    /// Whether `p` is on the side whose turn it is (a turn player).
    pub fn is_turn_of(&self, p: PlayerId) -> bool {
        self.team_of(p) == self.team_of(self.turn_player)
    }

    /// The members of the turn side still in the game, in turn order from the turn player.
    pub fn turn_side(&self) -> Vec<PlayerId> {
        let side = self.team_of(self.turn_player);
        self.turn_order()
            .into_iter()
            .filter(|p| self.team_of(*p) == side)
            .collect()
    }

    /// A side's first seat still in the game, in the team's own order.
    pub fn side_first(&self, team: u8) -> Option<PlayerId> {
        self.seats.teams[team as usize]
            .iter()
            .copied()
            .find(|p| self.in_game(*p))
    }

    /// The teams that still have a player in the game.
    pub fn sides_left(&self) -> Vec<u8> {
        (0..self.seats.teams.len() as u8)
            .filter(|t| self.side_first(*t).is_some())
            .collect()
    }

    /// Who takes the next turn: the first seat of the side of the nearest player, in the
    /// direction of play from the turn player, who is on another side (so with seats
    /// A1 B1 A2 B2 the sides alternate). The same side again when no other is left.
    pub fn next_turn_player(&self) -> PlayerId {
        self.next_side_after(self.turn_player)
    }

    /// The first seat of the side of the nearest player after `p`, in the direction of
    /// play, who is on another side than `p` (`p`'s side again when no other is left).
    pub fn next_side_after(&self, p: PlayerId) -> PlayerId {
        let side = self.team_of(p);
        let next = self
            .players_from(p)
            .into_iter()
            .find(|q| self.team_of(*q) != side)
            .map(|q| self.team_of(q))
            .unwrap_or(side);
        self.side_first(next).unwrap_or(p)
    }

    /// The turn player the side of `p` would have: its first seat still in the game.
    pub fn first_of_side(&self, p: PlayerId) -> PlayerId {
        self.side_first(self.team_of(p)).unwrap_or(p)
    }

    /// Whether `p` holds zone `z`: its owner, or a member of the team it belongs to.
    pub fn holds(&self, z: ZoneId, p: PlayerId) -> bool {
        let zone = self.zone(z);
        match zone.team {
            Some(t) => self.team_of(p) == t,
            None => zone.owner == Some(p),
        }
    }

    /// Winners as a result lists them: with teams, every member of each winner's team, in
    /// seat order; without, as given.
    pub fn winning_sides(&self, winners: Vec<PlayerId>) -> Vec<PlayerId> {
        if !self.seats.has_teams() {
            return winners;
        }
        (0..self.nplayers)
            .filter(|p| winners.iter().any(|w| self.team_of(*w) == self.team_of(*p)))
            .collect()
    }
}
