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
    /// The timestamp of the one-shot grant (delayed ability) it came from, to remove.
    pub once_grant: Option<u64>,
    /// When its source gained it (0: printed), to tell whether a suppression stops it.
    pub gained: u64,
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
        let mut ev_table = None;
        // (ability, source, controller, one-shot grant, gained at)
        type Candidate = (AbilityRef, Option<ObjId>, PlayerId, Option<u64>, u64);
        let mut candidates: Vec<Candidate> = Vec::new();
        for &(card, ai) in db.triggers_by_event.get(&sym).into_iter().flatten() {
            let ab = db.ability((card, ai));
            match card {
                None => candidates.push(((card, ai), None, st.turn_player, None, 0)),
                Some(c) => {
                    for src in db.sources(st, c, ab) {
                        candidates.push(((card, ai), Some(src), st.obj(src).controller, None, 0));
                    }
                    // Look back: a card that just left a zone where the ability worked
                    // triggers as it was there ("when this is K.O.'d").
                    if let (Some(old), Some(from), false) = (e.old, e.from, ab.dormant) {
                        let o = st.obj(old);
                        let decl = st.zone(from).decl as usize;
                        if o.card == c && db.ability_zones(ab).contains(&decl) {
                            candidates.push(((card, ai), Some(old), o.controller, None, 0));
                        }
                    }
                }
            }
        }
        // Abilities given by effects, and delayed abilities.
        for g in st.grants.iter() {
            if db.ability(g.ability).on != Some(sym) {
                continue;
            }
            let (src, gained) = match g.host {
                Some(h) if !st.obj(h).alive => continue,
                Some(h) => (Some(h), g.timestamp),
                // A delayed ability is the effect of one that already resolved (OP 8-2-3
                // style): its source's suppression does not stop it.
                None => (g.source, crate::characteristics::NEVER_SUPPRESSED),
            };
            candidates.push((
                g.ability,
                src,
                g.controller,
                g.once.then_some(g.timestamp),
                gained,
            ));
        }
        for (r, src, controller, once_grant, gained) in candidates {
            let ab = db.ability(r);
            // A suppressed source triggers nothing (unless it gained the ability later).
            if let Some(s) = src
                && !crate::characteristics::ability_works(lua, db, st, s, gained)?
            {
                continue;
            }
            if let Some(when) = &ab.when {
                if ev_table.is_none() {
                    ev_table = Some(event_table(lua, db, st, e)?);
                }
                let ctx = db.ctx(lua, Some(controller), src, Some(&ab.table))?;
                let _lua = db.memory.enter(lua);
                match db
                    .budget
                    .slice(|| when.call::<bool>((ctx, ev_table.clone())))
                {
                    Ok(true) => {}
                    Ok(false) => continue,
                    // A card's failing trigger condition fails alone: it does not trigger.
                    Err(e) => {
                        db.contain(e, r.0, &format!("ability {} (its condition)", r.1 + 1))?;
                        continue;
                    }
                }
            }
            out.push(Pending {
                ability: r,
                source: src,
                controller,
                event: e.clone(),
                once_grant,
                gained,
            });
        }
    }
    Ok(out)
}
