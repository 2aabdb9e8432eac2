//! Turns: setup, then turns and phases as `game.yaml` declares them (the bottom frame).

use super::*;

impl Game {
    pub(super) fn step_turns(&mut self, stage: &mut TurnStage, input: Input) -> R<Next> {
        let db = self.engine.db.clone();
        let phases = &db.hooks.phases;
        match *stage {
            TurnStage::Setup => {
                *stage = TurnStage::SetupDone;
                let ctx = self.ctx(None, None, None)?;
                Ok(Next::Push(self.lua_frame(
                    &db.hooks.setup,
                    vec![ctx],
                    "setup".into(),
                )?))
            }
            TurnStage::SetupDone => {
                *stage = TurnStage::TurnStart;
                Ok(Next::Push(Frame::Triggers(TriggerStage::Pick)))
            }
            TurnStage::TurnStart => {
                let (turn, tp) = {
                    let st = self.state.borrow();
                    (st.turn, st.turn_player)
                };
                if turn >= db.rules.manifest.limits.turns {
                    self.finish(GameResult {
                        winners: vec![],
                        reason: "turn_limit".into(),
                    });
                    return Ok(Next::Again);
                }
                let next = if turn == 0 {
                    tp
                } else if let Some(f) = &db.hooks.next_player {
                    let ctx = self.ctx(Some(tp), None, None)?;
                    let p: i64 = self.engine.run(|| f.call((ctx, tp as i64 + 1)))?;
                    player_arg(&self.state.borrow(), p)?
                } else {
                    let st = self.state.borrow();
                    let mut p = tp;
                    for _ in 0..st.nplayers {
                        p = (p + 1) % st.nplayers;
                        if !st.players[p as usize].out {
                            break;
                        }
                    }
                    p
                };
                {
                    let mut st = self.state.borrow_mut();
                    st.turn += 1;
                    st.turn_player = next;
                }
                self.emit_kernel("turn_began", Some(next), None)?;
                *stage = TurnStage::PhaseStart(0);
                Ok(Next::Again)
            }
            TurnStage::PhaseStart(i) => {
                if i >= phases.len() {
                    let tp = self.state.borrow().turn_player;
                    self.state.borrow_mut().phase = None;
                    self.emit_kernel("turn_ended", Some(tp), None)?;
                    *stage = TurnStage::TurnStart;
                    return Ok(Next::Push(Frame::Triggers(TriggerStage::Pick)));
                }
                self.state.borrow_mut().phase = Some(i);
                self.emit_kernel("phase_began", None, Some(phases[i].name.clone()))?;
                *stage = TurnStage::PhaseRan(i);
                match &phases[i].run {
                    Some(f) => {
                        let tp = self.state.borrow().turn_player;
                        let ctx = self.ctx(Some(tp), None, None)?;
                        Ok(Next::Push(self.lua_frame(
                            f,
                            vec![ctx],
                            format!("phase {}", phases[i].name),
                        )?))
                    }
                    None => Ok(Next::Again),
                }
            }
            TurnStage::PhaseRan(i) => {
                *stage = if phases[i].actions.is_some() || !phases[i].kinds.is_empty() {
                    TurnStage::PhaseAsk(i)
                } else {
                    TurnStage::PhaseFinish(i)
                };
                Ok(Next::Push(Frame::Triggers(TriggerStage::Pick)))
            }
            TurnStage::PhaseAsk(i) => {
                let tp = self.state.borrow().turn_player;
                // The options listed when asking are reused for the answer (same state);
                // a fork has no cache and lists them again, with the same result. The
                // kernel's own action kinds come first, then the `actions` function's.
                let (ctx, kinds, options) = match (self.options_cache.take(), &input) {
                    (Some((ctx, options, _)), Input::Answer(_)) => {
                        (ctx, std::mem::take(&mut self.kind_options), Some(options))
                    }
                    _ => {
                        let ctx = self.ctx(Some(tp), None, None)?;
                        let kinds = self.list_kinds(&phases[i].kinds, tp, &ctx)?;
                        let options: Option<Table> = match &phases[i].actions {
                            Some(f) => Some(self.engine.run(|| f.call(ctx.clone()))?),
                            None => None,
                        };
                        (ctx, kinds, options)
                    }
                };
                let options = match options {
                    Some(o) => o,
                    None => self.engine.lua.create_table()?,
                };
                match input {
                    Input::Answer(Response::Choose { indices }) => {
                        let k = indices[0] as usize;
                        *stage = TurnStage::ActionDone(i);
                        if let Some(o) = kinds.get(k) {
                            if let crate::db::ActionDoes::EndsPhase = db.hooks.actions[o.kind].does
                            {
                                *stage = TurnStage::PhaseFinish(i);
                                return Ok(Next::Again);
                            }
                            return Ok(Next::Push(self.kind_frame(o, tp, ctx)?));
                        }
                        let chosen: Table = options.get(k - kinds.len() + 1)?;
                        if chosen.get::<Option<bool>>("ends_phase")?.unwrap_or(false) {
                            *stage = TurnStage::PhaseFinish(i);
                            return Ok(Next::Again);
                        }
                        let args = vec![ctx, Value::Table(chosen.clone())];
                        match self.action_frame(&chosen, Some(tp), args) {
                            Ok(f) => Ok(Next::Push(f)),
                            Err(e) => self.action_failed(&chosen, e),
                        }
                    }
                    _ => {
                        let mut choices: Vec<Choice> =
                            kinds.iter().map(|o| o.choice(&db)).collect();
                        choices.extend(choices_of(&options)?);
                        if choices.len() > limits::OPTIONS {
                            return Err(mlua::Error::runtime(format!(
                                "{} options in one request; the limit is {}",
                                choices.len(),
                                limits::OPTIONS
                            )));
                        }
                        if choices.is_empty() {
                            *stage = TurnStage::PhaseFinish(i);
                            return Ok(Next::Again);
                        }
                        self.options_cache = Some((ctx, options, None));
                        self.kind_options = kinds;
                        Ok(Next::Ask(Request::Choose {
                            player: tp,
                            prompt: phases[i].name.clone(),
                            options: choices,
                            min: 1,
                            max: 1,
                        }))
                    }
                }
            }
            TurnStage::ActionDone(i) => {
                *stage = TurnStage::PhaseAsk(i);
                Ok(Next::Push(Frame::Triggers(TriggerStage::Pick)))
            }
            TurnStage::PhaseFinish(i) => {
                *stage = TurnStage::PhaseFinished(i);
                match &phases[i].finish {
                    Some(f) => {
                        let tp = self.state.borrow().turn_player;
                        let ctx = self.ctx(Some(tp), None, None)?;
                        Ok(Next::Push(self.lua_frame(
                            f,
                            vec![ctx],
                            format!("phase {} (end)", phases[i].name),
                        )?))
                    }
                    None => Ok(Next::Again),
                }
            }
            TurnStage::PhaseFinished(i) => {
                if let Input::Start = input {
                    // first entry after finish procedure (or none): drain triggers once
                }
                self.emit_kernel("phase_ended", None, Some(phases[i].name.clone()))?;
                *stage = TurnStage::PhaseStart(i + 1);
                Ok(Next::Push(Frame::Triggers(TriggerStage::Pick)))
            }
        }
    }
}
