//! A load generator for `riffle serve --listen`: many games at once over WebSocket, a
//! connection a seat, random legal answers. Checks that each seat's events arrive numbered
//! from 1 with no gap, that every game reaches `game_over` and that a `resume` after it has
//! nothing more to send (no event lost at the end); times each `respond` to the game's next
//! `request`. Shared by the benchmark (`benches/serve_load/main.rs`) and the integration test
//! (`tests/serve/load.rs`): threads and blocking tungstenite, one thread a connection (they
//! wait in the kernel, so 400 of them cost the server's 2 cores little).

use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use riffle_core::{Request, Rng};
use riffle_host::Answer;
use serde_json::{Value, json};
use tungstenite::{Message, WebSocket};

/// How long a read waits before the run fails.
const READ_TIMEOUT: Duration = Duration::from_secs(120);

/// The games mixed, in turn.
pub const GAMES: [&str; 3] = ["onepiece", "gundam", "summoner-master"];

/// What a run measured.
#[derive(Debug, Default)]
pub struct Report {
    /// Games played to `game_over`.
    pub games: usize,
    /// Answers sent.
    pub decisions: u64,
    /// Events received, by seats.
    pub events: u64,
    /// From each `respond` to the game's next `request` (any seat's).
    pub latencies: Vec<Duration>,
    /// From the first connection to the last `game_over`.
    pub wall: Duration,
}

impl Report {
    /// The `q` quantile (0..=1) of the latencies (sorted first).
    pub fn quantile(&mut self, q: f64) -> Duration {
        self.latencies.sort_unstable();
        let n = self.latencies.len();
        if n == 0 {
            return Duration::ZERO;
        }
        self.latencies[((n - 1) as f64 * q).round() as usize]
    }
}

struct Client {
    ws: WebSocket<TcpStream>,
}

impl Client {
    fn connect(addr: &str) -> Result<Client, String> {
        let stream = TcpStream::connect(addr).map_err(|e| format!("connect {addr}: {e}"))?;
        let _ = stream.set_nodelay(true);
        stream.set_read_timeout(Some(READ_TIMEOUT)).ok();
        stream.set_write_timeout(Some(READ_TIMEOUT)).ok();
        let (ws, _) = tungstenite::client::client(format!("ws://{addr}/"), stream)
            .map_err(|e| format!("WebSocket handshake with {addr}: {e}"))?;
        Ok(Client { ws })
    }

    fn send(&mut self, msg: &Value) -> Result<(), String> {
        self.ws
            .send(Message::text(msg.to_string()))
            .map_err(|e| format!("send: {e}"))
    }

    fn read(&mut self) -> Result<Value, String> {
        loop {
            match self.ws.read().map_err(|e| format!("read: {e}"))? {
                Message::Text(t) => return serde_json::from_str(&t).map_err(|e| e.to_string()),
                Message::Close(f) => return Err(format!("closed by the server: {f:?}")),
                _ => {}
            }
        }
    }
}

/// One game's shared clock: when its last answer was sent.
type Clock = Arc<Mutex<Option<Instant>>>;

/// What a seat saw.
#[derive(Default)]
struct Seat {
    decisions: u64,
    events: u64,
    latencies: Vec<Duration>,
}

/// Plays `seat` of game `id` on `c` to its end; every failure says which game and seat.
fn play_seat(mut c: Client, id: u64, seat: u64, seed: u64, clock: &Clock) -> Result<Seat, String> {
    let at = |e: String| format!("game {id} seat {seat}: {e}");
    c.send(&json!({"type": "join", "game_id": id, "seat": seat}))
        .map_err(at)?;
    let joined = c.read().map_err(at)?;
    if joined["type"] != "joined" {
        return Err(at(format!("not joined: {joined}")));
    }
    let token = joined["token"].clone();
    let mut rng = Rng::new(seed);
    let mut out = Seat::default();
    loop {
        let v = c.read().map_err(at)?;
        if v["game_id"] != id {
            return Err(at(format!("another game's message: {v}")));
        }
        match v["type"].as_str().unwrap_or_default() {
            "event" => {
                out.events += 1;
                if v["seq"] != out.events {
                    return Err(at(format!(
                        "event {} expected, got {v} (lost or reordered)",
                        out.events
                    )));
                }
            }
            "request" => {
                let now = Instant::now();
                let sent = clock.lock().unwrap_or_else(|e| e.into_inner()).take();
                if let Some(sent) = sent {
                    out.latencies.push(now - sent);
                }
                let request: Request =
                    serde_json::from_value(v["request"].clone()).map_err(|e| at(e.to_string()))?;
                let answer = Answer::from(request.random_legal(&mut rng));
                *clock.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
                c.send(&json!({"type": "respond", "game_id": id, "token": token,
                               "request_id": v["request_id"], "response": answer}))
                    .map_err(at)?;
                out.decisions += 1;
            }
            "game_over" => break,
            "view" => {}
            _ => return Err(at(format!("unexpected {v}"))),
        }
    }
    // Nothing held back: a resume from the last event received sends no event.
    c.send(&json!({"type": "resume", "game_id": id, "token": token, "last_seq": out.events}))
        .map_err(at)?;
    loop {
        let v = c.read().map_err(at)?;
        match v["type"].as_str().unwrap_or_default() {
            "view" => {}
            "game_over" => return Ok(out),
            _ => return Err(at(format!("after the end, a resume was sent {v}"))),
        }
    }
}

/// Plays `games` games at once against the server at `addr` (game k: `GAMES[k % 3]`, seed
/// `seed + k`), each seat on its own connection and thread. Fails on the first fault.
pub fn run(addr: &str, games: usize, seed: u64) -> Result<Report, String> {
    let start = Instant::now();
    let mut threads = Vec::new();
    for k in 0..games {
        let game = GAMES[k % GAMES.len()];
        let game_seed = seed + k as u64;
        let mut first = Client::connect(addr)?;
        first.send(&json!({"type": "create", "game": game, "seed": game_seed}))?;
        let created = first.read()?;
        if created["type"] != "created" {
            return Err(format!("{game}: not created: {created}"));
        }
        let id = created["game_id"].as_u64().ok_or("no game_id")?;
        let players = created["players"].as_u64().ok_or("no players")?;
        let clock: Clock = Arc::default();
        let mut conns = vec![first];
        for _ in 1..players {
            conns.push(Client::connect(addr)?);
        }
        for (seat, c) in (0u64..).zip(conns) {
            let clock = Arc::clone(&clock);
            let seat_seed = game_seed * 8 + seat;
            let t = std::thread::Builder::new()
                .stack_size(256 << 10)
                .spawn(move || play_seat(c, id, seat, seat_seed, &clock))
                .map_err(|e| e.to_string())?;
            threads.push(t);
        }
    }
    let mut report = Report {
        games,
        ..Report::default()
    };
    let mut first_error = None;
    for t in threads {
        match t.join().map_err(|_| "a seat's thread panicked".to_string()) {
            Ok(Ok(s)) => {
                report.decisions += s.decisions;
                report.events += s.events;
                report.latencies.extend(s.latencies);
            }
            Ok(Err(e)) | Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    report.wall = start.elapsed();
    match first_error {
        Some(e) => Err(e),
        None => Ok(report),
    }
}
