//! A game: the state, the driver's frames and the pending decision. The one entry point for
//! clients: create, read the request, respond, view, fork.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;

pub(crate) mod driver;
mod redeal;

use crate::content::{DeckList, Options, ZoneScope};
use crate::engine::Engine;
use crate::game::driver::{Frame, Input, TurnStage};
use crate::operations::{self, Position};
use crate::rng::Rng;
use crate::state::decisions::{Request, Response, ResponseError};
use crate::state::log::{Entry, Log};
use crate::state::match_context::MatchContext;
use crate::state::seats::{Round, Seats};
use crate::state::{GameResult, ObjId, PlayerId, PlayerState, State, ZoneId, ZoneInst};

/// Most cards one deck list may bring into a game (all sections together).
pub const MAX_DECK_CARDS: u64 = 10_000;

/// A game in progress.
pub struct Game {
    pub(crate) engine: Rc<Engine>,
    pub(crate) state: Rc<RefCell<State>>,
    pub(crate) frames: Vec<Frame>,
    pub(crate) request: Option<Rc<Request>>,
    pub(crate) in_checks: u32,
    /// The game changed since the after-each-operation checks last looked (a new game or a
    /// loaded position has not been looked at).
    pub(crate) unchecked: bool,
    /// Depth of `ctx:together` groups, and the triggers they collected.
    pub(crate) group_depth: u32,
    /// Of those, the groups scripts opened (`ctx:together`, not `per_resolution`'s): the
    /// after-each-operation checks wait until the last one closes.
    pub(crate) together_depth: u32,
    pub(crate) group_batch: Vec<crate::state::pending::Pending>,
    /// The Lua options of the pending open-phase or window request (with the ctx they were
    /// listed for, and a declared window's procedure data), reused when it is answered.
    pub(crate) options_cache: Option<(mlua::Value, mlua::Table, Option<mlua::Table>)>,
    /// The kernel-listed options of the pending open-phase request (they come first).
    pub(crate) kind_options: Vec<driver::KindOption>,
    pub(crate) errors: Vec<String>,
    /// A script exhausted the memory allowance (the failing step sets it; the driver ends
    /// the game).
    pub(crate) exhausted: bool,
    /// Lua memory this game holds (what it grew by since it last had no coroutine
    /// suspended); counted against `limits.script_memory`.
    pub(crate) held: Rc<Cell<usize>>,
    /// A quiescent point (no coroutine suspended) and what players did since: a fork made
    /// while a script is suspended replays the journal from the snapshot.
    snapshot: Rc<Snapshot>,
    journal: Vec<Journal>,
    /// The game was forked: it moves its snapshot to each quiescent decision it answers, so
    /// that its next forks made while a script is suspended replay only the answers since.
    /// A game never forked (a game played out, a playout) copies nothing at its decisions:
    /// it keeps the snapshot it has (taken at its creation, at a hot reload it followed or
    /// by `redeal`) and its journal grows by one small `Response` per decision, for as long
    /// as the game lasts. Its first fork made while a script is suspended then replays
    /// them all, once; from then on it is forked, and its snapshots are taken as they go.
    forked: Cell<bool>,
    /// A fork made while a script was suspended: its state and request are copies, but its
    /// frames are rebuilt (by replaying the journal from the snapshot) only when it is
    /// answered, so that making the fork costs what a quiescent fork costs.
    unbuilt: bool,
    /// A player of the turn side left the game and none is left: the turn ends at once
    /// (the driver unwinds to the end of the turn).
    pub(crate) end_turn: bool,
}

/// What a player did since the last quiescent point: replayed by a fork.
#[derive(Clone, Debug)]
enum Journal {
    Answer(PlayerId, Response),
    Concede(PlayerId),
}

struct Snapshot {
    state: State,
    frames: Vec<Frame>,
    request: Option<Rc<Request>>,
    unchecked: bool,
}

/// How to start a game. The game options go beside it, to [`Game::with_options`].
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// The random seed.
    pub seed: u64,
    /// One deck list per seat.
    pub decks: Vec<DeckList>,
    /// Keep the event log's entries (false keeps only its hash: faster playouts).
    pub keep_log: bool,
}

