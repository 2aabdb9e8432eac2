//! Triggered abilities, from the event to the resolution:
//!
//! - **collection** (`collect`, `record`): the abilities an event triggers, in a stable order
//!   (sources by timestamp), with the look-back for cards that just left;
//! - **ordering** (`push_batch`): a batch is what one operation triggered (or one
//!   `ctx:together` group); batches wait first-in first-out or newest first, as the
//!   ruleset's `triggers.order` says;
//! - **resolution** (`step_triggers`): inside a batch players go in turn order from the turn
//!   player (`State::turn_order`: the direction of play, players who left skipped), each
//!   ordering their own abilities; each resolves through `hooks.activate`. The rules' own
//!   abilities are controlled by the turn player (with teams, the turn side's first seat).

use mlua::Lua;

use super::*;
use crate::characteristics::Indexed;
use crate::db::Db;
use crate::state::State;

impl Game {
    /// Logs events and finds the triggered abilities they trigger.
    pub(crate) fn record(&mut self, events: Vec<Event>) -> R<Vec<Pending>> {
        {
            let mut st = self.state.borrow_mut();
            for e in &events {
                // Who may see each card is fixed now, in the state right after the event.
                let seen = if st.log.keep {
                    crate::visibility::event_seen(&self.engine.db, &st, e)
                } else {
                    Vec::new()
                };
                st.log.push_event(e, seen);
            }
        }
        self.engine.db.budget.reset();
        let found = {
            let st = self.state.borrow();
            collect(&self.engine.lua, &self.engine.db, &st, &events)?
        };
        // A delayed ability fires once, then is gone.
        let fired: Vec<u64> = found.iter().filter_map(|p| p.once_grant).collect();
        if !fired.is_empty() {
            let mut st = self.state.borrow_mut();
            std::sync::Arc::make_mut(&mut st.grants).retain(|g| !fired.contains(&g.timestamp));
            let effects = self
                .engine
                .db
                .hooks
                .char_marks
                .part(crate::content::StatePart::Effects);
            st.chars.invalidate(effects);
        }
        Ok(found)
    }

    /// Adds a batch to the pending set in the ruleset's order.
    pub(crate) fn push_batch(&mut self, mut items: Vec<Pending>) {
        if self.group_depth > 0 {
            // Inside `ctx:together`: one batch for the whole group.
            self.group_batch.append(&mut items);
            return;
        }
        if items.is_empty() {
            return;
        }
        let policy = &self.engine.db.rules.manifest.triggers;
        if policy.once_per_batch {
            // The first of each (ability, source) stays and carries the others' events.
            let mut kept: Vec<Pending> = Vec::new();
            for p in items {
                match kept
                    .iter_mut()
                    .find(|k| k.ability == p.ability && k.source == p.source)
                {
                    Some(k) => k.more.push(p.event),
                    None => kept.push(p),
                }
            }
            items = kept;
        }
        let order = policy.order;
        let mut st = self.state.borrow_mut();
        let q = std::sync::Arc::make_mut(&mut st.pending);
        match order {
            TriggerOrder::FifoBatches => q.push_back(Batch { items }),
            TriggerOrder::NewestFirst => q.push_front(Batch { items }),
        }
    }

