//! Lua frames: running a coroutine and answering what it yields.

use super::*;

impl Game {
    pub(super) fn step_lua(&mut self, l: &mut LuaFrame, input: Input) -> R<Next> {
        let lua = &self.engine.lua;
        let args: mlua::MultiValue = match (l.args.take(), input) {
            (Some(a), _) => a.into_iter().collect(),
            (None, Input::Value(v)) => match l.stash.take() {
                Some(s) => std::iter::once(s).collect(),
                None => std::iter::once(v).collect(),
            },
            (None, Input::Start) => match l.stash.take() {
                Some(s) => std::iter::once(s).collect(),
                None => mlua::MultiValue::new(),
            },
            (None, Input::Answer(r)) => std::iter::once(answer_to_lua(lua, &r)?).collect(),
        };
        l.resumes += 1;
        let out = match self
            .engine
            .run(|| l.thread.resume::<mlua::MultiValue>(args))
        {
            Ok(v) => v,
            Err(e) => {
                self.exhausted |= is_memory_error(&e);
                return Ok(Next::Fail(clean_error(&e)));
            }
        };
        if l.thread.status() != ThreadStatus::Resumable {
            return Ok(Next::Return(out.into_iter().next().unwrap_or(Value::Nil)));
        }
        let mut it = out.into_iter();
        let tag = match it.next() {
            Some(Value::String(s)) => s.to_string_lossy(),
            _ => {
                return Ok(Next::Fail(
                    "a script yielded outside the kernel's API".into(),
                ));
            }
        };
        let payload = it.next().unwrap_or(Value::Nil);
        match tag.as_str() {
            "op" => {
                let Value::Table(t) = payload else {
                    return Ok(Next::Fail("bad operation".into()));
                };
                let db = self.engine.db.clone();
                let ops = {
                    let st = self.state.borrow();
                    operations::parse(lua, &db, &st, &t)
                };
                let ops = match ops {
                    Ok(o) => o,
                    Err(e) => return Ok(Next::Fail(clean_error(&e))),
                };
                let kind: String = t.get("kind")?;
                let list = kind == "move" && t.get::<Option<Value>>("host")?.is_none();
                Ok(Next::Push(Frame::Ops(OpsFrame {
                    ops,
                    next: 0,
                    results: Vec::new(),
                    list,
                    used: Vec::new(),
                    replacing: false,
                    asking: None,
                    batch: Vec::new(),
                })))
            }
            "ask" => {
                let Value::Table(t) = payload else {
                    return Ok(Next::Fail("bad request".into()));
                };
                match request_of(self, &t) {
                    Ok(r) => Ok(Next::Ask(r)),
                    Err(e) => Ok(Next::Fail(clean_error(&e))),
                }
            }
            "triggers" => Ok(Next::Push(Frame::Triggers(TriggerStage::Pick))),
            "check" => Ok(Next::Push(Frame::Checks(ChecksFrame {
                each_op: false,
                next: 0,
                changed: false,
                rounds: 0,
            }))),
            "window" => {
                let Value::Table(t) = payload else {
                    return Ok(Next::Fail("bad window".into()));
                };
                let st = self.state.borrow();
                let mut players = Vec::new();
                for p in t.get::<Table>("players")?.sequence_values::<i64>() {
                    players.push(player_arg(&st, p?)?);
                }
                let model: String = t
                    .get::<Option<String>>("model")?
                    .unwrap_or_else(|| "single".into());
                let alternating = match model.as_str() {
                    "single" => false,
                    "alternating" => true,
                    m => {
                        return Ok(Next::Fail(format!(
                            "unknown window model '{m}' (single, alternating)"
                        )));
                    }
                };
                drop(st);
                let ctx: Table = match t.get::<Option<Table>>("ctx")? {
                    Some(c) => c,
                    None => match self.ctx(None, None, None)? {
                        Value::Table(c) => c,
                        _ => unreachable!("make_ctx returns a table"),
                    },
                };
                Ok(Next::Push(Frame::Window(WindowFrame {
                    players,
                    alternating,
                    actions: t.get("actions")?,
                    ctx,
                    prompt: t
                        .get::<Option<String>>("prompt")?
                        .unwrap_or_else(|| "window".into()),
                    turn: 0,
                    passes: 0,
                    running: false,
                })))
            }
            other => Ok(Next::Fail(format!("unknown yield '{other}'"))),
        }
    }
}
