//! The driver: a stack of frames that runs the game until a player must decide.
//!
//! Lua procedures run as coroutines. When a script performs an operation it *yields* it to
//! the driver, which runs it outside the script's stack (replacements, events, triggers,
//! checks, even other players' decisions, each in their own frames) and resumes the script
//! with the result. Frames are named states, not numbered steps:
//!
//! - `Turns`: setup, then turns and phases as `game.yaml` declares them (the bottom frame);
//! - `Lua`: a running coroutine;
//! - `Ops`: one yielded operation, card by card, through replacement effects;
//! - `Triggers`: resolving the pending triggered abilities in the ruleset's order;
//! - `Checks`: rule processing, repeated until nothing is left to do;
//! - `Window`: a response window opened by a procedure.
//!
//! Only `Lua` frames (and `Ops`/`Window` frames above them) hold Lua coroutines; when none is
//! on the stack the game is *quiescent* and a fork is a plain clone.

use mlua::thread::ThreadStatus;
use mlua::{Function, Table, Thread, Value};

use crate::content::TriggerOrder;
use crate::db::AbilityRef;
use crate::decisions::{Choice, Request, Response};
use crate::events::Event;
use crate::game::Game;
use crate::log::Entry;
use crate::operations::{self, Op, Outcome};
use crate::script::api::{event_table, player_arg};
use crate::script::card::CardUd;
use crate::state::{GameResult, LastKnown, ObjId, PlayerId};
use crate::triggers::{self, Batch, Pending};

/// Where the turn structure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnStage {
    /// Run the setup procedure.
    Setup,
    /// Setup ran; resolve what it triggered.
    SetupDone,
    /// Begin a turn.
    TurnStart,
    /// Begin phase i.
    PhaseStart(usize),
    /// Phase i's procedure ran.
    PhaseRan(usize),
    /// Ask the turn player for phase i's next action.
    PhaseAsk(usize),
    /// An action of phase i ran.
    ActionDone(usize),
    /// End phase i.
    PhaseFinish(usize),
    /// Phase i's closing procedure ran.
    PhaseFinished(usize),
}

/// A running coroutine.
#[derive(Clone, Debug)]
pub struct LuaFrame {
    pub(crate) thread: Thread,
    pub(crate) args: Option<Vec<Value>>,
    /// What runs, for error messages ("card RF01-003, ability 2").
    pub(crate) label: String,
    /// A value to resume with once a child frame (rule processing) finishes.
    pub(crate) stash: Option<Value>,
    /// Times resumed: how far it has got (part of a loop's fingerprint).
    pub(crate) resumes: u32,
}

/// One yielded operation being performed, card by card.
#[derive(Clone, Debug)]
pub struct OpsFrame {
    pub(crate) ops: Vec<Op>,
    pub(crate) next: usize,
    pub(crate) results: Vec<Outcome>,
    pub(crate) list: bool,
    /// Replacement abilities already applied to the current step (8-1-3-4-3).
    pub(crate) used: Vec<(AbilityRef, Option<ObjId>)>,
    /// A replacement procedure is running for the current step.
    pub(crate) replacing: bool,
    /// Waiting for the player to pick a replacement.
    pub(crate) asking: Option<Vec<(AbilityRef, Option<ObjId>, PlayerId)>>,
    /// Triggered abilities found so far: one batch for the whole operation.
    pub(crate) batch: Vec<Pending>,
}

/// A response window opened by a procedure.
#[derive(Clone, Debug)]
pub struct WindowFrame {
    pub(crate) players: Vec<PlayerId>,
    pub(crate) alternating: bool,
    pub(crate) actions: Function,
    pub(crate) ctx: Table,
    pub(crate) prompt: String,
    pub(crate) turn: usize,
    pub(crate) passes: usize,
    pub(crate) running: bool,
}

