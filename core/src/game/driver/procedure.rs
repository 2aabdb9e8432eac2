//! Procedures the kernel runs step by step (`game.yaml` `procedures`): a battle, a command.
//!
//! Between steps the procedure's record is the kernel's plain data, not a suspended script,
//! so the decisions at its step boundaries are quiescent: the triggered abilities ordered
//! after a step, and every decision of a declared window (a fork there is a plain copy).
//! Inside a step's own script a question suspends that script, as anywhere else.

use super::*;
use crate::db::{StepFn, StopTest, WindowSeats};
use crate::script::api::{record_from_lua, record_to_lua};
use crate::state::values::Val;
use std::sync::Arc;

impl Game {
    pub(super) fn step_procedure(&mut self, f: &mut ProcFrame, input: Input) -> R<Next> {
        let db = self.engine.db.clone();
        let proc = &db.hooks.procedures[f.proc];
        match f.stage {
            ProcStage::Begin => {
                // Shown once when the procedure starts; after that, each step's and window
                // action's changes are shown as they are read back.
                if self.state.borrow().running.len() != self.procedures_below() + 1 {
                    self.publish_record(f);
                }
                loop {
                    while f.stopping && f.step < proc.steps.len() && !proc.steps[f.step].always {
                        f.step += 1;
                    }
                    let Some(step) = proc.steps.get(f.step) else {
                        self.trim_records();
                        let lua = &self.engine.lua;
                        return Ok(Next::Return(Value::Table(record_to_lua(
                            lua, &db, &f.data,
                        )?)));
                    };
                    let Some(cond) = step.stop_unless.as_ref().filter(|_| !f.stopping) else {
                        break;
                    };
                    let goes_on = match cond {
                        StopTest::Alive(fields) => {
                            let st = self.state.borrow();
                            fields.iter().all(|k| {
                                f.data.iter().any(|(n, v)| {
                                    n == k && matches!(v, Val::Card(c) if st.obj(c.card).alive)
                                })
                            })
                        }
                        StopTest::Lua(cond) => {
                            let ctx = self.ctx(f.player, None, None)?;
                            let data = record_to_lua(&self.engine.lua, &db, &f.data)?;
                            self.engine.run(|| cond.call::<bool>((ctx, data)))?
                        }
                    };
                    if goes_on {
                        break;
                    }
                    f.stopping = true;
                }
                let step = &proc.steps[f.step];
                f.stage = ProcStage::Running;
                match &step.does {
                    StepFn::Run(run) => {
                        let ctx = self.ctx(f.player, None, None)?;
                        let data = record_to_lua(&self.engine.lua, &db, &f.data)?;
                        f.live = Some(data.clone());
                        let label = format!("procedure {}, step {}", proc.name, step.name);
                        Ok(Next::Push(self.lua_frame(
                            run,
                            vec![ctx, Value::Table(data)],
                            label,
                        )?))
                    }
                    StepFn::Window(w) => {
                        let mut players = Vec::new();
                        match &w.players {
                            WindowSeats::Lua(seats) => {
                                let ctx = self.ctx(f.player, None, None)?;
                                let data = record_to_lua(&self.engine.lua, &db, &f.data)?;
                                let seats: Table = self.engine.run(|| seats.call((ctx, data)))?;
                                let st = self.state.borrow();
                                for p in seats.sequence_values::<i64>() {
                                    players.push(player_arg(&st, p?)?);
                                }
                            }
                            WindowSeats::ControllerOf(field) => {
                                let st = self.state.borrow();
                                match f.data.iter().find(|(n, _)| n == field) {
                                    Some((_, Val::Card(c))) => {
                                        players.push(st.obj(c.card).controller)
                                    }
                                    _ => {
                                        return Err(mlua::Error::runtime(format!(
                                            "procedure {}, step {}: `players` reads the \
                                             record's '{field}', which is not a card",
                                            proc.name, step.name
                                        )));
                                    }
                                }
                            }
                            WindowSeats::TurnOrder { next, by_option } => {
                                let st = self.state.borrow();
                                players = turn_order_seats(&st, *next, by_option);
                            }
                            WindowSeats::SideOf(field) => {
                                let st = self.state.borrow();
                                let p = record_player(&st, &f.data, field).map_err(|e| {
                                    mlua::Error::runtime(format!(
                                        "procedure {}, step {}: `side_of` {e}",
                                        proc.name, step.name
                                    ))
                                })?;
                                if st.in_game(p) {
                                    players = st
                                        .players_from(p)
                                        .into_iter()
                                        .filter(|q| st.team_of(*q) == st.team_of(p))
                                        .collect();
                                }
                            }
                        }
                        // A player who left the game takes no part.
                        {
                            let st = self.state.borrow();
                            players.retain(|p| !st.players[*p as usize].out);
                        }
                        Ok(Next::Push(Frame::Window(Box::new(WindowFrame {
                            players,
                            model: w.model,
                            source: WindowSource::Declared {
                                proc: f.proc,
                                step: f.step,
                                data: f.data.clone(),
                                live: None,
                            },
                            prompt: w.prompt.clone(),
                            turn: 0,
                            passes: 0,
                            auto_pass: w.auto_pass,
                            running: false,
                        }))))
                    }
                }
            }
            ProcStage::Running => {
                let out = match input {
                    Input::Value(v) => v,
                    _ => Value::Nil,
                };
                let step = &proc.steps[f.step];
                let what = format!("procedure {}: its data", proc.name);
                match (&step.does, f.live.take()) {
                    (StepFn::Run(_), Some(t)) => {
                        f.data = record_from_lua(&self.engine.lua, &t, &what)?.into();
                        self.publish_record(f);
                        f.step = match out {
                            Value::Nil => f.step + 1,
                            // The step's last act is a procedure the kernel runs once the
                            // step's script is over: nothing waits below its windows.
                            Value::Table(call) => {
                                let name: mlua::LuaString =
                                    call.get("procedure").map_err(|_| {
                                        mlua::Error::runtime(format!(
                                            "procedure {}, step {}: a step returns a table only to call a \
                                             procedure: {{procedure = name, data = {{...}}}}",
                                            proc.name, step.name
                                        ))
                                    })?;
                                let data = call.get::<Option<Table>>("data")?;
                                let frame = self.procedure_frame(
                                    &name.to_string_lossy(),
                                    data.as_ref(),
                                    f.player,
                                )?;
                                f.step += 1;
                                f.stage = ProcStage::Calling;
                                return Ok(Next::Push(frame));
                            }
                            Value::String(s) if s == "stop" => {
                                f.stopping = true;
                                f.step + 1
                            }
                            Value::String(s) => {
                                let name = s.to_string_lossy();
                                proc.steps
                                    .iter()
                                    .position(|t| t.name == name)
                                    .ok_or_else(|| {
                                        mlua::Error::runtime(format!(
                                            "procedure {}, step {}: no step '{name}' to go to",
                                            proc.name, step.name
                                        ))
                                    })?
                            }
                            other => {
                                return Err(mlua::Error::runtime(format!(
                                    "procedure {}, step {}: a step returns nothing, a step \
                                     name, \"stop\" or a procedure to call, not a {}",
                                    proc.name,
                                    step.name,
                                    other.type_name()
                                )));
                            }
                        };
                    }
                    _ => {
                        // A window hands back the record its actions left.
                        if let Value::Table(t) = &out {
                            f.data = record_from_lua(&self.engine.lua, t, &what)?.into();
                            self.publish_record(f);
                        }
                        f.step += 1;
                    }
                }
                f.stage = ProcStage::Settling;
                Ok(Next::Push(Frame::Triggers(TriggerStage::Pick)))
            }
            ProcStage::Settling => {
                f.stage = ProcStage::Begin;
                Ok(Next::Again)
            }
            ProcStage::Calling => {
                // The called procedure settled its own steps; this step's end settles too.
                f.stage = ProcStage::Settling;
                Ok(Next::Push(Frame::Triggers(TriggerStage::Pick)))
            }
        }
    }

