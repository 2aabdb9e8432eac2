//! A hosted game: the kernel's game, who follows it (seats and spectators: token,
//! connection, events sent) and the id of its pending request. Everything a seat is sent
//! comes from the kernel's views of that seat (`Game::view`, `Game::events_for_from`), and
//! everything a spectator is sent from the kernel's spectator view (`Game::spectator_view`,
//! `Game::spectator_events_from`): this is the one place the host reads a game for a client.

use std::collections::BTreeMap;

use riffle_content::readable::Narrator;
use riffle_core::{CardView, Entry, Game, PlayerId, PlayerView, Response, ResponseError};

use crate::agents::Agent;
use crate::error::ErrorCode;
use crate::protocol::{CardText, GameId, LogStyle, ServerMessage};
use crate::session::ConnId;
use crate::token::{new_token, same_token};

/// A refusal: its code and its message.
pub type Refusal = (ErrorCode, String);

/// A message for a connection.
pub type Outgoing = (ConnId, ServerMessage);

/// Most spectators of one game.
pub const MAX_SPECTATORS: usize = 64;

/// Who follows a game: a seat, or a spectator (by its place in the game's list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// A seat (from 0).
    Seat(u8),
    /// A spectator.
    Spectator(usize),
}

impl Who {
    /// The `seat` field of the messages it is sent (none for a spectator).
    fn seat(self) -> Option<u8> {
        match self {
            Who::Seat(s) => Some(s),
            Who::Spectator(_) => None,
        }
    }
}

/// A seat or a spectator of a hosted game.
#[derive(Default)]
struct Follower {
    /// Its secret, once joined.
    token: Option<String>,
    /// The connection its messages go to (the last to join or resume).
    conn: Option<ConnId>,
    /// Events sent to it so far: the `seq` of the last.
    seq: u64,
    /// How much of the game's full log its events cover.
    log_pos: usize,
    /// Tells it the readable log (`join` with `log: readable`), seats only.
    narrator: Option<Narrator>,
}

/// A game and who follows it.
pub struct Table {
    id: GameId,
    game: Game,
    seats: Vec<Follower>,
    spectators: Vec<Follower>,
    /// The pending request's id (0: none yet). A new id for every decision.
    request_id: u64,
    /// What the game started from, for its replay.
    start: Option<riffle_content::replay::Header>,
    /// The seats the host plays itself (None: a client's).
    agents: Vec<Option<Agent>>,
    /// Spectators follow this seat's view, late (`create`'s `spectate`): the seat, the
    /// delay in decisions, and the game after each of the last decisions (oldest first).
    late: Option<Late>,
}

/// One seat's view for spectators, `delay` decisions late.
struct Late {
    seat: PlayerId,
    delay: usize,
    /// Forks of the game after each of the last `delay + 1` decisions, the oldest first:
    /// the oldest is what spectators are shown.
    games: std::collections::VecDeque<Game>,
}

/// Most decisions a spectator's view may lag.
pub const MOST_DELAY: u32 = 1000;

impl Table {
    /// Hosts `game` (keep its log: the seats' events are read from it).
    pub fn new(id: GameId, game: Game) -> Table {
        let seats = (0..game.players()).map(|_| Follower::default()).collect();
        let request_id = u64::from(game.request().is_some());
        Table {
            id,
            game,
            seats,
            spectators: Vec::new(),
            request_id,
            start: None,
            agents: Vec::new(),
            late: None,
        }
    }

    /// The same table, its spectators shown `seat`'s view `delay` decisions late.
    pub fn with_late_spectators(mut self, seat: PlayerId, delay: u32) -> Table {
        let mut games = std::collections::VecDeque::new();
        games.push_back(self.game.fork());
        self.late = Some(Late {
            seat,
            delay: delay as usize,
            games,
        });
        self
    }

    /// After a decision: the late view moves on by one.
    fn decided(&mut self) {
        if let Some(l) = &mut self.late {
            l.games.push_back(self.game.fork());
            while l.games.len() > l.delay + 1 {
                l.games.pop_front();
            }
        }
    }

    /// What late spectators are shown: the oldest game kept, or the game itself once over.
    fn shown(&self) -> Option<(&Game, PlayerId)> {
        let l = self.late.as_ref()?;
        if self.game.result().is_some() {
            return Some((&self.game, l.seat));
        }
        Some((l.games.front().unwrap_or(&self.game), l.seat))
    }