/// Resolving the pending triggered abilities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerStage {
    /// Pick the next one.
    Pick,
    /// Waiting for a player to pick which of theirs goes next.
    Asked(PlayerId),
    /// One is resolving.
    Resolving,
}

/// Rule processing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChecksFrame {
    pub(crate) each_op: bool,
    pub(crate) next: usize,
    pub(crate) changed: bool,
    pub(crate) rounds: u32,
}

/// A frame of the driver's stack.
#[derive(Clone, Debug)]
pub enum Frame {
    /// The turn structure.
    Turns(TurnStage),
    /// A coroutine.
    Lua(LuaFrame),
    /// An operation.
    Ops(OpsFrame),
    /// Pending triggered abilities.
    Triggers(TriggerStage),
    /// Rule processing.
    Checks(ChecksFrame),
    /// A response window.
    Window(WindowFrame),
}

impl Frame {
    /// Whether this frame holds Lua coroutine state (and so cannot be cloned into a fork).
    pub fn holds_lua(&self) -> bool {
        matches!(self, Frame::Lua(_) | Frame::Ops(_) | Frame::Window(_))
    }
}

/// What a frame receives when it runs.
#[derive(Clone, Debug)]
pub enum Input {
    /// Start (or continue after pushing nothing).
    Start,
    /// A child frame finished with this value.
    Value(Value),
    /// The player answered the frame's request.
    Answer(Response),
}

/// What a frame asks the driver to do next.
pub enum Next {
    /// Push a child frame; this frame waits for its value.
    Push(Frame),
    /// This frame is done.
    Return(Value),
    /// Stop and ask a player; this frame gets the answer.
    Ask(Request),
    /// Run this frame again.
    Again,
    /// A script failed: abandon frames up to the nearest turn, trigger or check frame.
    Fail(String),
}

type R<T> = mlua::Result<T>;

impl Game {
    /// Runs frames until a decision is needed or the game ends.
    pub(crate) fn drive(&mut self, mut input: Input) {
        self.enter();
        loop {
            if self.state.borrow().result.is_some() {
                self.frames.clear();
                return;
            }
            let limit = self.engine.db.rules.manifest.limits.operations_per_decision;
            if self.state.borrow().ops_since_decision > limit {
                self.finish(GameResult {
                    winners: vec![],
                    reason: "loop".into(),
                });
                continue;
            }
            let Some(mut frame) = self.frames.pop() else {
                return;
            };
            let next = match self.step(&mut frame, input) {
                Ok(n) => n,
                Err(e) => Next::Fail(e.to_string()),
            };
            input = Input::Start;
            match next {
                Next::Push(child) => {
                    self.frames.push(frame);
                    self.frames.push(child);
                }
                Next::Return(v) => input = Input::Value(v),
                Next::Ask(req) => {
                    self.frames.push(frame);
                    self.request = Some(std::rc::Rc::new(req));
                    self.loop_request();
                    return;
                }
                Next::Again => self.frames.push(frame),
                Next::Fail(msg) => {
                    let label = match &frame {
                        Frame::Lua(l) => l.label.clone(),
                        _ => String::new(),
                    };
                    let message = if label.is_empty() {
                        msg
                    } else {
                        format!("{label}: {msg}")
                    };
                    self.errors.push(message.clone());
                    self.state
                        .borrow_mut()
                        .log
                        .push(Entry::ScriptError { message });
                    while let Some(f) = self.frames.last() {
                        if matches!(f, Frame::Turns(_) | Frame::Triggers(_) | Frame::Checks(_)) {
                            break;
                        }
                        self.frames.pop();
                    }
                    input = Input::Value(Value::Nil);
                }
            }
        }
    }

    fn finish(&mut self, r: GameResult) {
        let mut events = Vec::new();
        let mut st = self.state.borrow_mut();
        operations::end(&mut st, r, &mut events);
        for e in events {
            st.log.push(Entry::Event(e));
        }
    }

