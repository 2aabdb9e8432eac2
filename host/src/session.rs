//! A session: the games one host runs for its clients, driven by messages. It is
//! transport-free: a transport (stdio, WebSocket) hands it each line a connection sent
//! and delivers what it returns, addressed to connections. It never waits for a client: a
//! message is handled at once, touches at most one game, and a client that stops answering
//! holds up only its own games. One thread drives a session (the kernel's games are not
//! `Send`); a server runs a session per thread to use more cores.

use std::collections::BTreeMap;

use riffle_core::{DeckList, Game, GameConfig, OptionValue, Options};
use serde_json::Value;

use crate::agents::{AGENT_NAMES, Agent};
use crate::error::ErrorCode;
use crate::library::Library;
use crate::protocol::{ClientMessage, CreateGame, GameId, PROTOCOL_VERSION, ServerMessage};
use crate::table::{Outgoing, Refusal, Table};

/// A connection's id, chosen by the transport.
pub type ConnId = u64;

/// The longest message the host reads, in bytes: a longer one is refused unread.
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// Most games a session holds at once, by default.
pub const MAX_GAMES: usize = 64;

/// Most unfinished games with a searching agent (`mcts`) one connection may have created,
/// by default.
pub const MAX_SEARCH_GAMES: usize = 2;

/// The message types a client may send (an unknown one is told apart from a malformed one).
const CLIENT_TYPES: [&str; 6] = ["hello", "create", "join", "view", "respond", "resume"];

/// A session's limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The longest message, in bytes.
    pub max_message_bytes: usize,
    /// Most games held at once. When full, `create` drops the oldest finished game to make
    /// room, or is refused with `too_many_games` when every game is still being played.
    pub max_games: usize,
    /// Most unfinished games seating an `mcts` agent that one connection may have created.
    /// A search answers on the session's thread, up to 1000 playouts at a time: a client
    /// with many such games would slow every game of the thread.
    pub max_search_games: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_message_bytes: MAX_MESSAGE_BYTES,
            max_games: MAX_GAMES,
            max_search_games: MAX_SEARCH_GAMES,
        }
    }
}

/// The games of one host and the seats' connections.
pub struct Session {
    library: Library,
    limits: Limits,
    games: BTreeMap<GameId, Table>,
    /// The games that seat a searching agent, and the connection that created each.
    searching: BTreeMap<GameId, ConnId>,
    next_id: GameId,
    id_stride: GameId,
}

impl Session {
    /// A session that creates the games of `library`, with the default limits.
    pub fn new(library: Library) -> Session {
        Session::with_limits(library, Limits::default())
    }

    /// A session with these limits.
    pub fn with_limits(library: Library, limits: Limits) -> Session {
        Session {
            library,
            limits,
            games: BTreeMap::new(),
            searching: BTreeMap::new(),
            next_id: 1,
            id_stride: 1,
        }
    }

    /// This session numbers its games `first`, `first + stride`, `first + 2 * stride`, ...
    /// (by default 1, 2, 3, ...). A server that runs `n` sessions gives session `i` (from 0)
    /// `first = i + 1` and `stride = n`: game ids are then unique across the server, and
    /// `(game_id - 1) % n` is the session that holds a game. Panics when `first` or `stride`
    /// is 0 (game ids count from 1).
    pub fn with_game_ids(mut self, first: GameId, stride: GameId) -> Session {
        assert!(
            first >= 1 && stride >= 1,
            "game ids count from 1, by at least 1"
        );
        self.next_id = first;
        self.id_stride = stride;
        self
    }

    /// The games held (finished ones too, until room is needed).
    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// The replay of game `id` so far (a server keeps its games' replays: `riffle serve
    /// --record DIR` writes each when it ends). None: no such game.
    pub fn replay(&self, id: GameId) -> Option<Result<riffle_content::replay::Replay, String>> {
        self.games.get(&id).map(Table::replay)
    }

    /// The game `id`, for tests and tools that check what it holds (never for clients).
    pub fn game(&self, id: GameId) -> Option<&Game> {
        self.games.get(&id).map(Table::game)
    }

    /// Handles one line (one JSON message) from `conn`: never panics on its content; a line
    /// that is too long, not JSON or not a message is answered by an `error`.
    pub fn handle_line(&mut self, conn: ConnId, line: &str) -> Vec<Outgoing> {
        match self.parse(line) {
            Ok(msg) => self.handle(conn, msg),
            Err((code, message)) => vec![(conn, ServerMessage::error(code, message, None))],
        }
    }

    /// Handles a line a transport read: text, or one refused unread ([`crate::read_line`]).
    pub fn handle_read(&mut self, conn: ConnId, line: crate::Line) -> Vec<Outgoing> {
        let refused =
            |code, message: String| vec![(conn, ServerMessage::error(code, message, None))];
        match line {
            crate::Line::Text(text) => self.handle_line(conn, &text),
            crate::Line::TooLong(n) => refused(
                ErrorCode::MessageTooLarge,
                format!(
                    "a message of {n} bytes or more; at most {} are read",
                    self.limits.max_message_bytes
                ),
            ),
            crate::Line::NotUtf8 => refused(
                ErrorCode::MalformedMessage,
                "not UTF-8: a message is a line of JSON".into(),
            ),
        }
    }

