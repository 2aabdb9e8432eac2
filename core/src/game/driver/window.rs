//! Response windows opened by a procedure.

use super::*;

impl Game {
    pub(super) fn step_window(&mut self, w: &mut WindowFrame, input: Input) -> R<Next> {
        if w.running {
            w.running = false;
            if let Input::Value(_) = input {
                return Ok(Next::Push(Frame::Triggers(TriggerStage::Pick)));
            }
        }
        let lua = self.engine.lua.clone();
        loop {
            if w.passes >= if w.alternating { w.players.len() } else { 1 } || w.players.is_empty() {
                return Ok(Next::Return(Value::Nil));
            }
            let p = w.players[w.turn % w.players.len()];
            let ctx = w.ctx.clone();
            ctx.raw_set("player", p as i64 + 1)?;
            let options: Table = self
                .engine
                .run(|| w.actions.call((ctx.clone(), p as i64 + 1)))?;
            if let Input::Answer(Response::Choose { indices }) = &input {
                let chosen: Table = options.get(indices[0] as usize + 1)?;
                if chosen.get::<Option<bool>>("pass")?.unwrap_or(false) {
                    w.passes += 1;
                    w.turn += 1;
                    if !w.alternating {
                        return Ok(Next::Return(Value::Nil));
                    }
                    return Ok(Next::Again);
                }
                w.passes = 0;
                if w.alternating {
                    w.turn += 1;
                }
                w.running = true;
                let run: Function = chosen.get("run")?;
                let label: String = chosen.get::<Option<String>>("label")?.unwrap_or_default();
                let _ = &lua;
                return Ok(Next::Push(self.lua_frame(
                    &run,
                    vec![Value::Table(ctx), Value::Table(chosen)],
                    format!("action '{label}'"),
                )?));
            }
            let choices = choices_of(&options)?;
            if choices.is_empty() {
                w.passes += 1;
                w.turn += 1;
                if !w.alternating {
                    return Ok(Next::Return(Value::Nil));
                }
                continue;
            }
            return Ok(Next::Ask(Request::Choose {
                player: p,
                prompt: w.prompt.clone(),
                options: choices,
                min: 1,
                max: 1,
            }));
        }
    }
}
