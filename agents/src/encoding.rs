//! Observations as numbers, for learning agents: what a seat sees (its view, its pending
//! choice) as fixed-size arrays. The layout follows the game's declarations (its zones,
//! orientations, integer characteristics, counters, player values), so each game has its
//! own encoding, named by a version that changes whenever the layout does.
//!
//! - `cards`: [`CARD_ROWS`] rows of [`Encoding::card_width`] numbers, one per card the seat
//!   can see, in view order (zones as declared, bottom to top; a hidden card is not a row):
//!   one-hot zone, whose (mine, another's, shared), face up, one-hot orientation, then
//!   every integer characteristic and counter (0 when absent). Unused rows are zeros.
//! - `global`: the turn, whether it is the seat's turn, and per player (the seat first, then
//!   the others in seat order) each zone's card count and each player value.
//! - `options`: per option of the pending choice (up to [`crate::actions::DONE`]), the row
//!   of its card and of its target (-1: none, or not a row) and whether it is picked.

use std::collections::HashMap;

use riffle_core::views::PlayerView;
use riffle_core::{CharKind, Engine, PlayerId, Request};

/// The card rows of an observation.
pub const CARD_ROWS: usize = 160;
/// Layout version of the encoding itself; a game's version adds its declarations' hash.
const LAYOUT: u32 = 1;

/// A game's encoding.
#[derive(Clone, Debug)]
pub struct Encoding {
    /// `LAYOUT-<hash of the declarations>`: models trained on one version expect it.
    pub version: String,
    zones: Vec<String>,
    orientations: Vec<String>,
    ints: Vec<String>,
    player_values: Vec<String>,
    players: usize,
}

/// One observation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observation {
    /// `CARD_ROWS × card_width`, row by row.
    pub cards: Vec<f32>,
    /// `global_width` numbers.
    pub global: Vec<f32>,
    /// 3 numbers per option: card row, target row, picked.
    pub options: Vec<i32>,
}

impl Encoding {
    /// The encoding of `engine`'s game for `players` seats.
    pub fn of(engine: &Engine, players: usize) -> Encoding {
        let m = engine.manifest();
        let zones: Vec<String> = m.zones.iter().map(|z| z.name.clone()).collect();
        let orientations = m.orientations.clone();
        let mut ints: Vec<String> = m
            .characteristics
            .iter()
            .filter(|c| c.kind == CharKind::Int && !c.internal)
            .map(|c| c.name.clone())
            .collect();
        ints.extend(m.counters.iter().cloned());
        let mut player_values = m.player_values.clone();
        player_values.extend(m.player_characteristics.iter().map(|c| c.name.clone()));
        let mut h = blake3::Hasher::new();
        for part in [&zones, &orientations, &ints, &player_values] {
            for name in part {
                h.update(name.as_bytes());
                h.update(b"\0");
            }
            h.update(b"\x01");
        }
        h.update(&(players as u64).to_le_bytes());
        Encoding {
            version: format!("{LAYOUT}-{}", &h.finalize().to_hex()[..12]),
            zones,
            orientations,
            ints,
            player_values,
            players,
        }
    }

    /// Numbers per card row.
    pub fn card_width(&self) -> usize {
        self.zones.len() + 3 + 1 + self.orientations.len() + self.ints.len()
    }

    /// Numbers in the global vector.
    pub fn global_width(&self) -> usize {
        2 + self.players * (self.zones.len() + self.player_values.len())
    }

    /// What `view` shows, encoded; `picks` are the options already picked in the pending
    /// choice.
    pub fn encode(&self, view: &PlayerView, picks: &[u32]) -> Observation {
        let me = view.viewer;
        let width = self.card_width();
        let mut cards = vec![0f32; CARD_ROWS * width];
        let mut rows: HashMap<u32, usize> = HashMap::new();
        let mut n = 0;
        'zones: for z in &view.zones {
            let Some(zi) = self.zones.iter().position(|x| *x == z.name) else {
                continue;
            };
            let whose = match z.owner {
                Some(o) if o == me => 0,
                Some(_) => 1,
                None => 2,
            };
            for c in z.cards.iter().filter(|c| c.id.is_some()) {
                if n == CARD_ROWS {
                    break 'zones;
                }
                let row = &mut cards[n * width..(n + 1) * width];
                row[zi] = 1.0;
                let mut at = self.zones.len();
                row[at + whose] = 1.0;
                at += 3;
                row[at] = c.face_up as u8 as f32;
                at += 1;
                if let Some(o) = self.orientations.iter().position(|o| *o == c.orientation) {
                    row[at + o] = 1.0;
                }
                at += self.orientations.len();
                for (k, name) in self.ints.iter().enumerate() {
                    let v = c.values.get(name).or_else(|| c.counters.get(name));
                    row[at + k] = v.copied().unwrap_or(0) as f32;
                }
                rows.insert(c.id.expect("filtered").0, n);
                n += 1;
            }
        }
        let mut global = Vec::with_capacity(self.global_width());
        global.push(view.turn as f32);
        global.push((view.turn_player == me) as u8 as f32);
        let order: Vec<PlayerId> = std::iter::once(me)
            .chain((0..self.players as PlayerId).filter(|p| *p != me))
            .collect();
        for p in order {
            for zname in &self.zones {
                let count: usize = view
                    .zones
                    .iter()
                    .filter(|z| z.owner == Some(p) && z.name == *zname)
                    .map(|z| z.count)
                    .sum();
                global.push(count as f32);
            }
            for v in &self.player_values {
                let x = view.values.get(p as usize).and_then(|m| m.get(v)).copied();
                global.push(x.unwrap_or(0) as f32);
            }
        }
        let mut options = Vec::new();
        if let Some(Request::Choose { options: opts, .. }) = &view.request {
            let row = |id: Option<riffle_core::ObjId>| {
                id.and_then(|i| rows.get(&i.0)).map_or(-1, |r| *r as i32)
            };
            for (i, o) in opts.iter().take(crate::actions::DONE).enumerate() {
                options.push(row(o.card));
                options.push(row(o.target));
                options.push(picks.contains(&(i as u32)) as i32);
            }
        }
        Observation {
            cards,
            global,
            options,
        }
    }
}
