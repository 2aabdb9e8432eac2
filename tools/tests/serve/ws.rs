//! `riffle serve --listen`: the host protocol over WebSocket, one JSON message a text
//! message. Whole games by one connection a seat and a spectator; a client that stops
//! reading is dropped while others play on; bad messages; the connection limit. Every read
//! has a timeout, so a fault fails a test instead of hanging it.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use riffle_core::{Request, Rng};
use riffle_host::Answer;
use serde_json::{Value, json};
use tungstenite::{Message, WebSocket};

use crate::common::repo;

/// How long a read waits before the test fails.
pub(super) const READ_TIMEOUT: Duration = Duration::from_secs(60);

/// `riffle serve --listen 127.0.0.1:0` on the repository's content.
pub(super) struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    pub(super) addr: String,
}

impl Server {
    pub(super) fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_riffle"))
            .args(["serve", "--listen", "127.0.0.1:0", "--root"])
            .arg(repo())
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("run riffle serve --listen");
        let stdin = child.stdin.take();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("not `listening on ADDR`: {line:?}"))
            .to_string();
        assert!(
            addr.starts_with("127.0.0.1:") && !addr.ends_with(":0"),
            "{addr}"
        );
        Server { child, stdin, addr }
    }

    pub(super) fn connect(&self) -> Client {
        self.try_connect().expect("connect")
    }

    pub(super) fn try_connect(&self) -> Result<Client, tungstenite::Error> {
        let stream = TcpStream::connect(&self.addr).unwrap();
        stream.set_read_timeout(Some(READ_TIMEOUT)).unwrap();
        stream.set_write_timeout(Some(READ_TIMEOUT)).unwrap();
        let (ws, _) = tungstenite::client::client(format!("ws://{}/", self.addr), stream).map_err(
            |e| match e {
                tungstenite::HandshakeError::Failure(e) => e,
                tungstenite::HandshakeError::Interrupted(_) => panic!("handshake interrupted"),
            },
        )?;
        Ok(Client { ws })
    }
}

