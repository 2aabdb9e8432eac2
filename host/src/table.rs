//! A hosted game: the kernel's game, its seats (token, connection, events sent) and the id of
//! its pending request. Everything a seat is sent comes from the kernel's views of that seat
//! (`Game::view`, `Game::events_for_from`): this is the one place the host reads a game.

use riffle_core::{Game, PlayerId, Response, ResponseError};

use crate::error::ErrorCode;
use crate::protocol::{GameId, ServerMessage};
use crate::session::ConnId;
use crate::token::{new_token, same_token};

/// A refusal: its code and its message.
pub type Refusal = (ErrorCode, String);

/// One seat of a hosted game.
#[derive(Default)]
struct Seat {
    /// Its secret, once joined.
    token: Option<String>,
    /// The connection its messages go to (the last to join or resume).
    conn: Option<ConnId>,
    /// Events sent to it so far: the `seq` of the last.
    seq: u64,
    /// How much of the game's full log its events cover.
    log_pos: usize,
}

/// A game and its seats.
pub struct Table {
    id: GameId,
    game: Game,
    seats: Vec<Seat>,
    /// The pending request's id (0: none yet). A new id for every decision.
    request_id: u64,
}

/// A message for a connection.
pub type Outgoing = (ConnId, ServerMessage);

impl Table {
    /// Hosts `game` (keep its log: the seats' events are read from it).
    pub fn new(id: GameId, game: Game) -> Table {
        let seats = (0..game.players()).map(|_| Seat::default()).collect();
        let request_id = u64::from(game.request().is_some());
        Table {
            id,
            game,
            seats,
            request_id,
        }
    }

    /// The game (read only: every change goes through [`Table::respond`]).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Whether the game is over or can go no further.
    pub fn finished(&self) -> bool {
        self.game.request().is_none()
    }

    /// Gives `seat` to `conn`: a new token, then everything so far.
    pub fn join(&mut self, conn: ConnId, seat: u8) -> Result<Vec<Outgoing>, Refusal> {
        let n = self.seats.len();
        let Some(s) = self.seats.get_mut(seat as usize) else {
            return Err((
                ErrorCode::NoSuchSeat,
                format!("the game has seats 0 to {}, not {seat}", n - 1),
            ));
        };
        if s.token.is_some() {
            return Err((
                ErrorCode::SeatTaken,
                format!("seat {seat} is taken; its holder resumes with its token"),
            ));
        }
        let token = new_token();
        s.token = Some(token.clone());
        let mut out = vec![(
            conn,
            ServerMessage::Joined {
                game_id: self.id,
                seat,
                token,
            },
        )];
        out.extend(self.catch_up(conn, seat, 0)?);
        Ok(out)
    }

    /// `conn` is gone: its seats' messages wait for a `resume`.
    pub fn forget(&mut self, conn: ConnId) {
        for s in &mut self.seats {
            if s.conn == Some(conn) {
                s.conn = None;
            }
        }
    }

    /// The seat whose token `token` is.
    pub fn seat_of(&self, token: Option<&str>) -> Result<u8, Refusal> {
        let Some(token) = token else {
            return Err((
                ErrorCode::MissingToken,
                "this message needs the seat's token (from `joined`)".into(),
            ));
        };
        self.seats
            .iter()
            .position(|s| s.token.as_deref().is_some_and(|t| same_token(t, token)))
            .map(|i| i as u8)
            .ok_or((
                ErrorCode::BadToken,
                format!("not the token of a seat of game {}", self.id),
            ))
    }

    /// The seat's view.
    pub fn view(&self, seat: u8) -> ServerMessage {
        ServerMessage::View {
            game_id: self.id,
            seat,
            view: self.game.view(seat as PlayerId),
        }
    }

    /// `seat` reconnected on `conn`, having seen its events up to `last_seq`: its view, the
    /// events after `last_seq`, its pending request, the result if over. `conn` receives the
    /// seat's messages from now on.
    pub fn catch_up(
        &mut self,
        conn: ConnId,
        seat: u8,
        last_seq: u64,
    ) -> Result<Vec<Outgoing>, Refusal> {
        let s = &self.seats[seat as usize];
        if last_seq > s.seq {
            return Err((
                ErrorCode::BadSequence,
                format!(
                    "seat {seat} was sent events up to {}, not {last_seq}",
                    s.seq
                ),
            ));
        }
        // Counted up to now first (none is pending after a decision is pushed; before the
        // first join the setup's are), so that `seq` covers the whole log.
        self.push_events(seat, &mut Vec::new());
        self.seats[seat as usize].conn = Some(conn);
        let mut out = vec![(conn, self.view(seat))];
        // The seat's filtered log is the same whenever it is read at a decision, so the
        // events after `last_seq` are its entries from that position on.
        let entries = self.game.events_for_from(seat as PlayerId, 0);
        for (i, entry) in entries.into_iter().enumerate().skip(last_seq as usize) {
            out.push((
                conn,
                ServerMessage::Event {
                    game_id: self.id,
                    seat,
                    seq: i as u64 + 1,
                    entry,
                },
            ));
        }
        out.extend(self.request_for(seat));
        out.extend(self.game_over_for(seat));
        Ok(out)
    }

    /// Answers the pending request for `seat`. Refused: nothing changed. Accepted: the new
    /// events of every seat, the next request, the result if the game ended.
    pub fn respond(
        &mut self,
        seat: u8,
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
        if self.game.request().is_some() {
            self.request_id += 1;
        }
        let mut out = Vec::new();
        for seat in 0..self.seats.len() as u8 {
            self.push_events(seat, &mut out);
            out.extend(self.request_for(seat));
            out.extend(self.game_over_for(seat));
        }
        Ok(out)
    }

    /// The seat's events it has not been sent, to its connection (counted even when no
    /// connection holds it: a later `resume` sends them).
    fn push_events(&mut self, seat: u8, out: &mut Vec<Outgoing>) {
        let s = &mut self.seats[seat as usize];
        let entries = self.game.events_for_from(seat as PlayerId, s.log_pos);
        s.log_pos = self.game.log_len();
        for entry in entries {
            s.seq += 1;
            if let Some(conn) = s.conn {
                out.push((
                    conn,
                    ServerMessage::Event {
                        game_id: self.id,
                        seat,
                        seq: s.seq,
                        entry,
                    },
                ));
            }
        }
    }

    /// The pending request, to its seat's connection, if it is `seat`'s.
    fn request_for(&self, seat: u8) -> Option<Outgoing> {
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

    /// `game_over` for `seat`, once the game has a result.
    fn game_over_for(&self, seat: u8) -> Option<Outgoing> {
        let result = self.game.result()?;
        let conn = self.seats[seat as usize].conn?;
        Some((
            conn,
            ServerMessage::GameOver {
                game_id: self.id,
                seat,
                winners: result.winners.clone(),
                reason: result.reason.clone(),
            },
        ))
    }
}