    /// The same table, the host playing the seats that have an agent: they decide at once,
    /// up to the first decision of a client's seat.
    pub fn with_agents(mut self, agents: Vec<Option<Agent>>) -> Table {
        self.agents = agents;
        self.run_agents();
        self
    }

    /// The agents answer while one of them decides. A refused answer (an agent's bug) stops
    /// them: the game waits, as it would for a client.
    fn run_agents(&mut self) {
        // A game of agents only stops at its end or at the cap of one played game.
        for _ in 0..riffle_agents::play::DECISION_CAP {
            let Some(req) = self.game.request().cloned() else {
                return;
            };
            let seat = req.player();
            let Some(agent) = self.agents.get_mut(seat as usize).and_then(Option::as_mut) else {
                return;
            };
            let Ok(response) = agent.respond(&self.game, &req) else {
                return;
            };
            if self.game.respond(seat, response).is_err() {
                return;
            }
            self.decided();
            if self.game.request().is_some() {
                self.request_id += 1;
            }
        }
    }

    /// The same table, knowing what its game started from (so that it has a replay).
    pub fn with_start(mut self, start: riffle_content::replay::Header) -> Table {
        self.start = Some(start);
        self
    }

    /// The game's replay so far: its steps, and its end once it is over.
    pub fn replay(&self) -> Result<riffle_content::replay::Replay, String> {
        let start = self
            .start
            .clone()
            .ok_or("this game was hosted without what it started from: it has no replay")?;
        riffle_content::replay::Replay::of_game(start, &self.game)
    }

    /// The game (read only: every change goes through [`Table::respond`]).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Whether the game is over or can go no further.
    pub fn finished(&self) -> bool {
        self.game.request().is_none()
    }

    fn follower(&mut self, who: Who) -> &mut Follower {
        match who {
            Who::Seat(s) => &mut self.seats[s as usize],
            Who::Spectator(i) => &mut self.spectators[i],
        }
    }

    /// Gives `seat` to `conn`, or a spectator's place when `seat` is None: a new token, then
    /// everything so far.
    pub fn join(
        &mut self,
        conn: ConnId,
        seat: Option<u8>,
        log: Option<LogStyle>,
    ) -> Result<Vec<Outgoing>, Refusal> {
        if seat.is_none() && log.is_some() {
            // A spectator's readable log would be told from the full log.
            return Err((
                ErrorCode::SeatRequired,
                "the readable log is told to seats only".into(),
            ));
        }
        let who = match seat {
            Some(seat) => {
                let n = self.seats.len();
                let Some(s) = self.seats.get(seat as usize) else {
                    return Err((
                        ErrorCode::NoSuchSeat,
                        format!(
                            "the game has seats 0 to {}, not {seat}",
                            n.saturating_sub(1)
                        ),
                    ));
                };
                if s.token.is_some() {
                    return Err((
                        ErrorCode::SeatTaken,
                        format!("seat {seat} is taken; its holder resumes with its token"),
                    ));
                }
                if self.agents.get(seat as usize).is_some_and(Option::is_some) {
                    return Err((
                        ErrorCode::SeatTaken,
                        format!("seat {seat} is played by the host's agent"),
                    ));
                }
                Who::Seat(seat)
            }
            None => {
                if self.spectators.len() >= MAX_SPECTATORS {
                    return Err((
                        ErrorCode::TooManySpectators,
                        format!("game {} has {MAX_SPECTATORS} spectators, its most", self.id),
                    ));
                }
                self.spectators.push(Follower::default());
                Who::Spectator(self.spectators.len() - 1)
            }
        };
        let token = new_token();
        self.follower(who).token = Some(token.clone());
        if let (Who::Seat(s), Some(LogStyle::Readable)) = (who, log) {
            self.follower(who).narrator = Some(Narrator::new(Some(s as PlayerId), None));
        }
        let mut out = vec![(
            conn,
            ServerMessage::Joined {
                game_id: self.id,
                seat,
                token,
            },
        )];
        out.extend(self.catch_up(conn, who, 0)?);
        Ok(out)
    }

    /// `conn` is gone: its seats' messages wait for a `resume`.
    pub fn forget(&mut self, conn: ConnId) {
        for s in self.seats.iter_mut().chain(&mut self.spectators) {
            if s.conn == Some(conn) {
                s.conn = None;
            }
        }
    }

