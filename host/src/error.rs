//! Why the host refused a message: a stable code for programs (snake_case in JSON) and a
//! message for people. A refused message changes nothing.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The stable codes of `error` messages. New codes may be added in a minor change: a client
/// treats a code it does not know as a refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The line is not a JSON object with a string `type`, or a field is missing or of the
    /// wrong kind.
    MalformedMessage,
    /// The `type` names no message of this protocol.
    UnknownMessage,
    /// The line is longer than the host accepts ([`crate::MAX_MESSAGE_BYTES`]).
    MessageTooLarge,
    /// `hello` named a protocol version the host does not speak.
    UnsupportedVersion,
    /// `create` named a game the host has not loaded.
    UnknownGame,
    /// `create` could not start the game: a deck, a seat count, a mode or an option the game
    /// refuses.
    BadSetup,
    /// The session holds as many running games as it may.
    TooManyGames,
    /// No game with this id in the session.
    NoSuchGame,
    /// The game has no such seat.
    NoSuchSeat,
    /// The seat was already taken: its holder resumes with its token.
    SeatTaken,
    /// `create` named an agent the host does not have (agents: `random`, `first`).
    UnknownAgent,
    /// `join` of a spectator asked for what only a seat is told (`log`).
    SeatRequired,
    /// `join` without a seat: the game has as many spectators as it may.
    TooManySpectators,
    /// The message needs the seat's token and has none.
    MissingToken,
    /// The token is not the token of a seat of this game.
    BadToken,
    /// No decision is pending (the game is over).
    NoRequestPending,
    /// The response answers a request already answered (a repeat or a late one).
    StaleRequest,
    /// The response names a request that does not exist yet.
    UnknownRequest,
    /// Another seat is deciding.
    NotYourTurn,
    /// The response does not fit the request (an index out of range, too few or too many
    /// options, a number out of range).
    IllegalResponse,
    /// `resume` named an event sequence number the seat was never sent.
    BadSequence,
}
