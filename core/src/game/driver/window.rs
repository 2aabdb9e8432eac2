//! Response windows: opened by a script (`ctx:window`) or declared as a procedure step.
//!
//! A window asks its players in turn what they do, as its model says: `single` (the first
//! player acts until passing), `once` (each answers once), `alternating` (one action each in
//! turn until all pass in a row). A chosen action runs, then the triggered abilities it
//! caused, then the window asks again. The options are listed once per decision: those
//! listed for the request are kept for its answer (a fork lists them again, alike).

use super::*;
use crate::db::StepFn;
use crate::script::api::{record_from_lua, record_to_lua};

impl Game {
    pub(super) fn step_window(&mut self, w: &mut WindowFrame, input: Input) -> R<Next> {
        if w.running {
            w.running = false;
            if let WindowSource::Declared {
                live, data, proc, ..
            } = &mut w.source
                && let Some(t) = live.take()
            {
                *data = record_from_lua(&self.engine.lua, &t, "a window's procedure data")?.into();
                // The procedure that opened the window is the innermost one on the stack.
                if let Some(slot) = self.procedure_slot() {
                    self.publish_record_at(slot, *proc, data);
                }
            }
            if let Input::Value(_) = input {
                return Ok(Next::Push(Frame::Triggers(TriggerStage::Pick)));
            }
        }
        let mut input = input;
        loop {
            if self.window_closed(w) {
                self.options_cache = None;
                return Ok(Next::Return(match &w.source {
                    WindowSource::Declared { data, .. } => {
                        Value::Table(record_to_lua(&self.engine.lua, &self.engine.db, data)?)
                    }
                    WindowSource::Script { .. } => Value::Nil,
                }));
            }
            while !self
                .state
                .borrow()
                .in_game(w.players[w.turn % w.players.len()])
            {
                w.turn += 1;
            }
            let p = w.players[w.turn % w.players.len()];
            let answer = match std::mem::replace(&mut input, Input::Start) {
                Input::Answer(Response::Choose { indices }) => Some(indices[0] as usize),
                _ => None,
            };
            let (ctx, options, data, kinds) = match (self.options_cache.take(), answer) {
                (Some((Value::Table(ctx), options, data)), Some(_)) => {
                    (ctx, options, data, std::mem::take(&mut self.kind_options))
                }
                _ => self.list_window_options(w, p)?,
            };
            let Some(i) = answer else {
                let choices = listed_choices(
                    &self.engine.db,
                    &kinds,
                    &options,
                    self.state.borrow().objects.len(),
                )?;
                if choices.is_empty() || (w.auto_pass && self.only_passes(&kinds, &options)?) {
                    self.window_passed(w);
                    continue;
                }
                self.options_cache = Some((Value::Table(ctx), options, data));
                self.kind_options = kinds;
                return Ok(Next::Ask(Request::Choose {
                    player: p,
                    prompt: w.prompt.clone(),
                    options: choices,
                    min: 1,
                    max: 1,
                }));
            };
            if let Some(o) = kinds.get(i) {
                let db = self.engine.db.clone();
                if let crate::db::ActionDoes::EndsPhase = db.hooks.actions[o.kind].does {
                    self.window_passed(w);
                    continue;
                }
                self.window_acted(w);
                w.running = true;
                let frame = self.kind_frame(o, p, Value::Table(ctx), data.clone())?;
                self.keep_window_record(w, &frame, data);
                return Ok(Next::Push(frame));
            }
            let chosen: Table = options.get(i - kinds.len() + 1)?;
            let pass = chosen.get::<Option<bool>>("pass")?.unwrap_or(false);
            let acts = chosen.get::<Option<Value>>("run")?.is_some()
                || chosen.get::<Option<Value>>("procedure")?.is_some();
            if pass || (w.model == WindowModel::Once && !acts) {
                self.window_passed(w);
                continue;
            }
            self.window_acted(w);
            w.running = true;
            let mut args = vec![Value::Table(ctx), Value::Table(chosen.clone())];
            args.extend(data.clone().map(Value::Table));
            return match self.action_frame(&chosen, Some(p), args) {
                Ok(f) => {
                    self.keep_window_record(w, &f, data);
                    Ok(Next::Push(f))
                }
                Err(e) => {
                    w.running = false;
                    if let WindowSource::Declared { live, .. } = &mut w.source {
                        *live = None;
                    }
                    self.action_failed(&chosen, e)
                }
            };
        }
    }