    /// Who holds token `token`.
    pub fn who(&self, token: Option<&str>) -> Result<Who, Refusal> {
        let Some(token) = token else {
            return Err((
                ErrorCode::MissingToken,
                "this message needs the token from `joined`".into(),
            ));
        };
        let holds = |f: &Follower| f.token.as_deref().is_some_and(|t| same_token(t, token));
        if let Some(s) = self.seats.iter().position(holds) {
            return Ok(Who::Seat(s as u8));
        }
        self.spectators
            .iter()
            .position(holds)
            .map(Who::Spectator)
            .ok_or((
                ErrorCode::BadToken,
                format!("not a token of game {}", self.id),
            ))
    }

    fn player_view(&self, who: Who) -> PlayerView {
        match (who, self.shown()) {
            (Who::Seat(s), _) => self.game.view(s as PlayerId),
            (Who::Spectator(_), None) => self.game.spectator_view(),
            (Who::Spectator(_), Some((game, seat))) => {
                // The seat's view, without its question: a spectator decides nothing.
                let mut v = game.view(seat);
                v.request = None;
                v
            }
        }
    }

    fn entries(&self, who: Who, start: usize) -> Vec<Entry> {
        match (who, self.shown()) {
            (Who::Seat(s), _) => self.game.events_for_from(s as PlayerId, start),
            (Who::Spectator(_), None) => self.game.spectator_events_from(start),
            (Who::Spectator(_), Some((game, seat))) => game.events_for_from(seat, start),
        }
    }

    /// What `who` may see now, with the printed text of the cards it shows.
    pub fn view(&self, who: Who) -> ServerMessage {
        let view = self.player_view(who);
        ServerMessage::View {
            game_id: self.id,
            seat: who.seat(),
            cards: self.card_texts(&view),
            view,
        }
    }

