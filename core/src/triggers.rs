//! Triggered abilities: finding the abilities an event triggers, and the pending set they
//! wait in until the ruleset resolves them (`ctx:resolve_triggers()`).
//!
//! A batch is what one operation triggered. Batches resolve first-in first-out, or newest
//! first, as the ruleset's `triggers.order` says; inside a batch players go in turn order
//! from the turn player, each ordering their own abilities.

use mlua::Lua;

use crate::db::{AbilityRef, Db};
use crate::events::Event;
use crate::script::api::event_table;
use crate::state::{ObjId, PlayerId, State};

/// A triggered ability waiting to resolve.
#[derive(Clone, Debug)]
pub struct Pending {
    /// Which ability.
    pub ability: AbilityRef,
    /// The object whose ability it is (None for a rule ability).
    pub source: Option<ObjId>,
    /// Who controls it.
    pub controller: PlayerId,
    /// What triggered it.
    pub event: Event,
}

/// Abilities triggered by one operation.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// In the order found (timestamp order of sources).
    pub items: Vec<Pending>,
}

/// The triggered abilities `events` trigger, in a stable order.
pub fn collect(lua: &Lua, db: &Db, st: &State, events: &[Event]) -> mlua::Result<Vec<Pending>> {
    let mut out = Vec::new();
    for e in events {
        let Some(sym) = db.names.get(&e.name) else {
            continue;
        };
        let Some(list) = db.triggers_by_event.get(&sym) else {
            continue;
        };
        let mut ev_table = None;
        for &(card, ai) in list {
            let ab = db.ability((card, ai));
            let mut candidates: Vec<(Option<ObjId>, PlayerId)> = Vec::new();
            match card {
                None => candidates.push((None, st.turn_player)),
                Some(c) => {
                    for src in db.sources(st, c, ab) {
                        candidates.push((Some(src), st.obj(src).controller));
                    }
                    // Look back: a card that just left a zone where the ability worked
                    // triggers as it was there ("when this is K.O.'d").
                    if let (Some(old), Some(from)) = (e.old, e.from) {
                        let o = st.obj(old);
                        let decl = st.zone(from).decl as usize;
                        if o.card == c && db.ability_zones(ab).contains(&decl) {
                            candidates.push((Some(old), o.controller));
                        }
                    }
                }
            }
            for (src, controller) in candidates {
                if let Some(when) = &ab.when {
                    if ev_table.is_none() {
                        ev_table = Some(event_table(lua, db, st, e)?);
                    }
                    let ctx = db.ctx(lua, Some(controller), src, Some(&ab.table))?;
                    if !when.call::<bool>((ctx, ev_table.clone()))? {
                        continue;
                    }
                }
                out.push(Pending {
                    ability: (card, ai),
                    source: src,
                    controller,
                    event: e.clone(),
                });
            }
        }
    }
    Ok(out)
}
