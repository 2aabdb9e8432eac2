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

use mlua::IntoLua as _;
use mlua::thread::ThreadStatus;
use mlua::{Function, Table, Thread, Value};

use crate::characteristics;
use crate::content::{TriggerOrder, WindowModel};
use crate::db::AbilityRef;
use crate::game::Game;
use crate::operations::{self, Op, Outcome};
use crate::sandbox::blame::Failure;
use crate::sandbox::handle::{CardUd, Handle};
use crate::sandbox::{limits, numbers};
use crate::script::api::{event_table, player_arg};
use crate::state::decisions::{Choice, Request, Response};
use crate::state::events::Event;
use crate::state::log::Entry;
use crate::state::pending::{Batch, Pending};
use crate::state::values::Val;
use crate::state::{GameResult, LastKnown, ObjId, PlayerId, State, ZoneId};
use crate::visibility;
pub(crate) use actions::{KindOption, listed_choices};

mod actions;
mod checks;
mod lua;
mod ops;
mod procedure;
mod triggers;
mod turns;
mod window;

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
    /// What runs, for error messages ("card SET-003, ability 2").
    pub(crate) label: String,
    /// A value to resume with once a child frame (rule processing) finishes.
    pub(crate) stash: Option<Value>,
    /// Times resumed: how far it has got (part of a loop's fingerprint).
    pub(crate) resumes: u32,
    /// The card object whose script runs, if it is a card's.
    pub(crate) source: Option<ObjId>,
    /// The ability it carries out, if it is one (a triggered ability, an activated one
    /// offered by a declared action): a failure turns it off for the rest of the game.
    pub(crate) ability: Option<crate::state::AbilityRef>,
    /// Groups it opened and has not closed yet (its `ctx:together` groups and its
    /// resolution's own).
    pub(crate) groups: u32,
    /// Of those, its `ctx:together` groups.
    pub(crate) together: u32,
}

/// One yielded operation being performed, card by card.
#[derive(Clone, Debug)]
pub struct OpsFrame {
    pub(crate) ops: Vec<Op>,
    /// The acting card of each step (`ctx.source` of the script that asked for it).
    pub(crate) sources: Vec<Option<ObjId>>,
    pub(crate) next: usize,
    pub(crate) results: Vec<Outcome>,
    pub(crate) list: bool,
    /// An operation on a list of cards done as one simultaneous step (orientation, counter):
    /// rule checks run once, after its last card, and the script gets one result per card.
    pub(crate) each: bool,
    /// Replacement abilities already applied to the current step (8-1-3-4-3).
    pub(crate) used: Vec<(AbilityRef, Option<ObjId>)>,
    /// A replacement procedure is running for the current step.
    pub(crate) replacing: bool,
    /// Waiting for the player to pick a replacement.
    pub(crate) asking: Option<Vec<(AbilityRef, Option<ObjId>, PlayerId)>>,
    /// Triggered abilities found so far: one batch for the whole operation.
    pub(crate) batch: Vec<Pending>,
}

/// A response window: opened by a script (`ctx:window`) or declared as a procedure step.
#[derive(Clone, Debug)]
pub struct WindowFrame {
    pub(crate) players: Vec<PlayerId>,
    pub(crate) model: WindowModel,
    pub(crate) source: WindowSource,
    pub(crate) prompt: String,
    pub(crate) turn: usize,
    pub(crate) passes: usize,
    /// An action chosen in the window is running.
    pub(crate) running: bool,
    /// A player whose only options are passes passes without being asked.
    pub(crate) auto_pass: bool,
}

/// Where a window's actions come from.
#[derive(Clone, Debug)]
pub enum WindowSource {
    /// `ctx:window{...}`: the script's own functions (so the frame holds Lua).
    Script {
        /// `(ctx, player) -> options`.
        actions: Function,
        /// The ctx its actions get.
        ctx: Table,
    },
    /// A procedure step's window (`game.yaml`): plain data between decisions.
    Declared {
        /// The procedure and step that declare it.
        proc: usize,
        /// The step.
        step: usize,
        /// The procedure's record.
        data: Record,
        /// The record as a Lua table while a chosen action runs.
        live: Option<Table>,
    },
}

/// A procedure's record between steps: shared by the frames that hold it (the procedure and
/// its open window), so that copying the frames, as every fork does, copies no names.
pub type Record = std::rc::Rc<Vec<(String, Val)>>;