/// Why a game could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

pub(crate) fn empty_state(engine: &Engine, seats: Seats, seed: u64) -> State {
    let db = &engine.db;
    let nplayers = seats.team_of.len() as u8;
    let mut zones = Vec::new();
    let mut zone_ids = Vec::new();
    for (i, (_, z)) in db.rules.zones.iter().enumerate() {
        let mut row = Vec::new();
        match z.scope {
            ZoneScope::Player => {
                for p in 0..nplayers {
                    row.push(ZoneId(zones.len() as u16));
                    zones.push(ZoneInst {
                        decl: i as u16,
                        owner: Some(p),
                        team: None,
                        cards: Vec::new(),
                    });
                }
            }
            ZoneScope::Shared => {
                row.push(ZoneId(zones.len() as u16));
                zones.push(ZoneInst {
                    decl: i as u16,
                    owner: None,
                    team: None,
                    cards: Vec::new(),
                });
            }
            // One instance per team; each seat's entry is its team's instance.
            ZoneScope::Team => {
                let first = zones.len() as u16;
                for (t, members) in seats.teams.iter().enumerate() {
                    zones.push(ZoneInst {
                        decl: i as u16,
                        owner: members.first().copied(),
                        team: Some(t as u8),
                        cards: Vec::new(),
                    });
                }
                for p in 0..nplayers {
                    row.push(ZoneId(first + seats.team_of[p as usize] as u16));
                }
            }
        }
        zone_ids.push(row);
    }
    State {
        nplayers,
        objects: Arc::default(),
        // Sized by the cards the game holds, not by the content's.
        present: Arc::default(),
        redirected: false,
        zones: Arc::new(zones.into_iter().map(Arc::new).collect()),
        zone_ids: Arc::new(zone_ids),
        players: Arc::new(
            (0..nplayers)
                .map(|_| PlayerState {
                    values: vec![0; db.rules.player_values.syms.len()],
                    out: false,
                    turns_taken: 0,
                })
                .collect(),
        ),
        game_values: Arc::new(vec![0; db.rules.game_values.syms.len()]),
        effects: Arc::new(Vec::new()),
        grants: Arc::new(Vec::new()),
        usage: Arc::new(Vec::new()),
        turn: 0,
        turn_player: 0,
        seats: Arc::new(seats),
        match_context: Arc::default(),
        round: Round::default(),
        phase: None,
        rng: Rng::new(seed),
        clock: 0,
        pending: Arc::new(VecDeque::new()),
        result: None,
        log: Log::default(),
        ops_since_decision: 0,
        loops: Arc::default(),
        replacements_applied: 0,
        running: Default::default(),
        failed: Arc::default(),
        checks_stale: u64::MAX,
        chars: Default::default(),
    }
}

impl Game {
    /// A new game from deck lists, with the options' defaults: cards are created in the
    /// zones the ruleset's deck sections name, then the ruleset's setup runs until the first
    /// decision.
    pub fn new(engine: Rc<Engine>, config: GameConfig) -> Result<Game, SetupError> {
        Game::with_options(engine, config, &Options::new())
    }

    /// A new game with these options (by name; the others take their defaults). The teams
    /// (`hooks.teams`) are formed before any zone is made. An undeclared option or a value
    /// it does not allow is an error naming what is declared and allowed.
    pub fn with_options(
        engine: Rc<Engine>,
        config: GameConfig,
        options: &Options,
    ) -> Result<Game, SetupError> {
        Game::in_match(engine, config, options, &MatchContext::default())
    }

