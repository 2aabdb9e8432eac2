//! The ground truth of the canary test: which cards each seat could know, and which every
//! seat at once could know (what a spectator may be shown), computed from the game's full
//! state and log with the ruleset's zone declarations, never from the kernel's filtered views.
//! Knowledge only grows: a card a seat once saw, it may be told of again.
//!
//! A seat sees an object when the zone it is in (or was in when it left: an object leaves a
//! zone by becoming a new object, OP 3-1-6, so every object's last state was real) is public
//! and it is face up, is its own (or its team's) zone of `owner` visibility, is hidden but the
//! card face up, or when it was revealed to the seat (the object's reveal bits, and the log's
//! `revealed` events for reveals that ended within a step).

use std::collections::{BTreeMap, BTreeSet};

use riffle_core::{Entry, Game, ObjId, State, Visibility};

use super::content::markers;

pub struct Knowledge {
    /// Each zone declaration's visibility, by name.
    zones: BTreeMap<String, Visibility>,
    /// Each zone's visibility, by zone id, as found.
    by_id: Vec<Option<Option<Visibility>>>,
    players: u8,
    /// The canary ids each seat could know.
    pub seat: Vec<BTreeSet<String>>,
    /// The canary ids every seat could see at once.
    pub public: BTreeSet<String>,
    /// How much of the full log has been read.
    log_pos: usize,
    /// The seats each object is already known to (a mask), so each is read once per seat.
    learned: Vec<u32>,
}

impl Knowledge {
    pub fn new(g: &Game, zones: &[riffle_core::ZoneDecl]) -> Knowledge {
        Knowledge {
            zones: zones
                .iter()
                .map(|z| (z.name.clone(), z.visibility))
                .collect(),
            players: g.players(),
            seat: vec![BTreeSet::new(); g.players() as usize],
            public: BTreeSet::new(),
            log_pos: 0,
            by_id: Vec::new(),
            learned: Vec::new(),
        }
    }

    /// The visibility of zone `z`'s declaration.
    fn visibility(&mut self, g: &Game, z: riffle_core::ZoneId) -> Option<Visibility> {
        let i = z.0 as usize;
        if self.by_id.len() <= i {
            self.by_id.resize(i + 1, None);
        }
        *self.by_id[i].get_or_insert_with(|| self.zones.get(&g.zone_of(z).0).copied())
    }

    /// The seats that see object `id` where it is, as a mask (reveals left out).
    fn zone_mask(&mut self, g: &Game, st: &State, id: ObjId) -> u32 {
        let o = st.obj(id);
        let all = (1u32 << self.players) - 1;
        match self.visibility(g, o.zone) {
            Some(Visibility::Public | Visibility::Hidden) if o.face_up => all,
            Some(Visibility::Owner) => (0..self.players)
                .filter(|p| st.holds(o.zone, *p))
                .fold(0, |m, p| m | 1 << p),
            _ => 0,
        }
    }

    /// The seats in `mask` (and, when every seat is in it, the spectators) may know `id`.
    fn learn(&mut self, g: &Game, id: ObjId, mask: u32) {
        // A reveal to everyone sets every bit, seats or not.
        let mask = mask & ((1u32 << self.players) - 1);
        let i = id.0 as usize;
        if self.learned.len() <= i {
            self.learned.resize(i + 1, 0);
        }
        let all = (1u32 << self.players) - 1;
        // Nothing new: no seat that did not know it, and not newly public.
        if mask & !self.learned[i] == 0 && (mask != all || self.learned[i] & 1 << 31 != 0) {
            return;
        }
        self.learned[i] |= mask | if mask == all { 1 << 31 } else { 0 };
        // The card, and the card it shows (a copy effect), by their markers.
        let label = g.card_label(id, None);
        let card = g.card_id(id);
        let names: Vec<String> = markers(&label)
            .into_iter()
            .map(str::to_string)
            .chain([card])
            .collect();
        for p in 0..self.players {
            if mask & 1 << p != 0 {
                self.seat[p as usize].extend(names.iter().cloned());
            }
        }
        if mask == (1u32 << self.players) - 1 {
            self.public.extend(names);
        }
    }

    /// Reads what happened since the last call: every object's state, the new log entries.
    pub fn update(&mut self, g: &Game) {
        let seen: Vec<(ObjId, u32)> = g.with_state(|st| {
            (0..g.object_count())
                .map(|i| {
                    let id = ObjId(i as u32);
                    (id, self.zone_mask(g, st, id) | st.obj(id).revealed)
                })
                .collect()
        });
        for (id, mask) in seen {
            self.learn(g, id, mask);
        }
        let log = g.log_from(self.log_pos);
        self.log_pos += log.len();
        for entry in log {
            if let Entry::Event(e) = entry
                && e.name == "revealed"
                && let Some(id) = e.card
            {
                let mask = e.amount as u32 | g.with_state(|st| self.zone_mask(g, st, id));
                self.learn(g, id, mask);
            }
        }
    }

    /// Where the card `canary` has been, for a leak's report: each of its objects' zone, face
    /// and reveals.
    pub fn trace(g: &Game, canary: &str) -> String {
        g.with_state(|st| {
            (0..g.object_count())
                .map(|i| ObjId(i as u32))
                .filter(|id| g.card_id(*id) == canary)
                .map(|id| {
                    let o = st.obj(id);
                    let (zone, owner) = g.zone_of(o.zone);
                    format!(
                        "object {} in {zone} of {owner:?}, face {}, revealed to {:b}",
                        id.0,
                        if o.face_up { "up" } else { "down" },
                        o.revealed
                    )
                })
                .collect::<Vec<_>>()
                .join("; ")
        })
    }
}