/// A procedure the kernel runs step by step (`game.yaml` `procedures`).
#[derive(Clone, Debug)]
pub struct ProcFrame {
    pub(crate) proc: usize,
    pub(crate) step: usize,
    pub(crate) stage: ProcStage,
    /// Who started it: the `ctx.player` of its steps.
    pub(crate) player: Option<PlayerId>,
    /// Its record, kept by the kernel between steps.
    pub(crate) data: Record,
    /// A step returned `"stop"`: only `always` steps run now.
    pub(crate) stopping: bool,
    /// The record as a Lua table while a step's script runs (read back when it returns).
    pub(crate) live: Option<Table>,
}

/// Where a procedure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcStage {
    /// Start the current step.
    Begin,
    /// The current step's script or window is running.
    Running,
    /// The step is done; its triggered abilities are resolving.
    Settling,
    /// The step's script ended by handing the kernel a procedure to run as its last act
    /// (`return {procedure = name, data = {...}}`); that procedure is running.
    Calling,
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
///
/// The driver moves a frame out of the stack and back at every step, and a step's `Next`
/// carries a new one: the large frames are boxed so that every frame is a few words to move
/// (a coroutine or operation frame is made once and stepped many times).
#[derive(Clone, Debug)]
pub enum Frame {
    /// The turn structure.
    Turns(TurnStage),
    /// A coroutine.
    Lua(Box<LuaFrame>),
    /// An operation.
    Ops(Box<OpsFrame>),
    /// Pending triggered abilities.
    Triggers(TriggerStage),
    /// Rule processing.
    Checks(ChecksFrame),
    /// A response window.
    Window(Box<WindowFrame>),
    /// A procedure run step by step.
    Procedure(ProcFrame),
}

impl Frame {
    /// Whether this frame holds Lua coroutine state (and so cannot be cloned into a fork).
    pub fn holds_lua(&self) -> bool {
        match self {
            Frame::Lua(_) | Frame::Ops(_) => true,
            Frame::Window(w) => match &w.source {
                WindowSource::Script { .. } => true,
                WindowSource::Declared { live, .. } => live.is_some(),
            },
            Frame::Procedure(p) => p.live.is_some(),
            Frame::Turns(_) | Frame::Triggers(_) | Frame::Checks(_) => false,
        }
    }

    /// Whether a failure here abandons just this work (a procedure, an action), not the game.
    fn abandonable(&self) -> bool {
        matches!(
            self,
            Frame::Lua(_) | Frame::Ops(_) | Frame::Window(_) | Frame::Procedure(_)
        )
    }