    fn step(&mut self, frame: &mut Frame, input: Input) -> R<Next> {
        // Every step is a top-level entry into Lua: it gets a fresh budget.
        self.engine.budget.reset();
        match frame {
            Frame::Turns(stage) => self.step_turns(stage, input),
            Frame::Lua(l) => self.step_lua(l, input),
            Frame::Ops(o) => self.step_ops(o, input),
            Frame::Triggers(t) => self.step_triggers(t, input),
            Frame::Checks(c) => self.step_checks(c, input),
            Frame::Window(w) => self.step_window(w, input),
        }
    }

    /// A new coroutine frame calling `f(args...)`.
    pub(crate) fn lua_frame(&self, f: &Function, args: Vec<Value>, label: String) -> R<Frame> {
        let thread = self.engine.lua.create_thread(f.clone())?;
        Ok(Frame::Lua(LuaFrame {
            thread,
            args: Some(args),
            label,
            stash: None,
            resumes: 0,
        }))
    }

    fn ctx(
        &self,
        player: Option<PlayerId>,
        source: Option<ObjId>,
        ability: Option<&Table>,
    ) -> R<Value> {
        self.engine
            .db
            .ctx(&self.engine.lua, player, source, ability)
    }

    fn emit_kernel(&mut self, name: &str, player: Option<PlayerId>, key: Option<String>) -> R<()> {
        let mut e = Event::named(name);
        e.player = player;
        e.key = key;
        let batch = self.record(vec![e])?;
        self.push_batch(batch);
        Ok(())
    }

    /// Logs events and finds the triggered abilities they trigger.
    pub(crate) fn record(&mut self, events: Vec<Event>) -> R<Vec<Pending>> {
        {
            let mut st = self.state.borrow_mut();
            for e in &events {
                // Who may see each card is fixed now, in the state right after the event.
                let seen = if st.log.keep {
                    crate::views::event_seen(&self.engine.db, &st, e)
                } else {
                    Vec::new()
                };
                st.log.push_seen(Entry::Event(e.clone()), seen);
            }
        }
        self.engine.budget.reset();
        let found = {
            let st = self.state.borrow();
            triggers::collect(&self.engine.lua, &self.engine.db, &st, &events)?
        };
        // A delayed ability fires once, then is gone.
        let fired: Vec<u64> = found.iter().filter_map(|p| p.once_grant).collect();
        if !fired.is_empty() {
            let mut st = self.state.borrow_mut();
            std::sync::Arc::make_mut(&mut st.grants).retain(|g| !fired.contains(&g.timestamp));
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
            let mut seen = Vec::new();
            items.retain(|p| {
                let key = (p.ability, p.source);
                let new = !seen.contains(&key);
                seen.push(key);
                new
            });
        }
        let order = policy.order;
        let mut st = self.state.borrow_mut();
        let q = std::sync::Arc::make_mut(&mut st.pending);
        match order {
            TriggerOrder::FifoBatches => q.push_back(Batch { items }),
            TriggerOrder::NewestFirst => q.push_front(Batch { items }),
        }
    }

    // Turns -------------------------------------------------------------------------------

