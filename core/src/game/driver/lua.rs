//! Lua frames: running a coroutine and answering what it yields.

use super::*;
use crate::sandbox::raw_yield::{self, Raw, Yielded};

impl Game {
    pub(super) fn step_lua(&mut self, l: &mut LuaFrame, input: Input) -> R<Next> {
        if l.args.is_some() {
            self.open_resolution_group(l);
        }
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
            .run(|| raw_yield::resume::<operations::OpYields>(lua, &l.thread, args))
        {
            Ok(Yielded::Values(v)) => v,
            Ok(Yielded::Raw(kind, fields)) => return self.raw_op(l, kind, &fields),
            Ok(Yielded::_Select(_)) => unreachable!("never made"),
            Err(e) => {
                let mut f = Failure::of(&e);
                self.exhausted |= f.memory;
                // An allocation failure carries no line: the dead coroutine's stack does.
                if f.locations.is_empty() {
                    f.locations.extend(stack_locations(&l.thread));
                }
                return Ok(Next::Fail(f));
            }
        };
        if l.thread.status() != ThreadStatus::Resumable {
            // Groups it left open (its resolution's own, under `per_resolution`) end with it.
            self.close_groups(
                std::mem::take(&mut l.groups),
                std::mem::take(&mut l.together),
            );
            return Ok(Next::Return(out.into_iter().next().unwrap_or(Value::Nil)));
        }
        let mut it = out.into_iter();
        // Read in place: the tag and an operation's kind are not copied out of Lua.
        let tag = match it.next() {
            Some(Value::String(s)) => s,
            _ => {
                return Ok(Next::Fail(Failure::message(
                    "a script yielded outside the kernel's API",
                )));
            }
        };
        let payload = it.next().unwrap_or(Value::Nil);
        let tag = tag.to_str()?;
        match &*tag {
            "op" => {
                let db = self.engine.db.clone();
                // The common operations come as their kind and fields in a fixed order
                // (`operations::positional_fields`); any other as a table.
                // `each`: orientation and counters over a list of cards, one simultaneous step.
                let (ops, list, source, each) = match &payload {
                    Value::String(kind) => {
                        let kind = kind.to_str()?;
                        let kind: &str = &kind;
                        let fields: Vec<Value> = it.collect();
                        let st = self.state.borrow();
                        let ops = operations::parse_positional(lua, &db, &st, kind, &fields);
                        let field = |name: &str| {
                            operations::positional_field(kind, &fields, name)
                                .filter(|v| !matches!(v, Value::Nil))
                        };
                        // A move's result is a list, unless it attaches (`host`).
                        let list = kind == "move" && field("host").is_none();
                        let each = kind == "orientation" && field("cards").is_some();
                        let source = fields.first().and_then(operations::card_in);
                        (ops, list, source, each)
                    }
                    Value::Table(t) => {
                        let ops = {
                            let st = self.state.borrow();
                            operations::parse(lua, &db, &st, t)
                        };
                        let kind: String = t.get("kind")?;
                        let list = kind == "move" && t.get::<Option<Value>>("host")?.is_none();
                        let source = operations::source_of(t)?;
                        let each = matches!(kind.as_str(), "orientation" | "counter")
                            && t.get::<Option<Table>>("cards")?.is_some();
                        (ops, list, source, each)
                    }
                    _ => return Ok(Next::Fail(Failure::message("bad operation"))),
                };
                Ok(ops_frame(l, ops, list, source, each))
            }
            "ask" => {
                let Value::Table(t) = payload else {
                    return Ok(Next::Fail(Failure::message("bad request")));
                };
                match request_of(self, &t) {
                    Ok(r) => Ok(Next::Ask(r)),
                    Err(e) => {
                        let mut f = Failure::of(&e);
                        f.locations.extend(stack_locations(&l.thread));
                        Ok(Next::Fail(f))
                    }
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
                    return Ok(Next::Fail(Failure::message("bad window")));
                };
                let st = self.state.borrow();
                let mut players = Vec::new();
                for p in t.get::<Table>("players")?.sequence_values::<i64>() {
                    players.push(player_arg(&st, p?)?);
                }
                let model: String = t
                    .get::<Option<String>>("model")?
                    .unwrap_or_else(|| "single".into());
                let model = match model.as_str() {
                    "single" => WindowModel::Single,
                    "once" => WindowModel::Once,
                    "alternating" => WindowModel::Alternating,
                    m => {
                        return Ok(Next::Fail(Failure::message(format!(
                            "unknown window model '{m}' (single, once, alternating)"
                        ))));
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
                Ok(Next::Push(Frame::Window(Box::new(WindowFrame {
                    players,
                    model,
                    source: WindowSource::Script {
                        actions: t.get("actions")?,
                        ctx,
                    },
                    prompt: t
                        .get::<Option<String>>("prompt")?
                        .unwrap_or_else(|| "window".into()),
                    turn: 0,
                    passes: 0,
                    running: false,
                    auto_pass: false,
                }))))
            }
            "procedure" => {
                let Value::Table(t) = payload else {
                    return Ok(Next::Fail(Failure::message("bad procedure")));
                };
                let name: String = t.get("name")?;
                let data: Option<Table> = t.get("data")?;
                let player = match t.get::<Option<i64>>("player")? {
                    Some(p) => Some(player_arg(&self.state.borrow(), p)?),
                    None => None,
                };
                match self.procedure_frame(&name, data.as_ref(), player) {
                    Ok(f) => Ok(Next::Push(f)),
                    Err(e) => {
                        let mut f = Failure::of(&e);
                        f.locations.extend(stack_locations(&l.thread));
                        Ok(Next::Fail(f))
                    }
                }
            }
            other => Ok(Next::Fail(Failure::message(format!(
                "unknown yield '{other}'"
            )))),
        }
    }
}

impl Game {
    /// An operation the prelude yielded, read in place (`sandbox::raw_yield`): parsed as
    /// its mlua values would be (`operations::parse_raw`).
    fn raw_op(&mut self, l: &mut LuaFrame, kind: &str, fields: &[Raw]) -> R<Next> {
        if l.thread.status() != ThreadStatus::Resumable {
            // Values of an operation's shape returned, not yielded: the first is its tag.
            self.close_groups(
                std::mem::take(&mut l.groups),
                std::mem::take(&mut l.together),
            );
            let tag = self.engine.lua.create_string("op")?;
            return Ok(Next::Return(Value::String(tag)));
        }
        let (ops, list, source, each) = {
            let st = self.state.borrow();
            operations::parse_raw(&self.engine.db, &st, kind, fields)
        };
        Ok(ops_frame(l, ops, list, source, each))
    }
}

/// The frame that performs the operation `ops` parsed (or the failure it raised, which
/// names where the script asked: that is on its stack).
fn ops_frame(
    l: &LuaFrame,
    ops: mlua::Result<Vec<Op>>,
    list: bool,
    source: Option<ObjId>,
    each: bool,
) -> Next {
    let ops = match ops {
        Ok(o) => o,
        Err(e) => {
            let mut f = Failure::of(&e);
            f.locations.extend(stack_locations(&l.thread));
            return Next::Fail(f);
        }
    };
    Next::Push(Frame::Ops(Box::new(OpsFrame {
        each,
        sources: vec![source; ops.len()],
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

/// The `file.lua:line` of each frame of a suspended (or failed) coroutine, innermost first:
/// where the script was when it asked the kernel for something, or when it failed.
fn stack_locations(thread: &mlua::Thread) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    if !matches!(
        thread.status(),
        ThreadStatus::Resumable | ThreadStatus::Error
    ) {
        return out;
    }
    // SAFETY: the thread is suspended or dead (not running) and alive while `thread` is held;
    // lua_getinfo only reads its call stack into `ar`, whose strings it owns until the
    // next call.
    unsafe {
        let l = thread.state();
        for level in 0..64 {
            let mut ar: mlua::ffi::lua_Debug = std::mem::zeroed();
            if mlua::ffi::lua_getinfo(l, level, c"sl".as_ptr(), &mut ar) == 0 {
                break;
            }
            if ar.short_src.is_null() || ar.currentline < 1 {
                continue;
            }
            let src = std::ffi::CStr::from_ptr(ar.short_src).to_string_lossy();
            if src.ends_with(".lua") {
                out.push((src.into_owned(), ar.currentline as u32));
            }
        }
    }
    out
}