    /// The printed data of every card id `view` shows: only cards it gives an identity.
    fn card_texts(&self, view: &PlayerView) -> BTreeMap<String, CardText> {
        fn walk<'v>(c: &'v CardView, ids: &mut Vec<&'v str>) {
            ids.extend(c.card.as_deref());
            ids.extend(c.definition.as_deref());
            for a in &c.attachments {
                walk(a, ids);
            }
        }
        let mut ids = Vec::new();
        for c in view.zones.iter().flat_map(|z| &z.cards) {
            walk(c, &mut ids);
        }
        let engine = self.game.engine();
        let printed = &engine.manifest().names.printed;
        let pick = |l: &riffle_core::Localized| {
            l.get(printed)
                .or_else(|| l.values().next())
                .cloned()
                .unwrap_or_default()
        };
        ids.into_iter()
            .filter_map(|id| {
                let d = engine.card_def(id)?;
                let text = CardText {
                    name: pick(&d.name),
                    category: d.category.clone(),
                    text: pick(&d.text).trim().to_string(),
                };
                Some((id.to_string(), text))
            })
            .collect()
    }

    /// The readable log's new lines for `who`, when it asked for them and is connected
    /// (while it is not, they wait: the next call tells them).
    fn tell(&mut self, who: Who, out: &mut Vec<Outgoing>) {
        let Who::Seat(seat) = who else { return };
        let f = &mut self.seats[seat as usize];
        let (Some(conn), Some(narrator)) = (f.conn, f.narrator.as_mut()) else {
            return;
        };
        let lines = narrator.lines(&self.game);
        if !lines.is_empty() {
            out.push((
                conn,
                ServerMessage::Log {
                    game_id: self.id,
                    seat,
                    lines,
                },
            ));
        }
    }

    /// `who` reconnected on `conn`, having seen its events up to `last_seq`: its view, the
    /// events after `last_seq`, its pending request, the result if over. `conn` receives its
    /// messages from now on.
    pub fn catch_up(
        &mut self,
        conn: ConnId,
        who: Who,
        last_seq: u64,
    ) -> Result<Vec<Outgoing>, Refusal> {
        // Counted up to now first (none is pending after a decision is pushed; before the
        // first join the setup's are), so that `seq` covers the whole log.
        self.push_events(who, &mut Vec::new());
        let sent = self.follower(who).seq;
        if last_seq > sent {
            return Err((
                ErrorCode::BadSequence,
                format!("events up to {sent} were sent, not {last_seq}"),
            ));
        }
        self.follower(who).conn = Some(conn);
        let mut out = vec![(conn, self.view(who))];
        // A follower's filtered log is the same whenever it is read at a decision, so the
        // events after `last_seq` are its entries from that position on.
        let entries = self.entries(who, 0);
        for (i, entry) in entries.into_iter().enumerate().skip(last_seq as usize) {
            out.push((
                conn,
                ServerMessage::Event {
                    game_id: self.id,
                    seat: who.seat(),
                    seq: i as u64 + 1,
                    entry,
                },
            ));
        }
        self.tell(who, &mut out);
        out.extend(self.request_for(who));
        out.extend(self.game_over_for(who));
        Ok(out)
    }

    /// Answers the pending request for `who`. Refused: nothing changed. Accepted: the new
    /// events of every seat and spectator, the next request, the result if the game ended.
    pub fn respond(
        &mut self,
        who: Who,
        request_id: u64,
        response: Response,
    ) -> Result<Vec<Outgoing>, Refusal> {
        let Some(req) = self.game.request() else {
            // The game's last answer repeated is as stale as any other.
            let code = if request_id <= self.request_id {
                ErrorCode::StaleRequest
            } else {
                ErrorCode::NoRequestPending
            };
            return Err((
                code,
                format!(
                    "game {} is over: no decision is pending (request {request_id})",
                    self.id
                ),
            ));
        };
        if request_id < self.request_id {
            return Err((
                ErrorCode::StaleRequest,
                format!(
                    "request {request_id} was already answered; the pending one is {}",
                    self.request_id
                ),
            ));
        }
        if request_id > self.request_id {
            return Err((
                ErrorCode::UnknownRequest,
                format!(
                    "no request {request_id} yet; the pending one is {}",
                    self.request_id
                ),
            ));
        }
        let Who::Seat(seat) = who else {
            return Err((ErrorCode::NotYourTurn, "a spectator decides nothing".into()));
        };
        if req.player() != seat as PlayerId {
            return Err((
                ErrorCode::NotYourTurn,
                format!(
                    "seat {} decides request {request_id}, not seat {seat}",
                    req.player()
                ),
            ));
        }
        self.game.respond(seat as PlayerId, response).map_err(|e| {
            let code = match e {
                ResponseError::Illegal(_) => ErrorCode::IllegalResponse,
                ResponseError::NothingPending => ErrorCode::NoRequestPending,
                ResponseError::WrongPlayer { .. } | ResponseError::NoSuchPlayer { .. } => {
                    ErrorCode::NotYourTurn
                }
            };
            (code, e.to_string())
        })?;
        self.decided();
        if self.game.request().is_some() {
            self.request_id += 1;
        }
        self.run_agents();
        let everyone = (0..self.seats.len() as u8)
            .map(Who::Seat)
            .chain((0..self.spectators.len()).map(Who::Spectator));
        let mut out = Vec::new();
        for who in everyone.collect::<Vec<_>>() {
            self.push_events(who, &mut out);
            self.tell(who, &mut out);
            out.extend(self.request_for(who));
            out.extend(self.game_over_for(who));
        }
        Ok(out)
    }

    /// The events `who` has not been sent, to its connection (counted even when no
    /// connection holds it: a later `resume` sends them).
    fn push_events(&mut self, who: Who, out: &mut Vec<Outgoing>) {
        let start = self.follower(who).log_pos;
        let entries = self.entries(who, start);
        // A late spectator has read the log as far as the game it is shown.
        let log_len = match (who, self.shown()) {
            (Who::Spectator(_), Some((game, _))) => game.log_len(),
            _ => self.game.log_len(),
        };
        let id = self.id;
        let f = self.follower(who);
        f.log_pos = log_len;
        for entry in entries {
            f.seq += 1;
            if let Some(conn) = f.conn {
                out.push((
                    conn,
                    ServerMessage::Event {
                        game_id: id,
                        seat: who.seat(),
                        seq: f.seq,
                        entry,
                    },
                ));
            }
        }
    }

    /// The pending request, to its seat's connection, if `who` is that seat.
    fn request_for(&mut self, who: Who) -> Option<Outgoing> {
        let Who::Seat(seat) = who else { return None };
        let req = self.game.request()?;
        let conn = self.seats[seat as usize].conn?;
        (req.player() == seat as PlayerId).then(|| {
            (
                conn,
                ServerMessage::Request {
                    game_id: self.id,
                    seat,
                    request_id: self.request_id,
                    request: req.clone(),
                },
            )
        })
    }

    /// `game_over` for `who`, once the game has a result.
    fn game_over_for(&mut self, who: Who) -> Option<Outgoing> {
        let result = self.game.result()?;
        let conn = self.follower(who).conn?;
        Some((
            conn,
            ServerMessage::GameOver {
                game_id: self.id,
                seat: who.seat(),
                winners: result.winners.clone(),
                reason: result.reason.clone(),
            },
        ))
    }
}