    /// Whether this frame, waiting for an answer, can instead be run again to ask whoever
    /// is next (a player who asked here left the game): an open phase, a window, the order
    /// of triggers, the choice of a replacement.
    pub(crate) fn asks_again(&self) -> bool {
        match self {
            Frame::Turns(TurnStage::PhaseAsk(_)) => true,
            Frame::Triggers(TriggerStage::Asked(_)) => true,
            Frame::Window(w) => !w.running,
            Frame::Ops(o) => o.asking.is_some(),
            _ => false,
        }
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
    /// Stop and ask a player; this frame gets the answer. The request is made blind first:
    /// an option naming a card its chooser may not see names where it is instead.
    Ask(Request),
    /// Ask, as is: the kernel's own request about what its chooser knows already (the order
    /// of their own triggered abilities, which may have triggered in a hidden zone).
    AskKnown(Request),
    /// Run this frame again.
    Again,
    /// A script failed: abandon frames up to the nearest turn, trigger or check frame.
    Fail(Failure),
}

type R<T> = mlua::Result<T>;

impl Game {
    /// Asks `req` of its player, `frame` waiting for the answer: true when the game now waits
    /// for it. A player who left the game is not asked: a running effect gets its first legal
    /// answer (open phases, windows and trigger order skip them before).
    fn ask(&mut self, frame: Frame, req: Request, input: &mut Input) -> bool {
        self.frames.push(frame);
        if !self.state.borrow().in_game(req.player()) {
            let r = req.first_legal();
            self.state.borrow_mut().log.push(Entry::Decision {
                player: req.player(),
                request: req,
                response: r.clone(),
            });
            *input = Input::Answer(r);
            return false;
        }
        // No coroutine suspended: this game holds no Lua memory any more.
        if !self.frames.iter().any(Frame::holds_lua) {
            self.held.set(0);
        }
        self.request = Some(std::rc::Rc::new(req));
        self.loop_request();
        true
    }

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
            // What a game's scripts make the host hold in its log is bounded too.
            if self.state.borrow().log.entries().len() >= limits::LOG_ENTRIES {
                self.finish(GameResult {
                    winners: vec![],
                    reason: "log_limit".into(),
                });
                continue;
            }
            if std::mem::take(&mut self.end_turn) {
                self.unwind_turn();
                input = Input::Start;
            }
            let Some(mut frame) = self.frames.pop() else {
                return;
            };
            let next = match self.step(&mut frame, input) {
                Ok(n) => n,
                Err(e) => {
                    let f = Failure::of(&e);
                    self.exhausted |= f.memory;
                    Next::Fail(f)
                }
            };
            input = Input::Start;
            self.report_stray_errors();
            match next {
                Next::Push(child) => {
                    self.frames.push(frame);
                    self.frames.push(child);
                }
                Next::Return(v) => input = Input::Value(v),
                Next::Ask(req) => {
                    let req = blind(&self.engine.db, &self.state.borrow(), req);
                    if self.ask(frame, req, &mut input) {
                        return;
                    }
                }
                Next::AskKnown(req) => {
                    if self.ask(frame, req, &mut input) {
                        return;
                    }
                }
                Next::Again => self.frames.push(frame),
                Next::Fail(failure) => {
                    let (label, source) = match &frame {
                        Frame::Lua(l) => (l.label.as_str(), l.source),
                        _ => ("", None),
                    };
                    let card = source.map(|s| self.state.borrow().obj(s).definition);
                    let mut message = self.engine.db.describe(label, card, &failure);
                    // The ability the frame carries out, else the one whose lines failed.
                    let ability = match &frame {
                        Frame::Lua(l) if l.ability.is_some() => l.ability,
                        _ => self.engine.db.ability_at_fault(&self.engine.lua, &failure),
                    };
                    if let Some(r) = ability
                        && !failure.memory
                        && self.turn_off(r)
                    {
                        message.push_str(" (this ability is off for the rest of the game)");
                    }
                    self.script_error(message);
                    if std::mem::take(&mut self.exhausted) {
                        let at_fault = self.engine.db.card_at_fault(&failure);
                        self.memory_exhausted(&frame, at_fault);
                        continue;
                    }
                    // The turn structure, trigger resolution or rule processing itself
                    // failed: the game cannot go on from a state nobody can vouch for.
                    if !frame.abandonable() {
                        self.finish(GameResult {
                            winners: vec![],
                            reason: "script_error".into(),
                        });
                        continue;
                    }
                    // Groups the abandoned coroutines opened close with them, so that later
                    // triggers are not held in a batch nobody will close.
                    let mut open = match &frame {
                        Frame::Lua(l) => (l.groups, l.together),
                        _ => (0, 0),
                    };
                    while let Some(f) = self.frames.last() {
                        if matches!(f, Frame::Turns(_) | Frame::Triggers(_) | Frame::Checks(_)) {
                            break;
                        }
                        if let Some(Frame::Lua(l)) = self.frames.pop() {
                            open.0 += l.groups;
                            open.1 += l.together;
                        }
                    }
                    self.close_groups(open.0, open.1);
                    self.trim_records();
                    input = Input::Value(Value::Nil);
                }
            }
        }
    }

    /// No one of the turn side is left in the game: abandon what the turn was doing, up to
    /// the turn structure, which goes on at the end of the turn (`turn_ended`, then the
    /// next side's turn). Groups the abandoned coroutines opened are closed.
    pub(crate) fn unwind_turn(&mut self) {
        let mut open = (0, 0);
        while self.frames.len() > 1 {
            if let Some(Frame::Lua(l)) = self.frames.pop() {
                open.0 += l.groups;
                open.1 += l.together;
            }
        }
        self.close_groups(open.0, open.1);
        self.trim_records();
        self.in_checks = 0;
        self.options_cache = None;
        self.end_turn = false;
        let n = self.engine.db.hooks.phases.len();
        if let Some(Frame::Turns(stage)) = self.frames.last_mut() {
            *stage = TurnStage::PhaseStart(n);
        }
    }

    /// A script exhausted the game's memory allowance: the game ends as the ruleset says
    /// (`limits.memory_exhausted`), and the memory is given back at once.
    fn memory_exhausted(&mut self, frame: &Frame, at_fault: Option<u32>) {
        let policy = self.engine.db.rules.manifest.limits.memory_exhausted;
        // The card the frame runs for; else the card whose script the failure passed through
        // (a ruleset's frame that called it), when every object of it in the game has one
        // owner: a player about to lose cannot force a draw from any frame.
        let owner = match frame {
            Frame::Lua(l) if l.source.is_some() => {
                l.source.map(|s| self.state.borrow().obj(s).owner)
            }
            _ => at_fault.and_then(|card| {
                let st = self.state.borrow();
                let mut owners = st
                    .objects
                    .iter()
                    .filter(|o| o.definition == card)
                    .map(|o| o.owner);
                let first = owners.next()?;
                owners.all(|o| o == first).then_some(first)
            }),
        };
        let winners = match (policy, owner) {
            (crate::content::Exhausted::OwnerLoses, Some(loser)) => {
                let st = self.state.borrow();
                (0..st.nplayers)
                    .filter(|p| st.team_of(*p) != st.team_of(loser) && st.in_game(*p))
                    .collect()
            }
            _ => vec![],
        };
        self.finish(GameResult {
            winners,
            reason: "script_memory".into(),
        });
        self.frames.clear();
        let _ = self.engine.lua.gc_collect();
    }

    /// Reports the errors contained while the step ran (`Db::contain`), each distinct one
    /// once per game: a broken static ability fails on every read.
    fn report_stray_errors(&mut self) {
        if self.engine.db.stray_errors.borrow().is_empty() {
            return;
        }
        let stray = std::mem::take(&mut *self.engine.db.stray_errors.borrow_mut());
        for m in stray {
            if !self.errors.contains(&m) {
                self.script_error(m);
            }
        }
    }

    /// Closes `n` groups whose owners ended or failed, `together` of them `ctx:together`
    /// groups; the last one releases the batch of triggers it held.
    pub(crate) fn close_groups(&mut self, n: u32, together: u32) {
        self.together_depth = self.together_depth.saturating_sub(together);
        if n == 0 || self.group_depth == 0 {
            return;
        }
        self.group_depth = self.group_depth.saturating_sub(n);
        if self.group_depth == 0 {
            let batch = std::mem::take(&mut self.group_batch);
            self.push_batch(batch);
        }
    }

    /// Records a script error (one line, naming who failed) in the game's errors and log.
    /// Turns ability `r` off for the rest of the game; false if it was already.
    fn turn_off(&mut self, r: crate::state::AbilityRef) -> bool {
        let mut st = self.state.borrow_mut();
        if st.failed.contains(&r) {
            return false;
        }
        std::sync::Arc::make_mut(&mut st.failed).push(r);
        true
    }

    pub(crate) fn script_error(&mut self, message: String) {
        let message = limits::cut_message(message);
        self.errors.push(message.clone());
        self.state
            .borrow_mut()
            .log
            .push(Entry::ScriptError { message });
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
        self.engine.db.budget.reset();
        match frame {
            Frame::Turns(stage) => self.step_turns(stage, input),
            Frame::Lua(l) => self.step_lua(l, input),
            Frame::Ops(o) => self.step_ops(o, input),
            Frame::Triggers(t) => self.step_triggers(t, input),
            Frame::Checks(c) => self.step_checks(c, input),
            Frame::Window(w) => self.step_window(w, input),
            Frame::Procedure(p) => self.step_procedure(p, input),
        }
    }

    /// A new coroutine frame calling `f(args...)`.
    pub(crate) fn lua_frame(&self, f: &Function, args: Vec<Value>, label: String) -> R<Frame> {
        self.card_frame(f, args, label, None)
    }

    /// A new coroutine frame running a card's script (`source`).
    pub(crate) fn card_frame(
        &self,
        f: &Function,
        args: Vec<Value>,
        label: String,
        source: Option<ObjId>,
    ) -> R<Frame> {
        let thread = self.engine.lua.create_thread(f.clone())?;
        Ok(Frame::Lua(Box::new(LuaFrame {
            thread,
            args: Some(args),
            label,
            stash: None,
            resumes: 0,
            source,
            ability: None,
            groups: 0,
            together: 0,
        })))
    }

    /// Under `triggers.batch: per_resolution`, what a procedure the kernel starts (an
    /// action, a triggered ability, a step) causes is one batch: the frame opens a group
    /// when it first runs and closes it when it ends (`close_groups`, also on failure).
    pub(crate) fn open_resolution_group(&mut self, frame: &mut LuaFrame) {
        if self.engine.db.rules.manifest.triggers.batch
            == crate::content::BatchPolicy::PerResolution
        {
            frame.groups += 1;
            self.group_depth += 1;
        }
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
}