    pub(super) fn step_triggers(&mut self, stage: &mut TriggerStage, input: Input) -> R<Next> {
        let db = self.engine.db.clone();
        let chosen: Pending = match (*stage, input) {
            (TriggerStage::Resolving, _) => {
                *stage = TriggerStage::Pick;
                return Ok(Next::Again);
            }
            (TriggerStage::Asked(p), Input::Answer(Response::Choose { indices })) => {
                *stage = TriggerStage::Pick;
                self.take_pending(p, Some(indices[0] as usize))?
            }
            _ => {
                let st = self.state.borrow();
                let Some((b, class)) = next_batch(&db, &st) else {
                    return Ok(Next::Return(Value::Nil));
                };
                let batch = &st.pending[b];
                let of_class = |i: &&Pending| db.outline(i.ability).priority == class;
                let order = st.turn_order();
                let p = order
                    .into_iter()
                    .find(|p| {
                        batch
                            .items
                            .iter()
                            .filter(of_class)
                            .any(|i| i.controller == *p)
                    })
                    .unwrap_or(batch.items[0].controller);
                let mine: Vec<&Pending> = batch
                    .items
                    .iter()
                    .filter(of_class)
                    .filter(|i| i.controller == p)
                    .collect();
                if mine.len() > 1 && db.rules.manifest.triggers.player_orders {
                    let options = mine
                        .iter()
                        .map(|i| Choice {
                            label: match i.source {
                                Some(s) => format!(
                                    "{} ({})",
                                    db.cards[st.obj(s).definition as usize].label,
                                    i.event.name
                                ),
                                None => format!("rule ({})", i.event.name),
                            },
                            kind: Some("trigger".into()),
                            card: i.source,
                            target: None,
                            data: vec![],
                        })
                        .collect();
                    drop(st);
                    *stage = TriggerStage::Asked(p);
                    // Ordering one's own triggered abilities names their cards: an ability
                    // that triggers in a hidden zone (a Library's "when this is shuffled") is
                    // known to its controller, so the request is not made blind.
                    return Ok(Next::AskKnown(Request::Choose {
                        player: p,
                        prompt: "order_triggers".into(),
                        options,
                        min: 1,
                        max: 1,
                    }));
                }
                drop(st);
                self.take_pending(p, None)?
            }
        };
        // A triggered ability whose source became suppressed while it waited does not
        // happen (its choices are not made, its costs not paid).
        if let Some(s) = chosen.source {
            let st = self.state.borrow();
            if !crate::characteristics::ability_works(
                &self.engine.lua,
                &db,
                &st,
                s,
                chosen.gained,
                db.ability(&self.engine.lua, chosen.ability)?,
            )? {
                return Ok(Next::Again);
            }
        }
        *stage = TriggerStage::Resolving;
        let ab = db.ability(&self.engine.lua, chosen.ability)?;
        let (handle, ev) = {
            let st = self.state.borrow();
            let lua = &self.engine.lua;
            let h = lua.create_table()?;
            if let Some(s) = chosen.source {
                h.set("source", Handle(s))?;
            }
            h.set("def", ab.table.clone())?;
            h.set("index", chosen.ability.1 + 1)?;
            let key = match chosen.ability.0 {
                Some(c) => format!("{}#{}", db.cards[c as usize].def.id, chosen.ability.1 + 1),
                None => format!("rule#{}", chosen.ability.1 + 1),
            };
            h.set("key", key)?;
            (h, event_table(lua, &db, &st, &chosen.event)?)
        };
        let ctx = self.ctx(Some(chosen.controller), chosen.source, Some(&ab.table))?;
        if let Value::Table(c) = &ctx {
            c.raw_set("event", ev.clone())?;
            c.raw_set("ability", handle.clone())?;
        }
        let args = self.engine.lua.create_table()?;
        args.set("event", ev.clone())?;
        if db.rules.manifest.triggers.once_per_batch {
            // Every event of the batch that triggered it, the first one first.
            let st = self.state.borrow();
            let lua = &self.engine.lua;
            let all = lua.create_table()?;
            all.raw_set(1, ev)?;
            for (k, e) in chosen.more.iter().enumerate() {
                all.raw_set(k + 2, event_table(lua, &db, &st, e)?)?;
            }
            args.set("events", all)?;
        }
        let label = match chosen.ability.0 {
            Some(c) => card_label(&db, c, &format!("ability {}", chosen.ability.1 + 1)),
            None => format!("rule ability {}", chosen.ability.1 + 1),
        };
        let mut frame = self.card_frame(
            &db.hooks.activate,
            vec![ctx, Value::Table(handle), Value::Table(args)],
            label,
            chosen.source,
        )?;
        if let Frame::Lua(l) = &mut frame {
            l.ability = Some(chosen.ability);
        }
        Ok(Next::Push(frame))
    }

    /// Removes and returns player `p`'s `nth` pending ability (the first when `nth` is None)
    /// among those of the batch and class that go next (`next_batch`).
    pub(super) fn take_pending(&mut self, p: PlayerId, nth: Option<usize>) -> R<Pending> {
        let db = self.engine.db.clone();
        let mut st = self.state.borrow_mut();
        let Some((b, class)) = next_batch(&db, &st) else {
            return Err(mlua::Error::runtime("no triggered ability is waiting"));
        };
        let q = std::sync::Arc::make_mut(&mut st.pending);
        let batch = &mut q[b];
        let positions: Vec<usize> = batch
            .items
            .iter()
            .enumerate()
            .filter(|(_, i)| i.controller == p && db.outline(i.ability).priority == class)
            .map(|(k, _)| k)
            .collect();
        let k = positions.get(nth.unwrap_or(0)).copied().unwrap_or(0);
        let item = batch.items.remove(k);
        if batch.items.is_empty() {
            q.remove(b);
        }
        Ok(item)
    }
}