    /// A new game of a match, after the games in `context` (the ruleset's `setup` reads
    /// them with `ctx:match()`). A previous result naming a seat this game lacks is an error.
    pub fn in_match(
        engine: Rc<Engine>,
        config: GameConfig,
        options: &Options,
        context: &MatchContext,
    ) -> Result<Game, SetupError> {
        let n = config.decks.len();
        let pc = &engine.db.rules.manifest.players;
        if n < pc.min as usize || n > pc.max as usize {
            return Err(SetupError(format!(
                "this game needs {}..{} players, got {n} decks",
                pc.min, pc.max
            )));
        }
        // A deck list sizes an allocation: bound it before making anything.
        for (p, deck) in config.decks.iter().enumerate() {
            let total = deck
                .sections
                .values()
                .flat_map(|cards| cards.values().map(|n| *n as u64))
                .sum::<u64>();
            if total > MAX_DECK_CARDS {
                return Err(SetupError(format!(
                    "deck {}: {total} cards; a deck may hold at most {MAX_DECK_CARDS}",
                    p + 1
                )));
            }
        }
        let seats = engine.seats(n as u8, options).map_err(SetupError)?;
        context.check_seats(n as u8).map_err(SetupError)?;
        let mut st = empty_state(&engine, seats, config.seed);
        st.match_context = Arc::new(context.clone());
        st.log.keep = config.keep_log;
        let db = engine.db.clone();
        for (p, deck) in config.decks.iter().enumerate() {
            for (section, cards) in &deck.sections {
                let Some(sec) = db
                    .rules
                    .manifest
                    .deck
                    .sections
                    .iter()
                    .find(|s| &s.name == section)
                else {
                    return Err(SetupError(format!(
                        "deck {}: unknown section '{section}'",
                        p + 1
                    )));
                };
                let decl = db
                    .rules
                    .zone_index(&db.names, &sec.zone)
                    .map_err(SetupError)?;
                for (id, count) in cards {
                    let Some(ci) = db.card_of(id) else {
                        return Err(SetupError(format!("deck {}: no card '{id}'", p + 1)));
                    };
                    for _ in 0..*count {
                        let z = st.zone_id(decl, p as PlayerId);
                        let oid =
                            operations::new_object(&db, &mut st, ci, p as PlayerId, z, None, None);
                        operations::place(&mut st, oid, z, Position::Top);
                    }
                }
            }
        }
        // The decks' stand-ins (`stand_ins` zones) apply from the start.
        operations::refresh_definitions(&db, &mut st);
        let mut g = Game::from_parts(engine, st, vec![Frame::Turns(TurnStage::Setup)]);
        g.drive(Input::Start);
        Ok(g)
    }

    pub(crate) fn from_parts(engine: Rc<Engine>, state: State, frames: Vec<Frame>) -> Game {
        let snapshot = Rc::new(Snapshot {
            state: state.clone(),
            frames: frames.clone(),
            request: None,
            unchecked: true,
        });
        Game {
            engine,
            state: Rc::new(RefCell::new(state)),
            frames,
            request: None,
            in_checks: 0,
            unchecked: true,
            group_depth: 0,
            together_depth: 0,
            group_batch: Vec::new(),
            options_cache: None,
            kind_options: Vec::new(),
            errors: Vec::new(),
            exhausted: false,
            held: Rc::default(),
            snapshot,
            journal: Vec::new(),
            forked: Cell::new(false),
            unbuilt: false,
            end_turn: false,
        }
    }

    /// Makes this game's state the one scripts read.
    pub(crate) fn enter(&self) {
        self.engine.make_current();
        self.engine.db.budget.reset();
        self.engine.db.memory.charge_to(&self.held);
        *self.engine.db.current.borrow_mut() = Some(self.state.clone());
    }

    /// The decision the game waits for, if any.
    pub fn request(&self) -> Option<&Request> {
        self.request.as_deref()
    }

    /// The pending request, shared: a host that answers it (a `&mut` call) while it holds
    /// the request needs no copy of it.
    pub fn shared_request(&self) -> Option<Rc<Request>> {
        self.request.clone()
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.state.borrow().result.clone()
    }

    /// Answers the pending request. An illegal response changes nothing.
    pub fn respond(&mut self, player: PlayerId, response: Response) -> Result<(), ResponseError> {
        let Some(req) = &self.request else {
            return Err(ResponseError::NothingPending);
        };
        if req.player() != player {
            return Err(ResponseError::WrongPlayer {
                expected: req.player(),
                got: player,
            });
        }
        req.check(&response)?;
        self.build();
        self.answer_journaled(player, response);
        self.follow_reloads();
        Ok(())
    }

