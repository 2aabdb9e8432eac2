//! Turns: setup, then turns and phases as `game.yaml` declares them (the bottom frame).

use super::*;
use crate::content::PhasePlayers;
use crate::content::StatePart;
use crate::state::State;
use crate::state::seats::Round;

/// The players an open phase asks, in turn order from the turn player.
fn round_players(st: &State, who: PhasePlayers) -> Vec<PlayerId> {
    match who {
        PhasePlayers::TurnPlayer => st
            .in_game(st.turn_player)
            .then_some(st.turn_player)
            .into_iter()
            .collect(),
        PhasePlayers::TurnSide => st.turn_side(),
        PhasePlayers::All => st.turn_order(),
    }
}

/// The player of `round` after `p`, in turn order (`p` again when alone).
fn next_in(st: &State, round: &[PlayerId], p: PlayerId) -> PlayerId {
    st.players_from(p)
        .into_iter()
        .find(|q| *q != p && round.contains(q))
        .or_else(|| round.first().copied())
        .unwrap_or(p)
}

/// The turn player the side of `p` has: its first seat still in the game (the next side's
/// when none of it is left).
fn first_of_side(st: &State, p: PlayerId) -> PlayerId {
    st.side_first(st.team_of(p))
        .unwrap_or_else(|| st.next_side_after(p))
}

impl Game {
    /// Player `p` of an open phase's round passes: the phase ends when every player of
    /// the round has passed in a row; otherwise the next one is asked.
    fn pass(&mut self, stage: &mut TurnStage, i: usize, p: PlayerId, round: &[PlayerId]) -> Next {
        let mut st = self.state.borrow_mut();
        let passes = st.round.passes as usize + 1;
        if passes >= round.len() {
            st.round = Round::default();
            *stage = TurnStage::PhaseFinish(i);
        } else {
            let next = next_in(&st, round, p);
            st.round = Round {
                asked: Some(next),
                passes: passes as u8,
            };
        }
        Next::Again
    }

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
                // The turn is a side's: its first seat still in the game takes it.
                let next = if turn == 0 {
                    let st = self.state.borrow();
                    first_of_side(&st, tp)
                } else if let Some(f) = &db.hooks.next_player {
                    let ctx = self.ctx(Some(tp), None, None)?;
                    let p: i64 = self.engine.run(|| f.call((ctx, tp as i64 + 1)))?;
                    let st = self.state.borrow();
                    let p = player_arg(&st, p)?;
                    first_of_side(&st, p)
                } else {
                    self.state.borrow().next_turn_player()
                };
                {
                    let mut st = self.state.borrow_mut();
                    st.turn += 1;
                    st.turn_player = next;
                    st.checks_stale |= db.hooks.check_marks.part(StatePart::Turn);
                    st.chars
                        .invalidate(db.hooks.char_marks.part(StatePart::Turn));
                    std::sync::Arc::make_mut(&mut st.players)[next as usize].turns_taken += 1;
                }
                self.emit_kernel("turn_began", Some(next), None)?;
                *stage = TurnStage::PhaseStart(0);
                Ok(Next::Again)
            }
            TurnStage::PhaseStart(i) => {
                if i >= phases.len() {
                    let tp = self.state.borrow().turn_player;
                    let mut st = self.state.borrow_mut();
                    st.phase = None;
                    st.checks_stale |= db.hooks.check_marks.part(StatePart::Turn);
                    st.chars
                        .invalidate(db.hooks.char_marks.part(StatePart::Turn));
                    drop(st);
                    self.emit_kernel("turn_ended", Some(tp), None)?;
                    *stage = TurnStage::TurnStart;
                    return Ok(Next::Push(Frame::Triggers(TriggerStage::Pick)));
                }
                {
                    let mut st = self.state.borrow_mut();
                    st.phase = Some(i);
                    st.checks_stale |= db.hooks.check_marks.part(StatePart::Turn);
                    st.chars
                        .invalidate(db.hooks.char_marks.part(StatePart::Turn));
                }
                self.emit_kernel("phase_began", None, Some(phases[i].name.clone()))?;
                *stage = TurnStage::PhaseRan(i);
                if let Some(name) = &phases[i].procedure {
                    let tp = self.state.borrow().turn_player;
                    return Ok(Next::Push(self.procedure_frame(name, None, Some(tp))?));
                }
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
                    self.state.borrow_mut().round = Round::default();
                    TurnStage::PhaseAsk(i)
                } else {
                    TurnStage::PhaseFinish(i)
                };
                Ok(Next::Push(Frame::Triggers(TriggerStage::Pick)))
            }
            TurnStage::PhaseAsk(i) => {
                // Who is asked: the round's players in turn order, one action each in turn.
                let (p, round) = {
                    let st = self.state.borrow();
                    let round = round_players(&st, db.rules.manifest.turn.phases[i].players);
                    let p = match st.round.asked {
                        Some(a) if round.contains(&a) => Some(a),
                        Some(a) => Some(next_in(&st, &round, a)),
                        None => round.first().copied(),
                    };
                    (p, round)
                };
                let done = self.state.borrow().round.passes as usize >= round.len();
                let Some(p) = p.filter(|_| !done) else {
                    // Nobody left to ask, or all who are left have passed in a row.
                    self.state.borrow_mut().round = Round::default();
                    *stage = TurnStage::PhaseFinish(i);
                    return Ok(Next::Again);
                };
                // The options listed when asking are reused for the answer (same state);
                // a fork has no cache and lists them again, with the same result. The
                // kernel's own action kinds come first, then the `actions` function's.
                let (ctx, kinds, options) = match (self.options_cache.take(), &input) {
                    (Some((ctx, options, _)), Input::Answer(_)) => {
                        (ctx, std::mem::take(&mut self.kind_options), Some(options))
                    }
                    _ => {
                        let ctx = self.ctx(Some(p), None, None)?;
                        let kinds = self.list_kinds(&phases[i].kinds, p, &ctx, None)?;
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
                                return Ok(self.pass(stage, i, p, &round));
                            }
                            self.next_in_round(p, &round);
                            return Ok(Next::Push(self.kind_frame(o, p, ctx, None)?));
                        }
                        let chosen: Table = options.get(k - kinds.len() + 1)?;
                        if chosen.get::<Option<bool>>("ends_phase")?.unwrap_or(false) {
                            return Ok(self.pass(stage, i, p, &round));
                        }
                        self.next_in_round(p, &round);
                        let args = vec![ctx, Value::Table(chosen.clone())];
                        match self.action_frame(&chosen, Some(p), args) {
                            Ok(f) => Ok(Next::Push(f)),
                            Err(e) => self.action_failed(&chosen, e),
                        }
                    }
                    _ => {
                        let choices = listed_choices(
                            &db,
                            &kinds,
                            &options,
                            self.state.borrow().objects.len(),
                        )?;
                        if choices.is_empty() {
                            // Nothing to do is a pass.
                            return Ok(self.pass(stage, i, p, &round));
                        }
                        self.options_cache = Some((ctx, options, None));
                        self.kind_options = kinds;
                        Ok(Next::Ask(Request::Choose {
                            player: p,
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

impl Game {
    /// After player `p` acted in a round-robin open phase, the next player of the round is
    /// asked, and nobody has passed since.
    fn next_in_round(&mut self, p: PlayerId, round: &[PlayerId]) {
        if round.len() > 1 {
            let mut st = self.state.borrow_mut();
            let next = next_in(&st, round, p);
            st.round = Round {
                asked: Some(next),
                passes: 0,
            };
        }
    }
}
