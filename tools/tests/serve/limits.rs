//! `riffle serve --listen` under bad input and idle clients (issue #28 item 7): idle
//! connections are closed after `--idle-timeout`, and until then count against
//! `--max-connections`; a message too large gets an error, then a close frame; no bad
//! message changes a game.

use std::io::Write;
use std::time::{Duration, Instant};

use serde_json::json;
use tungstenite::Message;
use tungstenite::protocol::frame::coding::CloseCode;

use super::ws::{Client, READ_TIMEOUT, Server, create, play_game_on};

/// The close frame the server ends `c` with (the messages before it are skipped).
fn close_frame(c: &mut Client) -> tungstenite::protocol::CloseFrame {
    loop {
        match c.ws.read() {
            Ok(Message::Close(Some(frame))) => return frame,
            Ok(Message::Close(None)) => panic!("a close frame without a reason"),
            Ok(_) => {}
            Err(e) => panic!("no close frame: {e}"),
        }
    }
}

/// A connection once a slot is free: a refused one (HTTP 503) is tried again, for a while.
fn connect_when_free(server: &Server) -> Client {
    let start = Instant::now();
    loop {
        match server.try_connect() {
            Ok(c) => return c,
            Err(tungstenite::Error::Http(r)) if r.status() == 503 => {
                assert!(start.elapsed() < READ_TIMEOUT, "no slot came free");
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => panic!("connect: {e}"),
        }
    }
}

#[test]
fn serve_listen_closes_idle_connections_which_hold_their_slots_until_then() {
    let server = Server::start(&[
        "--game",
        "onepiece",
        "--max-connections",
        "3",
        "--idle-timeout",
        "2",
    ]);
    // Three clients that connect and say nothing fill the limit...
    let mut idle: Vec<Client> = (0..3).map(|_| server.connect()).collect();
    match server.try_connect() {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 503),
        Err(e) => panic!("refused, but not with HTTP 503: {e}"),
        Ok(_) => panic!("a fourth connection was accepted"),
    }
    // ...until the idle timeout closes them, saying why.
    for c in &mut idle {
        let frame = close_frame(c);
        assert_eq!(frame.code, CloseCode::Normal, "{frame:?}");
        assert!(frame.reason.contains("idle"), "{frame:?}");
    }
    // Their slots are free: a whole game with two seats and a spectator (a seat waiting for
    // the other's answers is sent its events, so it is not idle).
    play_game_on(&mut || connect_when_free(&server), "onepiece", 3);
}

#[test]
fn serve_listen_answers_a_message_too_large_with_an_error_then_a_close_frame() {
    let server = Server::start(&["--game", "onepiece"]);
    let mut c = server.connect();
    // A text frame's header announcing 2 MiB: the server refuses it from the header (the
    // payload need not be sent; sending it would race the close with a reset).
    let mut header = vec![0x81u8, 0x80 | 127];
    header.extend_from_slice(&(2u64 << 20).to_be_bytes());
    header.extend_from_slice(&[1, 2, 3, 4]); // the mask a client's frame carries
    c.ws.get_mut().write_all(&header).unwrap();
    let v = c.read();
    assert_eq!(
        (v["type"].as_str(), v["code"].as_str()),
        (Some("error"), Some("message_too_large")),
        "{v}"
    );
    let frame = close_frame(&mut c);
    assert_eq!(frame.code, CloseCode::Size, "{frame:?}");
    assert!(frame.reason.contains("too large"), "{frame:?}");
}

#[test]
fn serve_listen_changes_no_game_for_bad_messages_naming_it() {
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
    let forged = "0".repeat(32);
    for (msg, codes) in [
        (
            json!({"type": "respond", "game_id": id, "token": forged, "request_id": 1,
                   "response": {"type": "choose", "indices": [0]}}),
            &["bad_token"][..],
        ),
        (
            json!({"type": "respond", "game_id": id, "request_id": 1,
                   "response": {"type": "choose", "indices": [0]}}),
            &["missing_token"],
        ),
        (
            json!({"type": "respond", "game_id": id, "token": token, "request_id": 99,
                   "response": {"type": "choose", "indices": [0]}}),
            &["unknown_request", "not_your_turn"],
        ),
        (
            json!({"type": "respond", "game_id": id, "token": token, "request_id": 1,
                   "response": {"type": "choose", "indices": [999]}}),
            &["illegal_response", "not_your_turn"],
        ),
        (
            json!({"type": "respond", "game_id": id, "token": token, "request_id": 1,
                   "response": {"type": "dance"}}),
            &["malformed_message"],
        ),
        (
            json!({"type": "join", "game_id": id, "seat": 0}),
            &["seat_taken"],
        ),
        (
            json!({"type": "join", "game_id": id, "seat": 9}),
            &["no_such_seat"],
        ),
        (
            json!({"type": "resume", "game_id": id, "token": forged, "last_seq": 0}),
            &["bad_token"],
        ),
        (
            json!({"type": "resume", "game_id": id, "token": token, "last_seq": 1_000_000}),
            &["bad_sequence"],
        ),
    ] {
        bad.send(msg.clone());
        let v = bad.read();
        assert_eq!(v["type"], "error", "{msg}: {v}");
        assert!(
            codes.contains(&v["code"].as_str().unwrap_or_default()),
            "{msg}: {v}"
        );
    }
    // The game is as it was, for its seat: nothing was applied.
    assert_eq!(view(&mut player), before);
}