    fn step_turns(&mut self, stage: &mut TurnStage, input: Input) -> R<Next> {
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
                    self.engine.budget.reset();
                    let p: i64 = f.call((ctx, tp as i64 + 1))?;
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
                *stage = if phases[i].actions.is_some() {
                    TurnStage::PhaseAsk(i)
                } else {
                    TurnStage::PhaseFinish(i)
                };
                Ok(Next::Push(Frame::Triggers(TriggerStage::Pick)))
            }
            TurnStage::PhaseAsk(i) => {
                let f = phases[i].actions.clone().expect("open phase");
                let tp = self.state.borrow().turn_player;
                // The options listed when asking are reused for the answer (same state);
                // a fork has no cache and lists them again, with the same result.
                let (ctx, options) = match (self.options_cache.take(), &input) {
                    (Some(cached), Input::Answer(_)) => cached,
                    _ => {
                        let ctx = self.ctx(Some(tp), None, None)?;
                        self.engine.budget.reset();
                        let options: Table = f.call(ctx.clone())?;
                        (ctx, options)
                    }
                };
                match input {
                    Input::Answer(Response::Choose { indices }) => {
                        let chosen: Table = options.get(indices[0] as usize + 1)?;
                        if chosen.get::<Option<bool>>("ends_phase")?.unwrap_or(false) {
                            *stage = TurnStage::PhaseFinish(i);
                            return Ok(Next::Again);
                        }
                        let run: Function = chosen.get("run").map_err(|_| {
                            mlua::Error::runtime("an action without `run` (or `ends_phase`)")
                        })?;
                        *stage = TurnStage::ActionDone(i);
                        let label: String =
                            chosen.get::<Option<String>>("label")?.unwrap_or_default();
                        Ok(Next::Push(self.lua_frame(
                            &run,
                            vec![ctx, Value::Table(chosen)],
                            format!("action '{label}'"),
                        )?))
                    }
                    _ => {
                        let choices = choices_of(&options)?;
                        if choices.is_empty() {
                            *stage = TurnStage::PhaseFinish(i);
                            return Ok(Next::Again);
                        }
                        self.options_cache = Some((ctx, options));
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

    // Lua ---------------------------------------------------------------------------------

    fn step_lua(&mut self, l: &mut LuaFrame, input: Input) -> R<Next> {
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
        self.engine.budget.reset();
        l.resumes += 1;
        let out = match l.thread.resume::<mlua::MultiValue>(args) {
            Ok(v) => v,
            Err(e) => return Ok(Next::Fail(clean_error(&e))),
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

    // Operations --------------------------------------------------------------------------

    fn step_ops(&mut self, o: &mut OpsFrame, input: Input) -> R<Next> {
        let lua = self.engine.lua.clone();
        let db = self.engine.db.clone();
        if o.replacing {
            o.replacing = false;
            match input {
                Input::Value(Value::Table(t)) => {
                    let new_ops = {
                        let st = self.state.borrow();
                        operations::parse(&lua, &db, &st, &t)?
                    };
                    o.ops.splice(o.next..o.next + 1, new_ops);
                }
                _ => {
                    // Replaced by something else entirely.
                    o.results.push(Outcome::Nothing);
                    o.next += 1;
                    o.used.clear();
                }
            }
            return Ok(Next::Again);
        }
        if let Some(cands) = o.asking.take() {
            let Input::Answer(Response::Choose { indices }) = input else {
                return Ok(Next::Fail("expected an answer".into()));
            };
            let i = indices[0] as usize;
            if i >= cands.len() {
                // Declined: every optional candidate of this player is spent for this step.
                for (r, s, _) in cands {
                    o.used.push((r, s));
                }
                return Ok(Next::Again);
            }
            let (r, s, p) = cands[i];
            return self.run_replacement(o, r, s, p);
        }
        if o.next >= o.ops.len() {
            let batch = std::mem::take(&mut o.batch);
            self.push_batch(batch);
            return Ok(Next::Return(outcomes_to_lua(&lua, &o.results, o.list)?));
        }
        let op = o.ops[o.next].clone();
        // Replacement effects (8-1-3-4 style): candidates that apply and were not used yet.
        if !db.replacements.is_empty() {
            let cands = self.replacement_candidates(o, &op)?;
            if !cands.is_empty() {
                // Cards' replacements come before the rules' own (a rule replacement, such as
                // a game's "instead of taking it, you may ...", sees the operation as the
                // cards' effects left it), so only when no card's applies is a rule's offered.
                let cands: Vec<_> = if cands.iter().any(|c| c.1.is_some()) {
                    cands.into_iter().filter(|c| c.1.is_some()).collect()
                } else {
                    cands
                };
                // Order (OP 8-1-3-4-2 style, general): the affected card's own
                // replacements first, then each player's in turn order from the turn player.
                let affected = op_card(&op);
                let own: Vec<_> = cands
                    .iter()
                    .copied()
                    .filter(|c| c.1.is_some() && c.1 == affected)
                    .collect();
                let mine: Vec<_> = if !own.is_empty() {
                    own
                } else {
                    let order = self.state.borrow().players_from_turn_player();
                    let p = order
                        .into_iter()
                        .find(|p| cands.iter().any(|c| c.2 == *p))
                        .unwrap_or(cands[0].2);
                    cands.into_iter().filter(|c| c.2 == p).collect()
                };
                let p = mine[0].2;
                let any_optional = mine.iter().any(|(r, _, _)| db.ability(*r).optional);
                if mine.len() == 1 && !any_optional {
                    let (r, s, p) = mine[0];
                    return self.run_replacement(o, r, s, p);
                }
                let st = self.state.borrow();
                let mut options: Vec<Choice> = mine
                    .iter()
                    .map(|(r, s, _)| Choice {
                        label: match s {
                            Some(s) => {
                                format!("apply {}", db.cards[st.obj(*s).card as usize].def.id)
                            }
                            None => format!("apply rule {}", r.1 + 1),
                        },
                        kind: Some("replacement".into()),
                        card: *s,
                        target: None,
                        data: vec![],
                    })
                    .collect();
                if mine.iter().all(|(r, _, _)| db.ability(*r).optional) {
                    options.push(Choice {
                        label: "decline".into(),
                        kind: Some("decline".into()),
                        card: None,
                        target: None,
                        data: vec![],
                    });
                }
                drop(st);
                o.asking = Some(mine);
                return Ok(Next::Ask(Request::Choose {
                    player: p,
                    prompt: "replacement".into(),
                    options,
                    min: 1,
                    max: 1,
                }));
            }
        }
        if let Op::Group(open) = op {
            if open {
                self.group_depth += 1;
            } else if self.group_depth > 0 {
                self.group_depth -= 1;
                if self.group_depth == 0 {
                    let batch = std::mem::take(&mut self.group_batch);
                    self.push_batch(batch);
                }
            }
            o.results.push(Outcome::Done);
            o.next += 1;
            return Ok(Next::Again);
        }
        // Apply.
        let lk = self.last_known_for(&op)?;
        let (outcome, events) = {
            let mut st = self.state.borrow_mut();
            operations::apply(&db, &mut st, &op, lk)
        };
        let found = self.record(events)?;
        o.batch.extend(found);
        o.results.push(outcome);
        o.next += 1;
        o.used.clear();
        if self.in_checks == 0 && self.any_check_due(true)? {
            return Ok(Next::Push(Frame::Checks(ChecksFrame {
                each_op: true,
                next: 0,
                changed: false,
                rounds: 0,
            })));
        }
        Ok(Next::Again)
    }

    fn run_replacement(
        &mut self,
        o: &mut OpsFrame,
        r: AbilityRef,
        s: Option<ObjId>,
        p: PlayerId,
    ) -> R<Next> {
        let db = self.engine.db.clone();
        o.used.push((r, s));
        o.replacing = true;
        self.state.borrow_mut().replacements_applied += 1;
        let ab = db.ability(r);
        let ctx = self.ctx(Some(p), s, Some(&ab.table))?;
        let t = self.op_table(&o.ops[o.next])?;
        let label = match s {
            Some(s) => card_label(&db, self.state.borrow().obj(s).card, "replacement"),
            None => "rule replacement".into(),
        };
        Ok(Next::Push(self.lua_frame(
            ab.replace.as_ref().expect("checked"),
            vec![ctx, Value::Table(t)],
            label,
        )?))
    }

    fn replacement_candidates(
        &mut self,
        o: &OpsFrame,
        op: &Op,
    ) -> R<Vec<(AbilityRef, Option<ObjId>, PlayerId)>> {
        let db = self.engine.db.clone();
        let kind = op.kind();
        let mut out = Vec::new();
        let mut table = None;
        for &r in &db.replacements {
            let ab = db.ability(r);
            if ab.replaces.as_deref() != Some(kind) {
                continue;
            }
            let sources: Vec<(Option<ObjId>, PlayerId)> = match r.0 {
                None => vec![(None, self.state.borrow().turn_player)],
                Some(c) => {
                    let st = self.state.borrow();
                    let lua = &self.engine.lua;
                    let mut out = Vec::new();
                    for s in db.sources(&st, c, ab) {
                        // A suppressed card replaces nothing.
                        if crate::characteristics::ability_works(lua, &db, &st, s, 0)? {
                            out.push((Some(s), st.obj(s).controller));
                        }
                    }
                    out
                }
            };
            for (s, p) in sources {
                if o.used.contains(&(r, s)) {
                    continue;
                }
                if table.is_none() {
                    table = Some(self.op_table(op)?);
                }
                let ctx = self.ctx(Some(p), s, Some(&ab.table))?;
                self.engine.budget.reset();
                if ab
                    .applies
                    .as_ref()
                    .expect("checked")
                    .call::<bool>((ctx, table.clone()))?
                {
                    out.push((r, s, p));
                }
            }
        }
        Ok(out)
    }

    /// The Lua table describing a single operation, for replacement abilities.
    fn op_table(&self, op: &Op) -> R<Table> {
        let lua = &self.engine.lua;
        let db = &self.engine.db;
        let st = self.state.borrow();
        let t = lua.create_table()?;
        t.set("kind", op.kind())?;
        match op {
            Op::Move {
                card,
                zone,
                player,
                position,
                face,
                orientation,
                reason,
                by,
                host,
            } => {
                t.set("card", CardUd(*card))?;
                let o = st.obj(*card);
                t.set("from", crate::script::api::zone_name(db, &st, o.zone))?;
                if let Some(z) = zone {
                    t.set("zone", db.rules.zones[*z].1.name.as_str())?;
                }
                t.set("player", player.map(|p| p as i64 + 1))?;
                t.set(
                    "position",
                    match position {
                        operations::Position::Top => Value::String(lua.create_string("top")?),
                        operations::Position::Bottom => Value::String(lua.create_string("bottom")?),
                        operations::Position::At(n) => Value::Integer(*n as i64),
                    },
                )?;
                t.set("face", face.map(|f| if f { "up" } else { "down" }))?;
                t.set(
                    "orientation",
                    orientation.map(|s| db.names.name(s).to_string()),
                )?;
                t.set("reason", reason.as_deref())?;
                t.set("by", by.map(|p| p as i64 + 1))?;
                if let Some(h) = host {
                    t.set("host", CardUd(*h))?;
                }
            }
            Op::Orientation {
                card,
                value,
                reason,
                by,
            } => {
                t.set("card", CardUd(*card))?;
                t.set("value", db.names.name(*value))?;
                t.set("reason", reason.as_deref())?;
                t.set("by", by.map(|p| p as i64 + 1))?;
            }
            Op::Counter {
                card,
                counter,
                amount,
                reason,
                by,
            } => {
                t.set("card", CardUd(*card))?;
                t.set("counter", db.names.name(db.rules.counters.syms[*counter]))?;
                t.set("amount", *amount)?;
                t.set("reason", reason.as_deref())?;
                t.set("by", by.map(|p| p as i64 + 1))?;
            }
            Op::Face { card, up } => {
                t.set("card", CardUd(*card))?;
                t.set("up", *up)?;
            }
            Op::Emit(e) => {
                t.set("name", e.name.as_str())?;
                t.set("data", event_table(lua, db, &st, e)?)?;
            }
            _ => {}
        }
        Ok(t)
    }

    fn last_known_for(&mut self, op: &Op) -> R<Option<Vec<LastKnown>>> {
        let Op::Move { card, .. } = op else {
            return Ok(None);
        };
        let db = self.engine.db.clone();
        let st = self.state.borrow();
        let o = st.obj(*card);
        if !o.alive || o.attached_to.is_some() {
            return Ok(None);
        }
        let decl = st.zone(o.zone).decl as usize;
        if !db.rules.zones[decl].1.in_play {
            return Ok(None);
        }
        self.engine.budget.reset();
        let lua = &self.engine.lua;
        let mut out = Vec::new();
        for ci in 0..db.rules.chars.len() {
            out.push(if db.rules.is_int(ci) {
                LastKnown::Int(crate::characteristics::int_raw(lua, &db, &st, *card, ci)?)
            } else {
                LastKnown::Set(crate::characteristics::set_value(lua, &db, &st, *card, ci)?)
            });
        }
        Ok(Some(out))
    }

    // Checks ------------------------------------------------------------------------------

    fn any_check_due(&mut self, each_op: bool) -> R<bool> {
        let db = self.engine.db.clone();
        for c in &db.hooks.checks {
            if each_op && !c.each_op {
                continue;
            }
            let ctx = self.ctx(None, None, None)?;
            self.engine.budget.reset();
            if c.when.call::<bool>(ctx)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn step_checks(&mut self, c: &mut ChecksFrame, input: Input) -> R<Next> {
        if let Input::Value(_) = input {
            self.in_checks -= 1;
        }
        let db = self.engine.db.clone();
        let checks = &db.hooks.checks;
        while c.next < checks.len() {
            let check = &checks[c.next];
            c.next += 1;
            if c.each_op && !check.each_op {
                continue;
            }
            let ctx = self.ctx(None, None, None)?;
            self.engine.budget.reset();
            if check.when.call::<bool>(ctx.clone())? {
                c.changed = true;
                self.in_checks += 1;
                return Ok(Next::Push(self.lua_frame(
                    &check.run,
                    vec![ctx],
                    format!("check {}", check.name),
                )?));
            }
        }
        if c.changed && c.rounds < 100 {
            c.changed = false;
            c.next = 0;
            c.rounds += 1;
            return Ok(Next::Again);
        }
        Ok(Next::Return(Value::Nil))
    }

    // Triggers ----------------------------------------------------------------------------

    fn step_triggers(&mut self, stage: &mut TriggerStage, input: Input) -> R<Next> {
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
        Ok(Next::Push(self.lua_frame(
            &db.hooks.activate,
            vec![ctx, Value::Table(handle), Value::Table(args)],
            label,
        )?))
    }

    /// Removes and returns player `p`'s `nth` pending ability of the front batch (the first
    /// when `nth` is None).
    fn take_pending(&mut self, p: PlayerId, nth: Option<usize>) -> Pending {
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

    // Windows -----------------------------------------------------------------------------

    fn step_window(&mut self, w: &mut WindowFrame, input: Input) -> R<Next> {
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
            self.engine.budget.reset();
            let options: Table = w.actions.call((ctx.clone(), p as i64 + 1))?;
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

/// "card RF01-003 (ability 2, cardsets/.../RF01-003.lua)": what errors name.
fn card_label(db: &crate::db::Db, card: u32, what: &str) -> String {
    let def = &db.cards[card as usize].def;
    match &def.script {
        Some(s) => format!("card {} ({what}, {})", def.id, s.name),
        None => format!("card {} ({what})", def.id),
    }
}

fn op_card(op: &Op) -> Option<ObjId> {
    match op {
        Op::Move { card, .. }
        | Op::Orientation { card, .. }
        | Op::Face { card, .. }
        | Op::Flag { card, .. }
        | Op::Counter { card, .. }
        | Op::Control { card, .. } => Some(*card),
        _ => None,
    }
}

/// Choices from a Lua list of option tables (label, kind, card, target).
pub(crate) fn choices_of(options: &Table) -> R<Vec<Choice>> {
    let mut out = Vec::new();
    for o in options.clone().sequence_values::<Table>() {
        let o = o?;
        let card = match o.get::<Value>("card")? {
            Value::UserData(ud) => Some(ud.borrow::<CardUd>()?.0),
            _ => None,
        };
        let target = match o.get::<Value>("target")? {
            Value::UserData(ud) => Some(ud.borrow::<CardUd>()?.0),
            _ => None,
        };
        let label: String = match o.get::<Option<String>>("label")? {
            Some(l) => l,
            None => return Err(mlua::Error::runtime("every option needs a `label`")),
        };
        out.push(Choice {
            label,
            kind: o.get("kind")?,
            card,
            target,
            data: vec![],
        });
    }
    Ok(out)
}

fn request_of(g: &Game, t: &Table) -> R<Request> {
    let st = g.state.borrow();
    let player = player_arg(&st, t.get("player")?)?;
    let prompt: String = t
        .get::<Option<String>>("prompt")?
        .unwrap_or_else(|| "choose".into());
    if t.get::<Option<bool>>("number")?.unwrap_or(false) {
        let min: i64 = t.get("min")?;
        let max: i64 = t.get("max")?;
        if min > max {
            return Err(mlua::Error::runtime(format!(
                "choose_number: min {min} > max {max}"
            )));
        }
        return Ok(Request::Number {
            player,
            prompt,
            min,
            max,
        });
    }
    let options = choices_of(&t.get::<Table>("options")?)?;
    let min: u32 = t.get("min")?;
    let max: u32 = t.get("max")?;
    Ok(Request::Choose {
        player,
        prompt,
        options,
        min,
        max,
    })
}

fn answer_to_lua(lua: &mlua::Lua, r: &Response) -> R<Value> {
    Ok(match r {
        Response::Choose { indices } => {
            let t = lua.create_table()?;
            for (k, i) in indices.iter().enumerate() {
                t.raw_set(k + 1, *i as i64 + 1)?;
            }
            Value::Table(t)
        }
        Response::Number { value } => Value::Integer(*value),
    })
}

fn outcomes_to_lua(lua: &mlua::Lua, results: &[Outcome], list: bool) -> R<Value> {
    let one = |o: &Outcome| -> R<Value> {
        Ok(match o {
            Outcome::Nothing => Value::Boolean(false),
            Outcome::Done => Value::Boolean(true),
            Outcome::Card(c) => Value::UserData(lua.create_userdata(CardUd(*c))?),
            Outcome::Int(i) => Value::Integer(*i),
        })
    };
    if list {
        let t = lua.create_table()?;
        for (i, o) in results.iter().enumerate() {
            let v = match o {
                Outcome::Card(_) => one(o)?,
                _ => Value::Nil,
            };
            t.raw_set(i + 1, v)?;
        }
        return Ok(Value::Table(t));
    }
    match results.first() {
        Some(o) => one(o),
        None => Ok(Value::Nil),
    }
}

/// A Lua error as one readable line: the script's message with file and line, without
/// mlua's wrapping.
pub(crate) fn clean_error(e: &mlua::Error) -> String {
    match e {
        mlua::Error::CallbackError { cause, traceback } => {
            let inner = clean_error(cause);
            // The traceback's first script frame tells where the script called the kernel.
            match traceback.lines().find(|l| {
                l.trim_start().starts_with(|c: char| c.is_alphanumeric())
                    && l.contains(".lua:")
                    && !l.contains("riffle/prelude.lua")
            }) {
                Some(at) => format!("{} ({inner})", at.trim().trim_end_matches(':')),
                None => inner,
            }
        }
        mlua::Error::RuntimeError(m) => m.lines().next().unwrap_or(m).to_string(),
        mlua::Error::MemoryError(_) => "out of memory (the script's memory cap was reached)".into(),
        other => other
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_string(),
    }
}