    /// The longest message this session reads, in bytes.
    pub fn max_message_bytes(&self) -> usize {
        self.limits.max_message_bytes
    }

    /// The message in `line`, or why it is none.
    pub fn parse(&self, line: &str) -> Result<ClientMessage, Refusal> {
        if line.len() > self.limits.max_message_bytes {
            return Err((
                ErrorCode::MessageTooLarge,
                format!(
                    "a message of {} bytes; at most {} are read",
                    line.len(),
                    self.limits.max_message_bytes
                ),
            ));
        }
        let value: Value = serde_json::from_str(line)
            .map_err(|e| (ErrorCode::MalformedMessage, format!("not JSON: {e}")))?;
        let Some(kind) = value
            .get("type")
            .and_then(Value::as_str)
            .map(str::to_string)
        else {
            return Err((
                ErrorCode::MalformedMessage,
                "a message is a JSON object with a string `type`".into(),
            ));
        };
        if !CLIENT_TYPES.contains(&kind.as_str()) {
            return Err((
                ErrorCode::UnknownMessage,
                format!(
                    "no message '{}' (messages: {})",
                    kind.chars().take(40).collect::<String>(),
                    CLIENT_TYPES.join(", ")
                ),
            ));
        }
        serde_json::from_value(value)
            .map_err(|e| (ErrorCode::MalformedMessage, format!("{kind}: {e}")))
    }

    /// Handles one message from `conn`.
    pub fn handle(&mut self, conn: ConnId, msg: ClientMessage) -> Vec<Outgoing> {
        let game_id = match &msg {
            ClientMessage::Join { game_id, .. }
            | ClientMessage::View { game_id, .. }
            | ClientMessage::Respond { game_id, .. }
            | ClientMessage::Resume { game_id, .. } => Some(*game_id),
            ClientMessage::Hello { .. } | ClientMessage::Create(_) => None,
        };
        self.dispatch(conn, msg).unwrap_or_else(|(code, message)| {
            vec![(conn, ServerMessage::error(code, message, game_id))]
        })
    }

    /// The connection `conn` is gone: its seats keep their events until they resume.
    pub fn disconnect(&mut self, conn: ConnId) {
        for table in self.games.values_mut() {
            table.forget(conn);
        }
    }

    fn dispatch(&mut self, conn: ConnId, msg: ClientMessage) -> Result<Vec<Outgoing>, Refusal> {
        match msg {
            ClientMessage::Hello { protocol } => {
                if protocol != PROTOCOL_VERSION {
                    return Err((
                        ErrorCode::UnsupportedVersion,
                        format!("this host speaks protocol {PROTOCOL_VERSION}, not {protocol}"),
                    ));
                }
                Ok(vec![(
                    conn,
                    ServerMessage::Welcome {
                        protocol: PROTOCOL_VERSION,
                        riffle_version: env!("CARGO_PKG_VERSION").to_string(),
                        games: self.library.infos(),
                    },
                )])
            }
            ClientMessage::Create(spec) => self.create(conn, spec),
            ClientMessage::Join { game_id, seat, log } => {
                self.table(game_id)?.join(conn, seat, log)
            }
            ClientMessage::View { game_id, token } => {
                let table = self.table(game_id)?;
                let who = table.who(token.as_deref())?;
                Ok(vec![(conn, table.view(who))])
            }
            ClientMessage::Respond {
                game_id,
                token,
                request_id,
                response,
            } => {
                let table = self.table(game_id)?;
                let who = table.who(token.as_deref())?;
                table.respond(who, request_id, response.into())
            }
            ClientMessage::Resume {
                game_id,
                token,
                last_seq,
            } => {
                let table = self.table(game_id)?;
                let who = table.who(token.as_deref())?;
                table.catch_up(conn, who, last_seq)
            }
        }
    }

    fn table(&mut self, id: GameId) -> Result<&mut Table, Refusal> {
        self.games.get_mut(&id).ok_or((
            ErrorCode::NoSuchGame,
            format!("no game {id} in this session"),
        ))
    }

    /// Room for one more game: the oldest finished one goes when the session is full.
    fn make_room(&mut self) -> Result<(), Refusal> {
        if self.games.len() < self.limits.max_games {
            return Ok(());
        }
        match self
            .games
            .iter()
            .find(|(_, t)| t.finished())
            .map(|(id, _)| *id)
        {
            Some(id) => {
                self.games.remove(&id);
                Ok(())
            }
            None => Err((
                ErrorCode::TooManyGames,
                format!(
                    "this session plays {} games already, its most",
                    self.limits.max_games
                ),
            )),
        }
    }