    /// Shows procedure frame `f`'s record to every script (`State::running`, `ctx:running`):
    /// its entry is the one after those of the procedure frames below it (this frame is off
    /// the stack while it steps), and any entry above is of a procedure that is gone.
    pub(super) fn publish_record(&self, f: &ProcFrame) {
        self.publish_record_at(self.procedures_below(), f.proc, &f.data);
    }

    /// Sets the `slot`th running record (0: the outermost) and drops those after it.
    pub(super) fn publish_record_at(&self, slot: usize, proc: usize, data: &[(String, Val)]) {
        let mut st = self.state.borrow_mut();
        let running = Arc::make_mut(&mut st.running);
        running.truncate(slot);
        running.push((proc, data.to_vec()));
    }

    /// Drops the records of procedures that are no longer on the stack (one returned, or a
    /// failed script abandoned its frames).
    pub(crate) fn trim_records(&self) {
        let n = self.procedures_below();
        let mut st = self.state.borrow_mut();
        if st.running.len() > n {
            Arc::make_mut(&mut st.running).truncate(n);
        }
    }

    /// How many procedure frames are on the stack.
    fn procedures_below(&self) -> usize {
        self.frames
            .iter()
            .filter(|f| matches!(f, Frame::Procedure(_)))
            .count()
    }

