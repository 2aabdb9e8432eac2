//! What a job's games add up to: terminations, win rates per seat and per deck with 95%
//! confidence intervals, and a league's deck-against-deck matrix.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{GameRecord, Table, Termination};

/// Wins out of games, with the Wilson score interval at 95% (good at small counts and at
/// rates near 0 or 1, where the normal approximation is not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Games won.
    pub wins: u64,
    /// Games counted (won, lost or drawn).
    pub games: u64,
    /// wins / games (0 without games).
    pub rate: f64,
    /// The interval's lower bound.
    pub low: f64,
    /// The interval's upper bound.
    pub high: f64,
}

/// [`Rate`] of `wins` out of `games`.
pub fn wilson(wins: u64, games: u64) -> Rate {
    if games == 0 {
        return Rate {
            high: 1.0,
            ..Rate::default()
        };
    }
    const Z: f64 = 1.959_963_984_540_054;
    let n = games as f64;
    let p = wins as f64 / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    Rate {
        wins,
        games,
        rate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// One deck's record over the job: every seat it sat at counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeckRecord {
    /// The deck's id.
    pub deck: String,
    /// Its win rate.
    pub rate: Rate,
}

/// A job's results.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Summary {
    /// The game.
    pub game: String,
    /// The content's hash.
    pub content_hash: String,
    /// Games played.
    pub games: u64,
    /// Games by how they ended (`win`, `draw`, `script_error`, `unfinished`).
    pub terminations: BTreeMap<String, u64>,
    /// Each seat's win rate, over the games won or drawn.
    pub seats: Vec<Rate>,
    /// Each deck's win rate, in the job's order of decks.
    pub decks: Vec<DeckRecord>,
    /// A league's matrix: `matrix[a][b]` is deck a's win rate against deck b (both seat
    /// orders), the league's order; none on the diagonal. Absent without a league.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matrix: Option<Vec<Vec<Option<Rate>>>>,
    /// Mean turns a game.
    pub mean_turns: f64,
    /// Mean decisions a game.
    pub mean_decisions: f64,
    /// A hash over every game's log hash, in the job's order: two runs of a job played the
    /// same games exactly when these agree.
    pub log_hash: String,
    #[serde(skip)]
    hasher: Option<blake3::Hasher>,
    #[serde(skip)]
    tally: Tally,
}

#[derive(Clone, Debug, Default)]
struct Tally {
    seat: Vec<(u64, u64)>,
    deck: BTreeMap<String, (u64, u64)>,
    deck_order: Vec<String>,
    pair: BTreeMap<(String, String), (u64, u64)>,
    league: Vec<String>,
    turns: u64,
    decisions: u64,
}

impl Summary {
    pub(super) fn new(game: &str, table: &Table) -> Summary {
        let seats = table.pairings.first().map_or(0, |p| p.ids.len());
        let mut deck_order = Vec::new();
        for p in &table.pairings {
            for id in &p.ids {
                if !deck_order.contains(id) {
                    deck_order.push(id.clone());
                }
            }
        }
        let league = if table.pairings.len() > 1 {
            deck_order.clone()
        } else {
            Vec::new()
        };
        Summary {
            game: game.to_string(),
            content_hash: table.content_hash.clone(),
            games: 0,
            terminations: BTreeMap::new(),
            seats: Vec::new(),
            decks: Vec::new(),
            matrix: None,
            mean_turns: 0.0,
            mean_decisions: 0.0,
            log_hash: String::new(),
            hasher: Some(blake3::Hasher::new()),
            tally: Tally {
                seat: vec![(0, 0); seats],
                deck_order,
                league,
                ..Tally::default()
            },
        }
    }

    /// Counts one game (in the job's order).
    pub(super) fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        let t = serde_json::to_value(r.termination).expect("a name");
        *self
            .terminations
            .entry(t.as_str().unwrap_or_default().to_string())
            .or_default() += 1;
        if let Some(h) = &mut self.hasher {
            h.update(r.log_hash.as_bytes());
            h.update(b"\n");
        }
        let tally = &mut self.tally;
        tally.turns += r.turns as u64;
        tally.decisions += r.decisions;
        if !matches!(r.termination, Termination::Win | Termination::Draw) {
            return;
        }
        for (seat, deck) in r.decks.iter().enumerate() {
            let won = r.winners.contains(&(seat as u8)) as u64;
            if let Some(s) = tally.seat.get_mut(seat) {
                s.0 += won;
                s.1 += 1;
            }
            let d = tally.deck.entry(deck.clone()).or_default();
            d.0 += won;
            d.1 += 1;
        }
        if !tally.league.is_empty() && r.decks.len() == 2 {
            for (a, b) in [(0, 1), (1, 0)] {
                let won = r.winners.contains(&(a as u8)) as u64;
                let e = tally
                    .pair
                    .entry((r.decks[a].clone(), r.decks[b].clone()))
                    .or_default();
                e.0 += won;
                e.1 += 1;
            }
        }
    }

    /// Turns the tallies into rates.
    pub(super) fn finish(&mut self) {
        let t = &self.tally;
        self.seats = t.seat.iter().map(|(w, n)| wilson(*w, *n)).collect();
        self.decks = t
            .deck_order
            .iter()
            .map(|d| {
                let (w, n) = t.deck.get(d).copied().unwrap_or_default();
                DeckRecord {
                    deck: d.clone(),
                    rate: wilson(w, n),
                }
            })
            .collect();
        if !t.league.is_empty() {
            self.matrix = Some(
                t.league
                    .iter()
                    .map(|a| {
                        t.league
                            .iter()
                            .map(|b| {
                                (a != b).then(|| {
                                    let key = (a.clone(), b.clone());
                                    let (w, n) = t.pair.get(&key).copied().unwrap_or_default();
                                    wilson(w, n)
                                })
                            })
                            .collect()
                    })
                    .collect(),
            );
        }
        if self.games > 0 {
            self.mean_turns = t.turns as f64 / self.games as f64;
            self.mean_decisions = t.decisions as f64 / self.games as f64;
        }
        if let Some(h) = self.hasher.take() {
            self.log_hash = h.finalize().to_hex().to_string();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_known_values() {
        // 50 of 100: 0.404 to 0.596 (Wilson, 95%).
        let r = wilson(50, 100);
        assert!(
            (r.low - 0.4038).abs() < 1e-3 && (r.high - 0.5962).abs() < 1e-3,
            "{r:?}"
        );
        // 0 of 10: 0 to 0.278, not the normal approximation's 0 to 0.
        let r = wilson(0, 10);
        assert_eq!(r.low, 0.0);
        assert!((r.high - 0.2775).abs() < 1e-3, "{r:?}");
        let r = wilson(0, 0);
        assert_eq!((r.low, r.high), (0.0, 1.0));
    }
}