    /// Journals a checked answer and runs the game on with it. A forked game first moves
    /// its snapshot here if no script is suspended (see `forked`).
    fn answer_journaled(&mut self, player: PlayerId, response: Response) {
        let quiescent = self.quiescent();
        if quiescent && self.forked.get() {
            self.take_snapshot();
        }
        self.journal.push(Journal::Answer(player, response.clone()));
        self.answer(player, response, quiescent);
    }

    /// Moves the game to the newest engine hot reloads made from its own, if the game is at
    /// a quiescent decision (no script suspended; otherwise it stays until it is: a script
    /// suspended in an effect finishes with the version it started with). Each changed card
    /// is logged (`card_reloaded`), and a decision that lists the game's options (an open
    /// phase, a window, the order of triggers) is asked again with the new cards. Returns
    /// whether the game moved. [`Game::respond`] calls it after each answer; a host that
    /// reloads while a player thinks calls it to show the new options at once.
    pub fn follow_reloads(&mut self) -> bool {
        if self.engine.next.borrow().is_none() || !self.quiescent() {
            return false;
        }
        let mut chain = Vec::new();
        let mut e = self.engine.clone();
        loop {
            let next = e.next.borrow().clone();
            let Some(n) = next else { break };
            chain.push(n.clone());
            e = n;
        }
        self.engine = e;
        {
            let mut st = self.state.borrow_mut();
            // New card scripts may read the game otherwise: every check looks again, and
            // every characteristic is worked out again.
            st.checks_stale = u64::MAX;
            st.chars.clear();
            for engine in &chain {
                for r in engine.reloaded() {
                    st.log.push_seen(
                        Entry::CardReloaded {
                            card: r.card.clone(),
                            version: r.version.clone(),
                            removed: r.removed,
                        },
                        Vec::new(),
                    );
                }
            }
            // Redirected definitions and stand-ins are worked out from the cards' data.
            operations::refresh_definitions(&self.engine.db, &mut st);
        }
        self.enter();
        let declaring = self.state.borrow().loops.declaring.is_some();
        let over = self.state.borrow().result.is_some();
        if !over
            && !declaring
            && self.request.is_some()
            && self.frames.last().is_some_and(Frame::asks_again)
        {
            self.request = None;
            self.options_cache = None;
            self.kind_options.clear();
            self.unchecked = true;
            self.drive(Input::Start);
        }
        // Forks replay from here on with the new engine.
        self.take_snapshot();
        true
    }

    /// Makes the game as it is now (quiescent) the point its forks replay from.
    pub(crate) fn take_snapshot(&mut self) {
        self.snapshot = Rc::new(Snapshot {
            state: self.state.borrow().clone(),
            frames: self.frames.clone(),
            request: self.request.clone(),
            unchecked: self.unchecked,
        });
        self.journal.clear();
    }

    /// Logs a checked answer to the pending request and runs the game on with it.
    pub(crate) fn answer(&mut self, player: PlayerId, response: Response, quiescent: bool) {
        let req = self.request.take().expect("a pending request");
        {
            let mut st = self.state.borrow_mut();
            // Who saw the chosen cards: only for a log that keeps its entries.
            let seen = if st.log.keep {
                crate::visibility::decision_seen(&self.engine.db, &st, &req, &response)
            } else {
                Vec::new()
            };
            st.log.push_decision(player, &req, &response, seen);
            // The loop guard counts operations per top-level action: a decision inside an
            // effect (a "you may" each time round) does not reset it.
            if quiescent {
                st.ops_since_decision = 0;
            }
        }
        // A loop declaration is the kernel's own; a barred option's index is mapped back.
        if let Some(r) = self.loop_answer(player, response) {
            self.drive(Input::Answer(r));
        }
    }

