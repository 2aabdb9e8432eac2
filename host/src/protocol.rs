//! The messages of the host protocol: what a client sends ([`ClientMessage`]) and what the host
//! sends back ([`ServerMessage`]), one JSON object each, told apart by `type`. Seats are
//! numbered from 0, as the kernel's views number players. docs/protocol.md has an example of
//! each and the versioning rule; `schema/protocol/` holds their JSON Schemas.

use std::collections::BTreeMap;

use riffle_core::{Entry, PlayerView, Request, Response};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::ErrorCode;

/// The protocol's major version: it changes when a message changes in a way a client of the
/// previous version could misread (a field removed, renamed or given another meaning). New
/// messages and new fields keep it; clients ignore fields they do not know.
pub const PROTOCOL_VERSION: u32 = 1;

/// A game's id in a session (counted from 1).
pub type GameId = u64;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Says which protocol version the client speaks; answered by `welcome` (the host's
    /// version and the games it has loaded), or `unsupported_version`.
    Hello {
        /// The client's major protocol version.
        protocol: u32,
    },
    /// Starts a game; answered by `created`. Nobody sits until a client `join`s.
    Create(CreateGame),
    /// Takes a seat of a game; answered by `joined` with the seat's secret token, then what
    /// `resume` from the start sends (the view, every event so far, the seat's request).
    Join {
        /// The game.
        game_id: GameId,
        /// The seat (from 0). Without a seat: a spectator, who sees a card only when every
        /// seat may see it, and decides nothing.
        #[serde(default)]
        seat: Option<u8>,
        /// `readable`: the seat is also sent `log` messages, the game told for people as
        /// `riffle play` prints it (seats only: refused for a spectator).
        #[serde(default)]
        log: Option<LogStyle>,
    },
    /// Asks for the seat's view now; answered by `view`.
    View {
        /// The game.
        game_id: GameId,
        /// The seat's token, from `joined`.
        #[serde(default)]
        token: Option<String>,
    },
    /// Answers the seat's pending request. Accepted: the game moves on and every seat gets
    /// its new events (and the next request goes to its seat). Refused: an `error`, and the
    /// game is as it was.
    Respond {
        /// The game.
        game_id: GameId,
        /// The seat's token, from `joined`.
        #[serde(default)]
        token: Option<String>,
        /// The `request_id` of the request answered.
        request_id: u64,
        /// The answer.
        response: Answer,
    },
    /// After a dropped connection: the seat's view, every event after `last_seq`, and the
    /// seat's pending request. This connection receives the seat's messages from now on.
    Resume {
        /// The game.
        game_id: GameId,
        /// The seat's token, from `joined`.
        #[serde(default)]
        token: Option<String>,
        /// The `seq` of the last event received (0: none).
        last_seq: u64,
    },
}

/// What `create` asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CreateGame {
    /// The game (a folder of `scripts/`: `onepiece`, `gundam`, `summoner-master`).
    pub game: String,
    /// One deck id per seat (a deck list's file name without `.yaml`, in the game's
    /// `cardsets/<game>/decks/`). Default: the game's deck lists dealt to the seats in turn.
    #[serde(default)]
    pub decks: Vec<String>,
    /// The number of seats. Default: one per deck given, else the game's fewest players.
    #[serde(default)]
    pub players: Option<u8>,
    /// The game's format: the same as the option `mode` (Gundam: `standard`,
    /// `battle-royal`, `team`).
    #[serde(default)]
    pub mode: Option<String>,
    /// Game options by name (the ruleset's `options`: `{"level": "summoner"}`); options not
    /// given take their defaults.
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// The random seed. Default: 1.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Seats the host plays itself, by seat (from 0, as a string: JSON keys are strings) →
    /// agent (`random`, `first`): it answers their requests right after each step. A client
    /// cannot join them.
    #[serde(default)]
    pub agents: BTreeMap<String, String>,
    /// What spectators see: without it, only what every seat may see; with it, what one
    /// seat sees, a number of decisions late (a broadcast of a player's hand that cannot
    /// help them). Once the game is over, spectators see its end at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spectate: Option<Spectate>,
}

/// Spectators following one seat's view, late (`create`'s `spectate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Spectate {
    /// The seat whose view spectators see (from 0).
    pub seat: u8,
    /// How many decisions late (at most 1000; 0: as the seat sees it now).
    pub delay: u32,
}

/// What a seat's `log` messages tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LogStyle {
    /// The readable log's lines (`riffle play`'s), for people.
    Readable,
}

/// A card's printed data, as `view` gives it for the cards the view shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CardText {
    /// Its printed name.
    pub name: String,
    /// Its category (`character`, `unit`...).
    pub category: String,
    /// Its printed text (empty: none).
    pub text: String,
}