    /// While a declared window's action runs, the window keeps the record table the action
    /// got, to read back what the action's script wrote in it. An action that is a procedure
    /// gets no table (it starts from its own record), so the window keeps none: no Lua
    /// value is held, and the decisions of the procedure's own windows stay quiescent.
    fn keep_window_record(&self, w: &mut WindowFrame, frame: &Frame, data: Option<Table>) {
        if let WindowSource::Declared { live, .. } = &mut w.source {
            *live = data.filter(|_| !matches!(frame, Frame::Procedure(_)));
        }
    }

    /// Whether every option listed passes: kernel-listed kinds that end the phase, and
    /// script options marked `pass`.
    fn only_passes(&self, kinds: &[KindOption], options: &Table) -> R<bool> {
        let db = &self.engine.db;
        if kinds.iter().any(|o| {
            !matches!(
                db.hooks.actions[o.kind].does,
                crate::db::ActionDoes::EndsPhase
            )
        }) {
            return Ok(false);
        }
        for o in options.sequence_values::<Table>() {
            if !o?.get::<Option<bool>>("pass")?.unwrap_or(false) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether every player has had their say. Players who left the game are skipped: they
    /// neither act nor pass.
    fn window_closed(&self, w: &WindowFrame) -> bool {
        let live = {
            let st = self.state.borrow();
            w.players.iter().filter(|p| st.in_game(**p)).count()
        };
        live == 0
            || match w.model {
                WindowModel::Single => w.passes >= 1,
                WindowModel::Once => w.turn >= w.players.len(),
                WindowModel::Alternating => w.passes >= live,
            }
    }

    /// The player whose turn it is in the window took an action.
    fn window_acted(&self, w: &mut WindowFrame) {
        match w.model {
            WindowModel::Single => w.passes = 0,
            WindowModel::Once => w.turn += 1,
            WindowModel::Alternating => {
                w.passes = 0;
                w.turn += 1;
            }
        }
    }

    /// The player whose turn it is in the window passed (or had nothing to do).
    fn window_passed(&self, w: &mut WindowFrame) {
        w.passes += 1;
        w.turn += 1;
    }

    /// Lists what player `p` may do in the window now: `(ctx, options, procedure data,
    /// kernel-listed options)`.
    fn list_window_options(
        &mut self,
        w: &WindowFrame,
        p: PlayerId,
    ) -> R<(Table, Table, Option<Table>, Vec<KindOption>)> {
        match &w.source {
            WindowSource::Script { actions, ctx } => {
                ctx.raw_set("player", p as i64 + 1)?;
                let options: Table = self
                    .engine
                    .run(|| actions.call((ctx.clone(), p as i64 + 1)))?;
                Ok((ctx.clone(), options, None, Vec::new()))
            }
            WindowSource::Declared {
                proc, step, data, ..
            } => {
                let db = self.engine.db.clone();
                let StepFn::Window(decl) = &db.hooks.procedures[*proc].steps[*step].does else {
                    unreachable!("a declared window comes from a window step");
                };
                let Value::Table(ctx) = self.ctx(Some(p), None, None)? else {
                    unreachable!("make_ctx returns a table");
                };
                let data = record_to_lua(&self.engine.lua, &self.engine.db, data)?;
                let kinds =
                    self.list_kinds(&decl.kinds, p, &Value::Table(ctx.clone()), Some(&data))?;
                let options: Table = match &decl.actions {
                    Some(f) => self
                        .engine
                        .run(|| f.call((ctx.clone(), p as i64 + 1, data.clone())))?,
                    None => self.engine.lua.create_table()?,
                };
                Ok((ctx, options, Some(data), kinds))
            }
        }
    }
}