impl Drop for Server {
    /// Closing standard input stops the server; it must exit by itself, and successfully.
    fn drop(&mut self) {
        drop(self.stdin.take());
        let start = Instant::now();
        loop {
            match self.child.try_wait().unwrap() {
                Some(status) => {
                    if !std::thread::panicking() {
                        assert!(status.success(), "riffle serve ended with {status}");
                    }
                    return;
                }
                None if start.elapsed() > READ_TIMEOUT => {
                    let _ = self.child.kill();
                    if !std::thread::panicking() {
                        panic!("riffle serve did not stop when its standard input closed");
                    }
                    return;
                }
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }
}

pub(super) struct Client {
    pub(super) ws: WebSocket<TcpStream>,
}

impl Client {
    pub(super) fn send(&mut self, msg: Value) {
        self.ws.send(Message::text(msg.to_string())).unwrap();
    }

    /// The next text message as JSON; None when the server closed the connection.
    pub(super) fn next(&mut self) -> Option<Value> {
        loop {
            match self.ws.read() {
                Ok(Message::Text(t)) => return Some(serde_json::from_str(&t).unwrap()),
                Ok(Message::Close(_)) => return None,
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    panic!("no message from the server in {READ_TIMEOUT:?}")
                }
                Err(_) => return None,
            }
        }
    }

    pub(super) fn read(&mut self) -> Value {
        self.next().expect("the server closed the connection")
    }

    /// Reads until a message of type `kind`; the ones before it too.
    pub(super) fn until(&mut self, kind: &str) -> Vec<Value> {
        let mut out = Vec::new();
        loop {
            let v = self.read();
            let done = v["type"] == kind;
            out.push(v);
            if done {
                return out;
            }
        }
    }
}

/// Creates a game of `game` from `c`: its id and seat count.
pub(super) fn create(c: &mut Client, game: &str, seed: u64) -> (u64, u64) {
    c.send(json!({"type": "create", "game": game, "seed": seed}));
    let v = c.read();
    assert_eq!(v["type"], "created", "{v}");
    (
        v["game_id"].as_u64().unwrap(),
        v["players"].as_u64().unwrap(),
    )
}

/// Plays game `id` at `seat` (None: watches it) from `c` to its end, answering every
/// request at random; checks that events come numbered from 1 with no gaps. The events seen.
pub(super) fn play(mut c: Client, id: u64, seat: Option<u64>, seed: u64) -> u64 {
    c.send(json!({"type": "join", "game_id": id, "seat": seat}));
    let joined = c.read();
    assert_eq!(joined["type"], "joined", "{joined}");
    let token = joined["token"].as_str().unwrap().to_string();
    let mut rng = Rng::new(seed);
    let mut seq = 0;
    loop {
        let v = c.read();
        assert_eq!(v["game_id"], id, "{v}");
        match v["type"].as_str().unwrap() {
            "event" => {
                seq += 1;
                assert_eq!(v["seq"], seq, "events in order with no gaps: {v}");
            }
            "request" => {
                assert_eq!(v["seat"].as_u64(), seat, "{v}");
                let request: Request = serde_json::from_value(v["request"].clone()).unwrap();
                let answer = Answer::from(request.random_legal(&mut rng));
                c.send(json!({"type": "respond", "game_id": id, "token": token,
                              "request_id": v["request_id"], "response": answer}));
            }
            "game_over" => return seq,
            "view" => {}
            other => panic!("unexpected {other}: {v}"),
        }
    }
}

/// A game of `game` played to its end by one connection a seat and a spectator, each on a
/// thread of its own.
fn play_game(server: &Server, game: &str, seed: u64) {
    play_game_on(&mut || server.connect(), game, seed);
}

/// [`play_game`] with connections from `connect`.
pub(super) fn play_game_on(connect: &mut dyn FnMut() -> Client, game: &str, seed: u64) {
    let mut first = connect();
    let (id, players) = create(&mut first, game, seed);
    let mut clients = vec![Some(first)];
    clients.extend((1..players).map(|_| Some(connect())));
    let mut threads: Vec<_> = (0..players)
        .map(|seat| {
            let c = clients[seat as usize].take().unwrap();
            std::thread::spawn(move || play(c, id, Some(seat), seed + seat))
        })
        .collect();
    let spectator = connect();
    threads.push(std::thread::spawn(move || play(spectator, id, None, 0)));
    let seen: Vec<u64> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert!(seen.iter().all(|n| *n > 0), "{game}: events seen {seen:?}");
}

#[test]
fn serve_listen_plays_each_game_with_seats_and_a_spectator() {
    let server = Server::start(&["--threads", "2"]);
    for (game, seed) in [("onepiece", 3), ("gundam", 5), ("summoner-master", 7)] {
        play_game(&server, game, seed);
    }
}

#[test]
fn serve_listen_drops_a_client_that_stops_reading_and_serves_the_others() {
    let server = Server::start(&["--game", "onepiece", "--threads", "1"]);
    let mut first = server.connect();
    let (id, _) = create(&mut first, "onepiece", 11);
    // A spectator of the same game (on the same session thread) that asks for views and
    // never reads them.
    let mut flood = server.connect();
    flood.send(json!({"type": "join", "game_id": id}));
    let token = flood.until("joined").pop().unwrap()["token"].clone();
    let flooder = std::thread::spawn(move || {
        let view =
            Message::text(json!({"type": "view", "game_id": id, "token": token}).to_string());
        let mut sent = 0u64;
        // The server drops the connection once 1024 answers wait: a write then fails.
        while sent < 1_000_000 && flood.ws.send(view.clone()).is_ok() {
            sent += 1;
        }
        // What it reads ends with the connection, well before every answer.
        let mut read = 0u64;
        while flood.next().is_some() {
            read += 1;
        }
        assert!(
            read < sent,
            "read {read} of {sent} answers: the client was not dropped"
        );
    });
    let seats: Vec<_> = [first, server.connect()]
        .into_iter()
        .zip(0u64..)
        .map(|(c, seat)| std::thread::spawn(move || play(c, id, Some(seat), 20 + seat)))
        .collect();
    for s in seats {
        assert!(s.join().unwrap() > 0);
    }
    flooder.join().unwrap();
    // And the server goes on: another game from the start.
    play_game(&server, "onepiece", 12);
}

#[test]
fn serve_listen_answers_bad_messages_and_keeps_the_others_game() {
    let server = Server::start(&["--game", "onepiece"]);
    let mut player = server.connect();
    let (id, _) = create(&mut player, "onepiece", 4);
    player.send(json!({"type": "join", "game_id": id, "seat": 0}));
    let token = player.read()["token"].clone();
    let view = |p: &mut Client| {
        p.send(json!({"type": "view", "game_id": id, "token": token}));
        p.until("view").pop().unwrap()
    };
    let before = view(&mut player);

    let mut bad = server.connect();
    for (text, code) in [
        ("{oops", "malformed_message"),
        (r#"{"type":"dance"}"#, "unknown_message"),
        (r#"{"type":"view","game_id":"one"}"#, "malformed_message"),
    ] {
        bad.ws.send(Message::text(text)).unwrap();
        let v = bad.read();
        assert_eq!(
            (v["type"].as_str(), v["code"].as_str()),
            (Some("error"), Some(code)),
            "{text}: {v}"
        );
    }
    bad.ws.send(Message::binary(b"\x00\x01".to_vec())).unwrap();
    let v = bad.read();
    assert_eq!(v["code"], "malformed_message", "binary: {v}");
    // Over 1 MiB, payload and all: the error and the close frame may be lost to a reset when
    // the server closes with the payload unread (limits.rs checks the two from the header).
    let huge = format!(r#"{{"type":"hello","pad":"{}"}}"#, "x".repeat(3 << 19));
    let _ = bad.ws.send(Message::text(huge));
    match bad.next() {
        None => {}
        Some(v) => {
            assert_eq!(v["code"], "message_too_large", "{v}");
            assert!(
                bad.next().is_none(),
                "the connection ends after a message too large"
            );
        }
    }

    // The other connection's game did not change, and it is still served.
    assert_eq!(view(&mut player), before);
    let mut later = server.connect();
    later.send(json!({"type": "hello", "protocol": 1}));
    assert_eq!(later.read()["type"], "welcome");
}

#[test]
fn serve_listen_refuses_one_connection_past_the_limit() {
    let server = Server::start(&["--game", "onepiece", "--max-connections", "4"]);
    let mut four: Vec<Client> = (0..4).map(|_| server.connect()).collect();
    for c in &mut four {
        c.send(json!({"type": "hello", "protocol": 1}));
        assert_eq!(c.read()["type"], "welcome");
    }
    match server.try_connect() {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 503),
        Err(e) => panic!("refused, but not with HTTP 503: {e}"),
        Ok(_) => panic!("a fifth connection was accepted"),
    }
    for c in &mut four {
        c.send(json!({"type": "hello", "protocol": 1}));
        assert_eq!(c.read()["type"], "welcome");
    }
}

#[test]
fn serve_listen_and_stdio_are_exclusive() {
    let out = Command::new(env!("CARGO_BIN_EXE_riffle"))
        .args(["serve", "--stdio", "--listen", "127.0.0.1:0", "--root"])
        .arg(repo())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--stdio") && err.contains("--listen"), "{err}");
}

/// A plain HTTP request to the server: the status code, the headers (lower case) and the body.
fn http(server: &Server, method: &str, path: &str) -> (u16, String, String) {
    use std::io::{Read, Write};
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream.set_read_timeout(Some(READ_TIMEOUT)).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap();
    (status, head.to_lowercase(), body.to_string())
}

#[test]
fn serve_listen_serves_the_browser_table_beside_the_websocket() {
    let server = Server::start(&["--game", "onepiece"]);
    let (status, head, body) = http(&server, "GET", "/");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(head.contains("content-security-policy: default-src 'self'"));
    assert!(body.contains(r#"<script src="/table.js">"#), "{body}");
    let (status, head, body) = http(&server, "GET", "/table.js");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/javascript"), "{head}");
    assert!(body.contains(r#"log: "readable""#));
    let (status, head, _) = http(&server, "GET", "/table.css");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/css"), "{head}");
    assert_eq!(http(&server, "GET", "/secrets").0, 404);
    // Only GET is the page; anything else without an upgrade is refused.
    assert!(http(&server, "POST", "/").0 >= 400);
    // The WebSocket at the same address still plays.
    let mut c = server.connect();
    c.send(json!({"type": "hello", "protocol": 1}));
    assert_eq!(c.read()["type"], "welcome");
}
