//! Triggered abilities: resolving the pending ones in the ruleset's order.

use super::*;

impl Game {
    pub(super) fn step_triggers(&mut self, stage: &mut TriggerStage, input: Input) -> R<Next> {
        let db = self.engine.db.clone();
        let chosen: Pending = match (*stage, input) {
            (TriggerStage::Resolving, _) => {
                *stage = TriggerStage::Pick;
                return Ok(Next::Again);
            }
            (TriggerStage::Asked(p), Input::Answer(Response::Choose { indices })) => {
                *stage = TriggerStage::Pick;
                self.take_pending(p, Some(indices[0] as usize))
            }
            _ => {
                let st = self.state.borrow();
                let Some(batch) = st.pending.front() else {
                    return Ok(Next::Return(Value::Nil));
                };
                let order = st.players_from_turn_player();
                let p = order
                    .into_iter()
                    .find(|p| batch.items.iter().any(|i| i.controller == *p))
                    .unwrap_or(batch.items[0].controller);
                let mine: Vec<&Pending> =
                    batch.items.iter().filter(|i| i.controller == p).collect();
                if mine.len() > 1 && db.rules.manifest.triggers.player_orders {
                    let options = mine
                        .iter()
                        .map(|i| Choice {
                            label: match i.source {
                                Some(s) => format!(
                                    "{} ({})",
                                    db.cards[st.obj(s).card as usize]
                                        .def
                                        .name
                                        .get("en")
                                        .cloned()
                                        .unwrap_or_default(),
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
                    return Ok(Next::Ask(Request::Choose {
                        player: p,
                        prompt: "order_triggers".into(),
                        options,
                        min: 1,
                        max: 1,
                    }));
                }
                drop(st);
                self.take_pending(p, None)
            }
        };
        // A triggered ability whose source became suppressed while it waited does not
        // happen (its choices are not made, its costs not paid).
        if let Some(s) = chosen.source {
            let st = self.state.borrow();
            if !crate::characteristics::ability_works(&self.engine.lua, &db, &st, s, chosen.gained)?
            {
                return Ok(Next::Again);
            }
        }
        *stage = TriggerStage::Resolving;
        let ab = db.ability(chosen.ability);
        let (handle, ev) = {
            let st = self.state.borrow();
            let lua = &self.engine.lua;
            let h = lua.create_table()?;
            if let Some(s) = chosen.source {
                h.set("source", CardUd(s))?;
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
        args.set("event", ev)?;
        let label = match chosen.ability.0 {
            Some(c) => card_label(&db, c, &format!("ability {}", chosen.ability.1 + 1)),
            None => format!("rule ability {}", chosen.ability.1 + 1),
        };
        Ok(Next::Push(self.card_frame(
            &db.hooks.activate,
            vec![ctx, Value::Table(handle), Value::Table(args)],
            label,
            chosen.source,
        )?))
    }

    /// Removes and returns player `p`'s `nth` pending ability of the front batch (the first
    /// when `nth` is None).
    pub(super) fn take_pending(&mut self, p: PlayerId, nth: Option<usize>) -> Pending {
        let mut st = self.state.borrow_mut();
        let q = std::sync::Arc::make_mut(&mut st.pending);
        let batch = q.front_mut().expect("a batch");
        let positions: Vec<usize> = batch
            .items
            .iter()
            .enumerate()
            .filter(|(_, i)| i.controller == p)
            .map(|(k, _)| k)
            .collect();
        let k = positions.get(nth.unwrap_or(0)).copied().unwrap_or(0);
        let item = batch.items.remove(k);
        if batch.items.is_empty() {
            q.pop_front();
        }
        item
    }
}