    /// The running record of the innermost procedure frame on the stack, if any.
    pub(super) fn procedure_slot(&self) -> Option<usize> {
        self.procedures_below().checked_sub(1)
    }

    /// A frame starting procedure `name` for `player` with the record in `data`.
    pub(crate) fn procedure_frame(
        &self,
        name: &str,
        data: Option<&Table>,
        player: Option<PlayerId>,
    ) -> R<Frame> {
        let db = &self.engine.db;
        let Some(proc) = db.hooks.procedures.iter().position(|p| p.name == name) else {
            let known: Vec<&str> = db
                .hooks
                .procedures
                .iter()
                .map(|p| p.name.as_str())
                .collect();
            return Err(mlua::Error::runtime(format!(
                "no procedure '{name}' (game.yaml declares: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        };
        let data = match data {
            Some(t) => {
                record_from_lua(&self.engine.lua, t, &format!("procedure {name}: its data"))?
            }
            None => Vec::new(),
        };
        Ok(Frame::Procedure(ProcFrame {
            proc,
            step: 0,
            stage: ProcStage::Begin,
            player,
            data: data.into(),
            stopping: false,
            live: None,
        }))
    }

    /// A chosen option could not start (it names no procedure, it has no `run`): that action
    /// fails alone, and the phase or window asks again.
    pub(crate) fn action_failed(&mut self, chosen: &Table, e: mlua::Error) -> R<Next> {
        let f = Failure::of(&e);
        if f.memory || self.engine.db.budget.exceeded() {
            return Err(e);
        }
        let label: String = chosen.get::<Option<String>>("label")?.unwrap_or_default();
        let message = self
            .engine
            .db
            .describe(&format!("action '{label}'"), None, &f);
        self.script_error(message);
        Ok(Next::Again)
    }

    /// The frame that carries out a chosen action option: the procedure it names
    /// (`procedure = "name", data = {...}`), else its `run(ctx, option, ...)` as a script.
    pub(crate) fn action_frame(
        &self,
        chosen: &Table,
        player: Option<PlayerId>,
        args: Vec<Value>,
    ) -> R<Frame> {
        if let Some(name) = chosen.get::<Option<mlua::LuaString>>("procedure")? {
            let name = name.to_string_lossy();
            let data = chosen.get::<Option<Table>>("data")?;
            return self.procedure_frame(&name, data.as_ref(), player);
        }
        let run: Function = chosen.get("run").map_err(|_| {
            mlua::Error::runtime("an action option needs `run` or `procedure` (or `pass`)")
        })?;
        let label: String = chosen.get::<Option<String>>("label")?.unwrap_or_default();
        // The option's card acts: a failure names it, and running out of memory is its
        // owner's loss (limits.memory_exhausted).
        let card = crate::operations::card_in(&chosen.get::<Value>("card")?);
        self.card_frame(&run, args, format!("action '{label}'"), card)
    }
}

/// A window's players in turn order: from the turn player, or from the next player (the
/// turn player last) when the first `by_option` entry whose option has its value says so,
/// else when `next`. With the turn player gone the order starts with the next player already.
fn turn_order_seats(
    st: &crate::state::State,
    next: bool,
    by_option: &[(usize, crate::content::OptionValue, bool)],
) -> Vec<PlayerId> {
    let next = by_option
        .iter()
        .find(|(i, v, _)| st.seats.options.get(*i) == Some(v))
        .map_or(next, |(_, _, n)| *n);
    let mut order = st.turn_order();
    if next && order.first() == Some(&st.turn_player) {
        order.rotate_left(1);
    }
    order
}

/// The player a record field holds: a player value, or a seat from 1 (as Lua gives it).
fn record_player(
    st: &crate::state::State,
    data: &[(String, Val)],
    field: &str,
) -> Result<PlayerId, String> {
    let seat = match data.iter().find(|(n, _)| n == field) {
        Some((_, Val::Player(r))) => Some(r.player as i64),
        Some((_, Val::Int(n))) => Some(*n - 1),
        _ => None,
    };
    match seat {
        Some(s) if (0..st.nplayers as i64).contains(&s) => Ok(s as PlayerId),
        _ => Err(format!(
            "reads the record's '{field}', which is not a player"
        )),
    }
}
