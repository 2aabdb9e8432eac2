//! What a position is worth to a seat, read from that seat's own view: an agent that
//! scores with it cannot peek at cards it could not see.

use riffle_core::views::PlayerView;
use riffle_core::{CardWorth, Engine, Game, PlayerId};

/// The score of a game won (lost: its negative); a decided game outweighs any position.
pub const WON: f64 = 1.0e6;

/// The ruleset's `evaluation` (game.yaml), ready to score views. Without one every
/// undecided position is worth the same, and only the end of the game tells answers apart.
#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    zones: Vec<(String, f64)>,
    players: Vec<(String, f64)>,
    cards: Vec<CardWorth>,
}

impl Evaluation {
    /// The evaluation `engine`'s ruleset declares.
    pub fn of(engine: &Engine) -> Evaluation {
        match &engine.manifest().evaluation {
            Some(e) => Evaluation {
                zones: e.zones.iter().map(|(z, w)| (z.clone(), *w)).collect(),
                players: e.players.iter().map(|(v, w)| (v.clone(), *w)).collect(),
                cards: e.cards.clone(),
            },
            None => Evaluation::default(),
        }
    }

    /// Whether the ruleset declares anything to weigh.
    pub fn is_empty(&self) -> bool {
        self.zones.is_empty() && self.players.is_empty() && self.cards.is_empty()
    }

    /// How good `game` is for `seat`, from `seat`'s view: [`WON`] (or `-WON`) once decided
    /// (a draw: 0), else its side's worth minus the best other side's.
    pub fn score(&self, game: &Game, seat: PlayerId) -> f64 {
        if let Some(r) = game.result() {
            return if r.winners.is_empty() {
                0.0
            } else if r.winners.contains(&seat) {
                WON
            } else {
                -WON
            };
        }
        if self.is_empty() {
            return 0.0;
        }
        self.score_view(&game.view(seat))
    }

    /// [`Evaluation::score`] of an undecided game, from the viewer's view.
    pub fn score_view(&self, view: &PlayerView) -> f64 {
        let sides = sides(view);
        let mine = sides
            .iter()
            .position(|s| s.contains(&view.viewer))
            .unwrap_or(0);
        let worth = |side: &Vec<PlayerId>| -> f64 {
            side.iter()
                .filter(|p| !view.out.contains(p))
                .map(|p| self.worth(view, *p))
                .sum()
        };
        let own = worth(&sides[mine]);
        let best_other = sides
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != mine)
            .map(|(_, s)| worth(s))
            .fold(f64::NEG_INFINITY, f64::max);
        if best_other.is_finite() {
            own - best_other
        } else {
            own
        }
    }

    /// One player's worth: their zones' cards, their values, their face-up cards' values.
    /// A team's shared zone counts for its first seat (the zone's owner).
    fn worth(&self, view: &PlayerView, p: PlayerId) -> f64 {
        let mut w = 0.0;
        for z in view.zones.iter().filter(|z| z.owner == Some(p)) {
            if let Some((_, k)) = self.zones.iter().find(|(n, _)| *n == z.name) {
                w += k * z.count as f64;
            }
            for c in self.cards.iter().filter(|c| c.zones.contains(&z.name)) {
                for card in z.cards.iter().filter(|card| card.face_up) {
                    let v = card
                        .values
                        .get(&c.value)
                        .or_else(|| card.counters.get(&c.value));
                    w += c.weight * v.copied().unwrap_or(0) as f64;
                }
            }
        }
        if let Some(values) = view.values.get(p as usize) {
            for (name, k) in &self.players {
                w += k * values.get(name).copied().unwrap_or(0) as f64;
            }
        }
        w
    }
}

/// The sides of the game: its teams, or every player alone.
fn sides(view: &PlayerView) -> Vec<Vec<PlayerId>> {
    if view.teams.is_empty() {
        (0..view.values.len() as PlayerId)
            .map(|p| vec![p])
            .collect()
    } else {
        view.teams.clone()
    }
}