/// An answer to a request: the kernel's response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Answer {
    /// For a `choose` request: the chosen option indices (from 0, distinct, between `min`
    /// and `max` of them).
    Choose {
        /// The indices.
        indices: Vec<u32>,
    },
    /// For a `number` request: a number from `min` to `max`.
    Number {
        /// The number.
        value: i64,
    },
}

impl From<Answer> for Response {
    fn from(a: Answer) -> Response {
        match a {
            Answer::Choose { indices } => Response::Choose { indices },
            Answer::Number { value } => Response::Number { value },
        }
    }
}

/// A game the host has loaded, as `welcome` names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LoadedGameInfo {
    /// The game's id.
    pub game: String,
    /// The BLAKE3 hash over every content file read: the same hash, the same cards and rules.
    pub content_hash: String,
    /// The deck ids `create` accepts.
    pub decks: Vec<String>,
    /// Fewest and most seats.
    pub players: [u8; 2],
}

/// A message from the host.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to `hello`.
    Welcome {
        /// The host's major protocol version.
        protocol: u32,
        /// The host's Riffle version.
        riffle_version: String,
        /// The games it can create.
        games: Vec<LoadedGameInfo>,
    },
    /// The answer to `create`.
    Created {
        /// The new game's id, for every later message about it.
        game_id: GameId,
        /// The game.
        game: String,
        /// Its number of seats.
        players: u8,
        /// Its seed.
        seed: u64,
    },
    /// The answer to `join`: the seat (or a spectator's place) is the client's.
    Joined {
        /// The game.
        game_id: GameId,
        /// The seat taken (none: a spectator).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<u8>,
        /// The secret: every later message for this seat or spectator carries it. Whoever
        /// holds it plays the seat; it is never sent again.
        token: String,
    },
    /// What the seat may see now (the kernel's view: its hand, the public zones, only the
    /// size of hidden ones); a spectator's: only what every seat may see.
    View {
        /// The game.
        game_id: GameId,
        /// The seat (none: a spectator).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<u8>,
        /// The view.
        #[schemars(with = "serde_json::Value")]
        view: PlayerView,
        /// The printed name, category and text of each card id the view shows (its cards
        /// with an identity, and what they take their definition from); nothing of a card
        /// the seat may not see.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        cards: BTreeMap<String, CardText>,
    },
    /// The seat must decide: answer with `respond` and this `request_id`.
    Request {
        /// The game.
        game_id: GameId,
        /// The seat.
        seat: u8,
        /// The request's id in its game (counted from 1; a new one for every decision).
        request_id: u64,
        /// The kernel's request: `choose` (options, `min`, `max`) or `number` (`min`, `max`).
        #[schemars(with = "serde_json::Value")]
        request: Request,
    },
    /// Something the seat may see happened (the kernel's log entry filtered for the seat, or
    /// for a spectator).
    Event {
        /// The game.
        game_id: GameId,
        /// The seat (none: a spectator).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<u8>,
        /// The event's number for this seat (from 1, no gaps): `resume` names the last seen.
        seq: u64,
        /// The entry: `event`, `decision` or `card_reloaded`.
        #[schemars(with = "serde_json::Value")]
        entry: Entry,
    },
    /// For a seat joined with `log: readable`: the lines the readable log tells of what
    /// happened since its last `log` (the first tells the table's opening too). Sent after
    /// the step's `event`s, before its `request`.
    Log {
        /// The game.
        game_id: GameId,
        /// The seat.
        seat: u8,
        /// The lines, in order.
        lines: Vec<String>,
    },
    /// The game is over.
    GameOver {
        /// The game.
        game_id: GameId,
        /// The seat told (none: a spectator).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<u8>,
        /// The winners' seats (empty: a draw).
        winners: Vec<u8>,
        /// Why it ended (`defeat`, `concession`, `turn_limit`...).
        reason: String,
    },
    /// A message was refused; nothing changed.
    Error {
        /// What went wrong, stable for programs.
        code: ErrorCode,
        /// What went wrong, for people.
        message: String,
        /// The game concerned, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game_id: Option<GameId>,
    },
}

impl ServerMessage {
    /// An `error` message.
    pub fn error(code: ErrorCode, message: impl Into<String>, game_id: Option<GameId>) -> Self {
        ServerMessage::Error {
            code,
            message: message.into(),
            game_id,
        }
    }
}

impl From<Response> for Answer {
    fn from(r: Response) -> Answer {
        match r {
            Response::Choose { indices } => Answer::Choose { indices },
            Response::Number { value } => Answer::Number { value },
        }
    }
}