/// Which batch resolves from next, and from which priority class: the earliest class that
/// any pending ability has (`triggers.classes`; `None` is after every class), from the first
/// batch in the queue holding one of it.
fn next_batch(db: &Db, st: &State) -> Option<(usize, Option<u8>)> {
    let rank = |c: Option<u8>| c.map_or(u16::MAX, u16::from);
    let class = st
        .pending
        .iter()
        .flat_map(|b| &b.items)
        .map(|i| db.outline(i.ability).priority)
        .min_by_key(|c| rank(*c))?;
    let b = st.pending.iter().position(|b| {
        b.items
            .iter()
            .any(|i| db.outline(i.ability).priority == class)
    })?;
    Some((b, class))
}

/// The triggered abilities `events` trigger, in a stable order.
pub(crate) fn collect(
    lua: &Lua,
    db: &Db,
    st: &State,
    events: &[Event],
) -> mlua::Result<Vec<Pending>> {
    let mut out = Vec::new();
    for e in events {
        let Some(sym) = db.names.get(&e.name) else {
            continue;
        };
        let mut ev_table = None;
        // (ability, source, controller, one-shot grant, gained at)
        type Candidate = (AbilityRef, Option<ObjId>, PlayerId, Option<u64>, u64);
        let mut candidates: Vec<Candidate> = Vec::new();
        let listed = db.triggers_by_event.get(&sym).map_or(&[][..], |l| l);
        // No object of the card in this game: no source, and no need to load it.
        let held = db.held_abilities(st, listed, Indexed::Trigger(sym));
        for (card, ai) in held {
            let ab = db.ability(lua, (card, ai))?;
            // The kernel's tests that no source can pass skip the ability at once; one that
            // names the event's card as its own has at most that card for a source.
            let mut only = None;
            if let Some(m) = &ab.matches {
                if !m.event_may_pass(st, e) {
                    continue;
                }
                if m.pins_card() {
                    match e.card {
                        Some(x) => only = Some(x),
                        None => continue,
                    }
                }
            }
            match card {
                None => candidates.push(((card, ai), None, st.turn_player, None, 0)),
                Some(c) => {
                    match only {
                        Some(x) => {
                            if db.is_source(st, c, ab, x) {
                                candidates.push((
                                    (card, ai),
                                    Some(x),
                                    st.obj(x).controller,
                                    None,
                                    0,
                                ));
                            }
                        }
                        None => {
                            for src in db.sources(st, c, ab) {
                                candidates.push((
                                    (card, ai),
                                    Some(src),
                                    st.obj(src).controller,
                                    None,
                                    0,
                                ));
                            }
                        }
                    }
                    // Look back: a card that just left a zone where the ability worked
                    // triggers as it was there ("when this is K.O.'d"). A card that kept
                    // its object and is still found where it is now triggers once.
                    if let (Some(old), Some(from), false) = (e.old, e.from, ab.dormant) {
                        let o = st.obj(old);
                        let decl = st.zone(from).decl as usize;
                        let found = candidates
                            .iter()
                            .any(|x| x.0 == (card, ai) && x.1 == Some(old));
                        if o.definition == c && !found && db.ability_zones(ab).contains(&decl) {
                            candidates.push(((card, ai), Some(old), o.controller, None, 0));
                        }
                    }
                }
            }
        }
        // Abilities given by effects, and delayed abilities.
        for g in st.grants.iter() {
            if db.outline(g.ability).on != Some(sym) {
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
            // A player who left the game controls nothing that triggers; an ability whose
            // script failed in this game is off.
            if !st.in_game(controller) || st.failed.contains(&r) {
                continue;
            }
            let ab = db.ability(lua, r)?;
            // The kernel's own tests on the event come first: most events stop here.
            if let Some(m) = &ab.matches
                && !m.passes(st, e, src, controller)
            {
                continue;
            }
            // A suppressed source triggers nothing (unless it gained the ability later).
            if let Some(s) = src
                && !crate::characteristics::ability_works(lua, db, st, s, gained, ab)?
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
                more: Vec::new(),
                once_grant,
                gained,
            });
        }
    }
    Ok(out)
}