/// "card SET-003, ability 2": what errors name (the file:line comes from the failure).
fn card_label(db: &crate::db::Db, card: u32, what: &str) -> String {
    format!("card {}, {what}", db.cards[card as usize].def.id)
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
pub(crate) fn choices_of(options: &Table, limit: usize) -> R<Vec<Choice>> {
    let n = options.raw_len();
    if n > limit {
        return Err(mlua::Error::runtime(format!(
            "{n} options in one request; the limit is {limit} (limits.rs: 16 per card object of the game, 1000 at least)"
        )));
    }
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
        let label = match limits::opt_text(&o, "label")? {
            Some(l) => l,
            None => return Err(mlua::Error::runtime("every option needs a `label`")),
        };
        out.push(Choice {
            label,
            kind: limits::opt_text(&o, "kind")?,
            card,
            target,
            data: vec![],
        });
    }
    Ok(out)
}

fn request_of(g: &Game, t: &Table) -> R<Request> {
    let st = g.state.borrow();
    let player = player_arg(&st, numbers::field(t, "player")?)?;
    let prompt = limits::opt_text(t, "prompt")?.unwrap_or_else(|| "choose".into());
    if t.get::<Option<bool>>("number")?.unwrap_or(false) {
        let min = numbers::field(t, "min")?;
        let max = numbers::field(t, "max")?;
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
    let limit = limits::options_for(g.state.borrow().objects.len());
    let options = choices_of(&t.get::<Table>("options")?, limit)?;
    let count = |key: &str| -> R<u32> {
        let n = numbers::field(t, key)?;
        u32::try_from(n)
            .ok()
            .filter(|n| *n as usize <= options.len())
            .ok_or_else(|| {
                mlua::Error::runtime(format!(
                    "choose: `{key}` should be from 0 to {} (the number of options), not {n}",
                    options.len()
                ))
            })
    };
    let (min, max) = (count("min")?, count("max")?);
    if min > max {
        return Err(mlua::Error::runtime(format!(
            "choose: min {min} > max {max}"
        )));
    }
    Ok(Request::Choose {
        player,
        prompt,
        options,
        min,
        max,
    })
}

/// `req` with every option's card its chooser may not see made blind: where the label names
/// it, it says where the card is instead, and the option keeps no handle to it (a handle
/// would let the chooser follow the card). Every request passes here, a ruleset's, a card's or the kernel's; the
/// script still gets its own option tables back, cards and all.
fn blind(db: &crate::db::Db, st: &State, mut req: Request) -> Request {
    let Request::Choose {
        player, options, ..
    } = &mut req
    else {
        return req;
    };
    let player = *player;
    let hidden = |id: &ObjId| !visibility::visible(db, st, *id, player);
    for o in options.iter_mut() {
        for id in [o.card, o.target].into_iter().flatten().filter(hidden) {
            // The card's name in the label ("attack Luffy with Zoro", or the label
            // `choose_cards` gives: the name alone) becomes where it is.
            let card = &db.cards[st.obj(id).definition as usize];
            let named = [card.label.as_str(), card.name.as_str()]
                .into_iter()
                .find(|n| !n.is_empty() && o.label.contains(n));
            if let Some(n) = named {
                o.label = o.label.replacen(n, &visibility::blind_label(db, st, id), 1);
            }
        }
        o.card = o.card.filter(|c| !hidden(c));
        o.target = o.target.filter(|c| !hidden(c));
    }
    req
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

fn outcomes_to_lua(lua: &mlua::Lua, results: &[Outcome], list: bool, each: bool) -> R<Value> {
    let one = |o: &Outcome| -> R<Value> {
        Ok(match o {
            Outcome::Nothing => Value::Boolean(false),
            Outcome::Done => Value::Boolean(true),
            Outcome::Card(c) => Handle(*c).into_lua(lua)?,
            Outcome::Int(i) => Value::Integer(*i),
            Outcome::Ints(list) => {
                let t = lua.create_table_with_capacity(list.len(), 0)?;
                for (k, i) in list.iter().enumerate() {
                    t.raw_set(k + 1, *i)?;
                }
                Value::Table(t)
            }
        })
    };
    if each {
        let t = lua.create_table_with_capacity(results.len(), 0)?;
        for (i, o) in results.iter().enumerate() {
            t.raw_set(i + 1, one(o)?)?;
        }
        return Ok(Value::Table(t));
    }
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
