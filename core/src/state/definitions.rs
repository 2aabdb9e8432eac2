//! Definition redirects: an object may take its printed data, its abilities and its name
//! from another card definition than its own ("this card is treated as X", a copy, a card
//! that names another and becomes it). A redirect is a continuous effect
//! (`Modify::Definition`) with the usual lifetimes (a duration, `persists_in`, a handle);
//! each object keeps the definition it takes now in `Object::definition`, refreshed after
//! every operation, so that reads of printed data never search the effects.

use std::sync::Arc;

use super::effects::{Modify, Target};
use super::{ObjId, PlayerId, State};
use crate::db::Db;

/// The characteristic name a redirect's effect carries (in `ctx:effects` and in the
/// `ended` event when its duration ends).
pub const DEFINITION: &str = "definition";

impl State {
    /// The card definition object `id` takes its printed data, abilities and name from.
    pub fn definition(&self, id: ObjId) -> u32 {
        self.obj(id).definition
    }

    /// Makes every object in the game take the definition its latest redirect names, else
    /// that of a card of its owner standing in for its name (the ruleset's `stand_ins`
    /// zones), else its own; and marks those definitions present (their abilities may now
    /// have sources here). Objects that left keep the definition they had when they left.
    pub fn refresh_definitions(&mut self, db: &Db) {
        // (owner, definition) of every card in a stand-in zone.
        let mut standing: Vec<(PlayerId, u32)> = Vec::new();
        for &decl in &db.rules.stand_in_zones {
            let row = &self.zone_ids[decl];
            for (k, z) in row.iter().enumerate() {
                if row[..k].contains(z) {
                    continue;
                }
                for &id in &self.zone(*z).cards {
                    let o = self.obj(id);
                    standing.push((o.owner, o.card));
                }
            }
        }
        self.redirected |= !standing.is_empty();
        if !self.redirected {
            return;
        }
        // (target, timestamp, definition) of the latest redirect per object.
        let mut latest: Vec<(ObjId, u64, u32)> = Vec::new();
        for e in self.effects.iter() {
            if let (Target::Obj(id), Modify::Definition(d)) = (e.target, &e.modify) {
                match latest.iter_mut().find(|x| x.0 == id) {
                    Some(x) if x.1 < e.timestamp => *x = (id, e.timestamp, *d),
                    Some(_) => {}
                    None => latest.push((id, e.timestamp, *d)),
                }
            }
        }
        let changes: Vec<(ObjId, u32)> = self
            .objects
            .iter()
            .filter(|o| o.alive)
            .filter_map(|o| {
                let in_stand_in = db
                    .rules
                    .stand_in_zones
                    .contains(&(self.zone(o.zone).decl as usize));
                let stand_in = || {
                    let name = &db.cards[o.card as usize].name;
                    standing
                        .iter()
                        .find(|(owner, d)| {
                            *owner == o.owner && !in_stand_in && db.cards[*d as usize].name == *name
                        })
                        .map(|x| x.1)
                };
                let want = match latest.iter().find(|x| x.0 == o.id) {
                    Some(x) => x.2,
                    None => stand_in().unwrap_or(o.card),
                };
                (want != o.definition).then_some((o.id, want))
            })
            .collect();
        for (id, d) in changes {
            self.obj_mut(id).definition = d;
            if !self.has_card(d) {
                let words = Arc::make_mut(&mut self.present);
                let w = d as usize / 64;
                if words.len() <= w {
                    words.resize(w + 1, 0);
                }
                words[w] |= 1 << (d % 64);
            }
        }
    }
}
