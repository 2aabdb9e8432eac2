//! `riffle serve`: the host protocol (docs/protocol.md) on standard input and output
//! (`--stdio`, one JSON message a line) or over WebSocket (`--listen ADDR`, one JSON message a
//! text frame), so that a program in any language drives games. Only the transports are
//! here; the session is `riffle_host`'s.
//!
//! `--listen`: tokio runs the sockets; the sessions run on plain threads (a `Session` is not
//! `Send`), each with its own library and its own game ids (session `i` of `n` numbers its
//! games `i + 1`, `i + 1 + n`, ...), so a message naming a game goes to the one thread that
//! holds it. A thread never waits for a client: each connection has a bounded queue of
//! outgoing messages, and a thread that finds it full drops that connection.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{Context, bail};
use riffle_content::Loader;
use riffle_host::{Library, Session, read_line};

use super::RootArgs;

/// Options of `riffle serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Read messages from standard input and write the host's to standard output, one JSON
    /// object a line.
    #[arg(long, conflicts_with = "listen")]
    stdio: bool,
    /// Serve WebSocket clients at this address (for example 127.0.0.1:0, any free port), one
    /// JSON message a text frame. Prints `listening on ADDR` when ready; stops on SIGINT,
    /// SIGTERM or when standard input closes.
    #[arg(long, value_name = "ADDR")]
    listen: Option<std::net::SocketAddr>,
    /// With --listen: the session threads (each loads the content and holds its own games).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// With --listen: most connections at once; one more is refused (HTTP 503).
    #[arg(long, value_name = "N", default_value_t = 256)]
    max_connections: usize,
    /// With --listen: a connection with no message either way for this many seconds is
    /// closed (a close frame says why), so idle clients do not hold the connection slots.
    #[arg(long, value_name = "SECS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    idle_timeout: u64,
    /// Most games a session thread holds at once (with --listen, each thread's own).
    #[arg(long, value_name = "N", default_value_t = riffle_host::MAX_GAMES, value_parser = at_least_one)]
    max_games: usize,
    /// Most unfinished games seating an `mcts` agent that one connection may have created,
    /// per session thread (a search answers on the thread that plays the game; 0: no mcts).
    #[arg(long, value_name = "N", default_value_t = riffle_host::MAX_SEARCH_GAMES)]
    max_search_games: usize,
    /// A game the clients may create (repeatable). Default: every game of the content.
    #[arg(long, value_name = "GAME")]
    game: Vec<String>,
    /// Write each game's replay into this folder when it ends (`riffle replay FILE` plays it
    /// again; docs/replays.md): `<game>-<seed>-<log hash>.replay`.
    #[arg(long, value_name = "DIR")]
    record: Option<std::path::PathBuf>,
    #[command(flatten)]
    roots: RootArgs,
}

fn at_least_one(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("{s}: a number from 1")),
    }
}

impl Args {
    /// The session limits these options give.
    fn limits(&self) -> riffle_host::Limits {
        riffle_host::Limits {
            max_games: self.max_games,
            max_search_games: self.max_search_games,
            ..riffle_host::Limits::default()
        }
    }
}

/// The connection id of standard input and output.
const STDIO: u64 = 0;

/// Serves one client on standard input and output until its input ends.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !args.stdio && args.listen.is_none() {
        bail!(
            "give --stdio (the protocol on standard input and output) or --listen ADDR \
             (WebSocket), one of them"
        );
    }
    let paths = args.roots.search_paths(None)?;
    let games = if args.game.is_empty() {
        Loader::new(paths.clone()).games()
    } else {
        args.game.clone()
    };
    if let Some(dir) = &args.record
        && !dir.is_dir()
    {
        bail!("--record {}: no such folder", dir.display());
    }
    if let Some(addr) = args.listen {
        return listen::run(addr, &args, paths, games);
    }
    let library = Library::load(&paths, &games).map_err(anyhow::Error::msg)?;
    let mut session = Session::with_limits(library, args.limits());
    let mut recorder = Recorder {
        dir: args.record.clone(),
        written: std::collections::BTreeSet::new(),
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::BufWriter::new(std::io::stdout().lock());
    serve(&mut session, &mut input, &mut output, &mut recorder)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes each game's replay once, when its end is first told.
struct Recorder {
    dir: Option<std::path::PathBuf>,
    written: std::collections::BTreeSet<riffle_host::GameId>,
}

impl Recorder {
    fn after(&mut self, session: &Session, sent: &[riffle_host::Outgoing]) -> anyhow::Result<()> {
        let Some(dir) = &self.dir else { return Ok(()) };
        for (_, msg) in sent {
            let riffle_host::ServerMessage::GameOver { game_id, .. } = msg else {
                continue;
            };
            if !self.written.insert(*game_id) {
                continue;
            }
            let Some(replay) = session.replay(*game_id) else {
                continue;
            };
            let replay = replay.map_err(|e| anyhow::anyhow!("--record: game {game_id}: {e}"))?;
            let hash = replay.end.as_ref().map_or("", |e| &e.log_hash);
            let name = format!(
                "{}-{}-{}.replay",
                replay.header.game,
                replay.header.seed,
                &hash[..hash.len().min(16)]
            );
            riffle_content::write::write_file(&dir.join(name), replay.to_text().as_bytes())
                .context("--record")?;
        }
        Ok(())
    }
}

/// Each line of `input` to the session, each of its messages to `output` as a line.
fn serve(
    session: &mut Session,
    input: &mut impl BufRead,
    output: &mut impl Write,
    recorder: &mut Recorder,
) -> anyhow::Result<()> {
    let max = session.max_message_bytes();
    while let Some(line) = read_line(input, max).context("reading standard input")? {
        let sent = session.handle_read(STDIO, line);
        for (_, msg) in &sent {
            serde_json::to_writer(&mut *output, msg)?;
            output.write_all(b"\n")?;
        }
        recorder.after(session, &sent)?;
        // A client waits for the answer before it sends more.
        output.flush()?;
    }
    Ok(())
}

mod listen;
mod web;