    /// A player concedes (at any time; no effect can replace it): they leave the game as
    /// op `eliminate` takes a player out (their cards go where `elimination` says, their
    /// pending abilities, effects and grants end), with the reason `concession`. When one
    /// side or none is left, the game ends; otherwise it goes on: their turn ends at once if
    /// it was theirs, and a question put to them is withdrawn (an open phase, a window or
    /// the order of triggers asks the next player) or, inside a running effect, answered
    /// with its first legal answer. A concession is not an operation: what it moves
    /// triggers nothing. A seat the game does not have is an error; conceding again, or
    /// after the game ended, does nothing.
    pub fn concede(&mut self, player: PlayerId) -> Result<(), ResponseError> {
        let players = self.state.borrow().nplayers;
        if player >= players {
            return Err(ResponseError::NoSuchPlayer { player, players });
        }
        self.build();
        {
            let st = self.state.borrow();
            if st.result.is_some() || st.players[player as usize].out {
                return Ok(());
            }
        }
        self.journal.push(Journal::Concede(player));
        let mut events = Vec::new();
        {
            let mut st = self.state.borrow_mut();
            operations::eliminate(&self.engine.db, &mut st, player, "concession", &mut events);
            for e in events {
                // Who may see the cards it names: as the state is now (the player's cards
                // have gone where the ruleset sends them).
                let seen = if st.log.keep {
                    crate::visibility::event_seen(&self.engine.db, &st, &e)
                } else {
                    Vec::new()
                };
                st.log.push_seen(Entry::Event(e), seen);
            }
        }
        if self.state.borrow().result.is_some() {
            self.frames.clear();
            self.request = None;
            return Ok(());
        }
        let gone_turn = {
            let st = self.state.borrow();
            st.phase.is_some() && st.turn_side().is_empty()
        };
        if gone_turn {
            self.request = None;
            self.options_cache = None;
            self.unwind_turn();
            self.drive(driver::Input::Start);
        } else if let Some(asked) = self.request.as_ref().map(|r| r.player()) {
            // (A loop count the kernel asks for is answered like a running effect's question.)
            let declaring = self.state.borrow().loops.declaring.is_some();
            if !declaring && self.frames.last().is_some_and(Frame::asks_again) {
                // The frame asks again from the game as it is now: the conceder's cards are
                // gone from the options, and if the conceder was asked, whoever is next is.
                self.request = None;
                self.options_cache = None;
                self.drive(driver::Input::Start);
            } else if asked == player {
                // Inside a running effect: its first legal answer.
                let r = self.request.as_ref().expect("checked").first_legal();
                let quiescent = self.quiescent();
                self.answer(player, r, quiescent);
            }
        }
        Ok(())
    }

    /// Whether no script is suspended: a fork here is a plain copy of the state, not a
    /// replay of the answers given since the game's snapshot.
    pub fn quiescent(&self) -> bool {
        !self.unbuilt && !self.frames.iter().any(Frame::holds_lua)
    }

    /// A copy of the game that continues independently. Answered the same way, it behaves
    /// the same. Making it costs a copy of the state (its parts are shared until written)
    /// wherever the game is; where a script is suspended, the fork's first answer first
    /// replays the answers given since the last snapshot, to rebuild the script (a game
    /// never forked before has kept an older snapshot: see `forked`).
    pub fn fork(&self) -> Game {
        self.forked.set(true);
        self.copy()
    }

    /// A fork that leaves this game unmarked (a copy that takes its own snapshot at once).
    fn copy(&self) -> Game {
        Game {
            engine: self.engine.clone(),
            state: Rc::new(RefCell::new(self.state.borrow().clone())),
            frames: if self.quiescent() {
                self.frames.clone()
            } else {
                Vec::new()
            },
            request: self.request.clone(),
            in_checks: self.in_checks,
            unchecked: self.unchecked,
            group_depth: self.group_depth,
            together_depth: self.together_depth,
            group_batch: self.group_batch.clone(),
            options_cache: None,
            kind_options: Vec::new(),
            errors: self.errors.clone(),
            exhausted: false,
            held: Rc::new(Cell::new(self.held.get())),
            snapshot: self.snapshot.clone(),
            journal: self.journal.clone(),
            // A fork played out copies nothing at its decisions until it is forked in turn.
            forked: Cell::new(false),
            unbuilt: !self.quiescent(),
            end_turn: self.end_turn,
        }
    }