    /// Whether `conn` may create one more game with a searching agent
    /// ([`Limits::max_search_games`]). Forgets the games that ended or are gone.
    fn room_to_search(&mut self, conn: ConnId) -> Result<(), Refusal> {
        let games = &self.games;
        self.searching
            .retain(|id, _| games.get(id).is_some_and(|t| !t.finished()));
        let mine = self.searching.values().filter(|c| **c == conn).count();
        if mine < self.limits.max_search_games {
            return Ok(());
        }
        Err((
            ErrorCode::TooManyGames,
            format!(
                "this connection plays {mine} unfinished games with an mcts seat already, its most: finish one, or seat greedy"
            ),
        ))
    }

    fn create(&mut self, conn: ConnId, spec: CreateGame) -> Result<Vec<Outgoing>, Refusal> {
        let searches = spec.agents.values().any(|a| crate::agents::searches(a));
        if searches {
            self.room_to_search(conn)?;
        }
        let Some(loaded) = self.library.get(&spec.game) else {
            return Err((
                ErrorCode::UnknownGame,
                format!(
                    "no game '{}' here (games: {})",
                    spec.game,
                    self.library.names().join(", ")
                ),
            ));
        };
        let bad = |m: String| (ErrorCode::BadSetup, m);
        let mut options = Options::new();
        for (name, value) in &spec.options {
            options.insert(name.clone(), OptionValue::Name(value.clone()));
        }
        if let Some(m) = &spec.mode {
            if options.contains_key("mode") {
                return Err(bad(format!(
                    "mode {m}: the mode is also given in options; give it once"
                )));
            }
            options.insert("mode".into(), OptionValue::Name(m.clone()));
        }
        let content = &loaded.content;
        let engine = &loaded.engine;
        let range = &content.content.ruleset.manifest.players;
        // The seat count is checked before any deck is dealt or looked up: a message may
        // name thousands of decks.
        let n = spec.players.map_or(spec.decks.len(), usize::from);
        if (spec.players.is_some() || !spec.decks.is_empty())
            && (n < range.min as usize || n > range.max as usize)
        {
            return Err(bad(format!(
                "{} is for {} to {} players, not {n}",
                spec.game, range.min, range.max
            )));
        }
        let seated =
            riffle_content::setup::seat_decks(&content.decks, range.min, &spec.decks, spec.players)
                .map_err(bad)?;
        let decks: Vec<DeckList> = seated.into_iter().map(|(_, list)| list).collect();
        let n = decks.len();
        riffle_content::setup::check_seating(engine, &decks, &options)
            .map_err(|e| bad(e.to_string()))?;
        riffle_content::setup::refuse_unscripted(content, engine, &decks).map_err(bad)?;
        let seed = spec.seed.unwrap_or(1);
        let agents = seat_agents(&spec.agents, engine, n, seed)?;
        if let Some(sp) = spec.spectate {
            if usize::from(sp.seat) >= n {
                return Err(bad(format!(
                    "spectate: the game has seats 0 to {}, not {}",
                    n - 1,
                    sp.seat
                )));
            }
            if sp.delay > crate::table::MOST_DELAY {
                return Err(bad(format!(
                    "spectate: a delay of at most {} decisions, not {}",
                    crate::table::MOST_DELAY,
                    sp.delay
                )));
            }
        }
        // What a replay of the game starts from (docs/replays.md).
        let start = riffle_content::replay::Header::new(
            &spec.game,
            &content.manifest,
            seed,
            decks.clone(),
            options.clone(),
        );
        let config = GameConfig {
            seed,
            decks,
            keep_log: true,
        };
        let game = Game::with_options(engine.clone(), config, &options)
            .map_err(|e| bad(e.to_string().lines().next().unwrap_or_default().to_string()))?;
        self.make_room()?;
        let id = self.next_id;
        self.next_id += self.id_stride;
        let mut table = Table::new(id, game).with_start(start);
        if let Some(sp) = spec.spectate {
            table = table.with_late_spectators(sp.seat, sp.delay);
        }
        self.games.insert(id, table.with_agents(agents));
        if searches {
            self.searching.insert(id, conn);
        }
        Ok(vec![(
            conn,
            ServerMessage::Created {
                game_id: id,
                game: spec.game,
                players: n as u8,
                seed,
            },
        )])
    }
}

/// The agent of each of `n` seats (None: a client's), from `create`'s `agents`.
fn seat_agents(
    named: &BTreeMap<String, String>,
    engine: &riffle_core::Engine,
    n: usize,
    seed: u64,
) -> Result<Vec<Option<Agent>>, Refusal> {
    let mut agents: Vec<Option<Agent>> = (0..n).map(|_| None).collect();
    for (seat, name) in named {
        let Some(s) = seat.parse::<u8>().ok().filter(|s| usize::from(*s) < n) else {
            return Err((
                ErrorCode::NoSuchSeat,
                format!(
                    "agents: the game has seats 0 to {}, not '{}'",
                    n.saturating_sub(1),
                    seat.chars().take(20).collect::<String>()
                ),
            ));
        };
        let agent = crate::agents::named(name, engine, seed, s).map_err(|why| {
            (
                ErrorCode::UnknownAgent,
                format!(
                    "agents: {} (agents: {AGENT_NAMES})",
                    why.chars().take(200).collect::<String>()
                ),
            )
        })?;
        agents[usize::from(s)] = Some(agent);
    }
    Ok(agents)
}
