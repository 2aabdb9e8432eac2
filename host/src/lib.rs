//! Riffle's host: runs games for clients that do not link Rust (game UIs, bots, tournament
//! servers) over versioned JSON messages, and sends each seat only what it may see.
//!
//! A [`Session`] holds games and handles one message at a time from a connection; a transport
//! (`riffle serve --stdio`: JSON lines; `--listen`: WebSocket) reads lines, hands them to
//! [`Session::handle_line`] and delivers the [`ServerMessage`]s it returns to their
//! connections. Nothing here prints, reads a terminal or opens a socket.
//!
//! ```no_run
//! use riffle_host::{Library, Session};
//! let library = Library::load(&[".".into()], &["onepiece".into()]).expect("content");
//! let mut session = Session::new(library);
//! for (conn, msg) in session.handle_line(1, r#"{"type":"create","game":"onepiece"}"#) {
//!     println!("to {conn}: {}", serde_json::to_string(&msg).unwrap());
//! }
//! ```
//!
//! What a seat is sent comes from the kernel's views of that seat only (`Game::view`,
//! `Game::events_for_from`), in [`table`]; every action for a seat needs the seat's secret
//! token. docs/protocol.md describes the messages.
#![warn(missing_docs)]

pub mod agents;
pub mod error;
pub mod library;
pub mod lines;
pub mod protocol;
pub mod schema;
pub mod session;
pub mod table;
pub mod token;

pub use error::ErrorCode;
pub use library::{Library, Loaded};
pub use lines::{Line, read_line};
pub use protocol::{
    Answer, CardText, ClientMessage, CreateGame, GameId, LoadedGameInfo, LogStyle,
    PROTOCOL_VERSION, ServerMessage,
};
pub use session::{ConnId, Limits, MAX_GAMES, MAX_MESSAGE_BYTES, MAX_SEARCH_GAMES, Session};
pub use table::Outgoing;