    /// Rebuilds an unbuilt fork's frames: replays the journal from the snapshot. The replay
    /// is deterministic, so it arrives at the state and request the fork already shows.
    fn build(&mut self) {
        if !std::mem::take(&mut self.unbuilt) {
            return;
        }
        let s = self.snapshot.clone();
        let mut g = Game::from_parts(self.engine.clone(), s.state.clone(), s.frames.clone());
        g.snapshot = s.clone();
        g.request = s.request.clone();
        g.unchecked = s.unchecked;
        if g.request.is_none() {
            g.drive(Input::Start);
        }
        // The journal may span quiescent decisions (a game forked for the first time): the
        // replay answers without following hot reloads, as the game did not follow any there
        // (it would have taken a snapshot).
        for j in &self.journal {
            match j {
                Journal::Answer(p, r) => {
                    debug_assert!(
                        g.request()
                            .is_some_and(|q| q.player() == *p && q.check(r).is_ok())
                    );
                    g.answer_journaled(*p, r.clone());
                }
                Journal::Concede(p) => {
                    let _ = g.concede(*p);
                }
            }
        }
        debug_assert_eq!(
            g.log_hash(),
            self.log_hash(),
            "a replay arrives where the fork is"
        );
        // The fork already holds every error met up to it; the replay met some again.
        g.errors = std::mem::take(&mut self.errors);
        // A fork of this unbuilt fork made it a forked game.
        g.forked.set(self.forked.get());
        *self = g;
        self.enter();
    }

    /// Log entries so far.
    pub fn log(&self) -> Vec<Entry> {
        self.log_from(0)
    }

    /// Log entries from `start` on: what is new to a client that has read `start`.
    pub fn log_from(&self, start: usize) -> Vec<Entry> {
        let st = self.state.borrow();
        st.log.entries().get(start..).unwrap_or_default().to_vec()
    }

    /// How many entries the log has.
    pub fn log_len(&self) -> usize {
        self.state.borrow().log.entries().len()
    }

    /// The hash of the event log so far.
    pub fn log_hash(&self) -> String {
        self.state.borrow().log.hash()
    }

    /// Script errors met so far (each also in the log).
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// The current turn number.
    pub fn turn(&self) -> u32 {
        self.state.borrow().turn
    }

    /// Number of seats.
    pub fn players(&self) -> u8 {
        self.state.borrow().nplayers
    }

    /// The teams (0-based seats, each team's first seat first); every player alone when
    /// the ruleset forms none.
    pub fn teams(&self) -> Vec<Vec<PlayerId>> {
        self.state.borrow().seats.teams.clone()
    }

    /// Read access to the raw state (for tools and tests; clients use views).
    pub fn with_state<T>(&self, f: impl FnOnce(&State) -> T) -> T {
        f(&self.state.borrow())
    }

    /// The engine this game runs on.
    pub fn engine(&self) -> &Rc<Engine> {
        &self.engine
    }

    /// Number of objects ever made (dead ones included).
    pub fn object_count(&self) -> usize {
        self.state.borrow().objects.len()
    }

    /// The card id of an object.
    pub fn card_id(&self, id: ObjId) -> String {
        let st = self.state.borrow();
        self.engine.db.cards[st.obj(id).card as usize]
            .def
            .id
            .clone()
    }

    /// The label of an object's card for people (its name, with its id when another card
    /// shares the name: `CardData::label`), in `lang` when given.
    pub fn card_label(&self, id: ObjId, lang: Option<&str>) -> String {
        let st = self.state.borrow();
        let card = &self.engine.db.cards[st.obj(id).definition as usize];
        match lang {
            Some(lang) => card.label_in(lang),
            None => card.label.clone(),
        }
    }

    /// A zone's name and owner (None: a shared zone; a team's zone: the team's first seat).
    pub fn zone_of(&self, z: ZoneId) -> (String, Option<PlayerId>) {
        let st = self.state.borrow();
        let zone = st.zone(z);
        let name = &self.engine.db.rules.zones[zone.decl as usize].1.name;
        (name.clone(), zone.owner)
    }
}
