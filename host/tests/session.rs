//! The host protocol through a `Session`: whole games of each game played by clients that
//! see only their seat's messages, tokens, stale answers, resume, bad lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use riffle_core::Rng;
use riffle_host::{
    Answer, ConnId, ErrorCode, Library, Limits, MAX_MESSAGE_BYTES, ServerMessage, Session,
};
use serde_json::{Value, json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn session(games: &[&str]) -> Session {
    let games: Vec<String> = games.iter().map(|g| g.to_string()).collect();
    Session::new(Library::load(&[root()], &games).expect("the repository's content loads"))
}

/// Sends `msg` from `conn`; every message the host sent, to any connection.
fn send(s: &mut Session, conn: ConnId, msg: Value) -> Vec<(ConnId, ServerMessage)> {
    s.handle_line(conn, &msg.to_string())
}

/// The only message of `out`, which must be an error: its code.
fn error_code(out: &[(ConnId, ServerMessage)]) -> ErrorCode {
    match out {
        [(_, ServerMessage::Error { code, .. })] => *code,
        other => panic!("expected one error, got {other:?}"),
    }
}

/// Creates a game; its id.
fn create(s: &mut Session, spec: Value) -> u64 {
    match &send(s, 0, spec)[..] {
        [(0, ServerMessage::Created { game_id, .. })] => *game_id,
        other => panic!("expected created, got {other:?}"),
    }
}

/// Joins `seat` from connection `conn`: its token and the messages that followed `joined`.
fn join(s: &mut Session, game_id: u64, seat: u8, conn: ConnId) -> (String, Vec<ServerMessage>) {
    let out = send(
        s,
        conn,
        json!({"type": "join", "game_id": game_id, "seat": seat}),
    );
    assert!(out.iter().all(|(c, _)| *c == conn));
    let mut msgs: Vec<ServerMessage> = out.into_iter().map(|(_, m)| m).collect();
    match msgs.remove(0) {
        ServerMessage::Joined { token, .. } => (token, msgs),
        other => panic!("expected joined, got {other:?}"),
    }
}

/// A client at one seat, connected as `conn = seat + 1`: what it was sent.
struct Client {
    token: String,
    received: Vec<ServerMessage>,
}

/// A game played to its end by one client per seat, each answering its requests at random.
struct Played {
    session: Session,
    game_id: u64,
    clients: Vec<Client>,
    /// Every message of the game, in order, with its connection.
    all: Vec<(ConnId, ServerMessage)>,
}

fn play(games: &[&str], spec: Value, seed: u64) -> Played {
    let mut s = session(games);
    let game_id = create(&mut s, spec);
    let players = s.game(game_id).unwrap().players();
    let mut clients = Vec::new();
    let mut all = Vec::new();
    for seat in 0..players {
        let (token, msgs) = join(&mut s, game_id, seat, seat as ConnId + 1);
        all.extend(msgs.iter().map(|m| (seat as ConnId + 1, m.clone())));
        clients.push(Client {
            token,
            received: msgs,
        });
    }
    let mut rng = Rng::new(seed);
    let mut pending: Vec<(u8, u64, riffle_core::Request)> = clients
        .iter()
        .flat_map(|c| &c.received)
        .filter_map(|m| match m {
            ServerMessage::Request {
                seat,
                request_id,
                request,
                ..
            } => Some((*seat, *request_id, request.clone())),
            _ => None,
        })
        .collect();
    let mut decisions = 0;
    while let Some((seat, request_id, request)) = pending.pop() {
        assert!(pending.is_empty(), "one request at a time");
        decisions += 1;
        assert!(decisions < 100_000, "the game did not end");
        let answer: Answer = request.random_legal(&mut rng).into();
        let out = send(
            &mut s,
            seat as ConnId + 1,
            json!({"type": "respond", "game_id": game_id, "token": clients[seat as usize].token,
                   "request_id": request_id, "response": answer}),
        );
        for (conn, m) in out {
            if let ServerMessage::Request {
                seat,
                request_id,
                request,
                ..
            } = &m
            {
                assert_eq!(*seat as ConnId + 1, conn, "a request goes to its seat");
                pending.push((*seat, *request_id, request.clone()));
            }
            assert!(!matches!(m, ServerMessage::Error { .. }), "{m:?}");
            clients[conn as usize - 1].received.push(m.clone());
            all.push((conn, m));
        }
        // Every seat looks at the table after every decision.
        for seat in 0..players {
            let conn = seat as ConnId + 1;
            let out = send(
                &mut s,
                conn,
                json!({"type": "view", "game_id": game_id, "token": clients[seat as usize].token}),
            );
            for (c, m) in out {
                assert_eq!(c, conn);
                assert!(matches!(m, ServerMessage::View { .. }), "{m:?}");
                clients[seat as usize].received.push(m.clone());
                all.push((c, m));
            }
        }
    }
    Played {
        session: s,
        game_id,
        clients,
        all,
    }
}

/// Checks what every seat was sent: events numbered 1, 2, 3... per seat, each addressed to
/// its own seat, and a `game_over` with the kernel's result.
fn check_played(p: &Played) {
    let game = p.session.game(p.game_id).unwrap();
    let result = game.result().expect("the game ended");
    for (i, c) in p.clients.iter().enumerate() {
        let mut seq = 0;
        for m in &c.received {
            match m {
                ServerMessage::Event { seat, seq: n, .. } => {
                    assert_eq!(*seat as usize, i);
                    seq += 1;
                    assert_eq!(*n, seq, "seat {i}: events numbered without gaps");
                }
                ServerMessage::View { seat, .. } | ServerMessage::Request { seat, .. } => {
                    assert_eq!(*seat as usize, i)
                }
                _ => {}
            }
        }
        // Every event of the seat's filtered log, no more.
        assert_eq!(seq as usize, game.events_for(i as u8).len());
        let over = c.received.iter().rev().find_map(|m| match m {
            ServerMessage::GameOver {
                winners, reason, ..
            } => Some((winners.clone(), reason.clone())),
            _ => None,
        });
        assert_eq!(over, Some((result.winners.clone(), result.reason.clone())));
    }
}

/// The names of cards that seat `hidden` held only in zones the other seats never saw into,
/// over the whole game, and that no other seat's deck holds. Read from the messages to
/// `hidden` (its views and events), the zones' visibility from the others' views.
fn hidden_names(p: &Played, hidden: usize) -> BTreeSet<String> {
    let views = |seat: usize| -> Vec<&riffle_core::PlayerView> {
        p.clients[seat]
            .received
            .iter()
            .filter_map(|m| match m {
                ServerMessage::View { view, .. } => Some(view),
                _ => None,
            })
            .collect()
    };
    let mut candidates = BTreeSet::new();
    let mut public = BTreeSet::new();
    for v in views(hidden) {
        for z in &v.zones {
            // A zone the others see into: a card of it shown with its identity to another.
            let seen_by_others = (0..p.clients.len()).filter(|s| *s != hidden).any(|s| {
                views(s).iter().any(|ov| {
                    ov.zones.iter().any(|oz| {
                        oz.name == z.name
                            && oz.owner == z.owner
                            && oz.cards.iter().any(|c| c.card.is_some())
                    })
                })
            });
            for c in &z.cards {
                if let Some(name) = &c.name {
                    if z.owner == Some(hidden as u8) && !seen_by_others {
                        candidates.insert(name.clone());
                    } else {
                        public.insert(name.clone());
                    }
                }
            }
        }
    }
    // Names other seats own cards of: they may see their own copies.
    for seat in (0..p.clients.len()).filter(|s| *s != hidden) {
        for v in views(seat) {
            for z in v.zones.iter().filter(|z| z.owner == Some(seat as u8)) {
                for c in &z.cards {
                    if let Some(n) = &c.name {
                        public.insert(n.clone());
                    }
                }
            }
        }
    }
    candidates.difference(&public).cloned().collect()
}

/// Whether a string in `v` holds `name` as whole words.
fn names_card(v: &Value, name: &str) -> bool {
    match v {
        Value::String(s) => s.match_indices(name).any(|(i, _)| {
            let before = s[..i].chars().next_back();
            let after = s[i + name.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        }),
        Value::Array(a) => a.iter().any(|x| names_card(x, name)),
        Value::Object(o) => o.values().any(|x| names_card(x, name)),
        _ => false,
    }
}

/// No message to another seat names a card only `hidden` could see.
fn check_no_leak(p: &Played, hidden: usize) {
    let names = hidden_names(p, hidden);
    assert!(
        !names.is_empty(),
        "the test needs a card only seat {hidden} saw"
    );
    for (conn, m) in &p.all {
        if *conn as usize - 1 == hidden {
            continue;
        }
        let value = serde_json::to_value(m).unwrap();
        for n in &names {
            assert!(
                !names_card(&value, n),
                "seat {} was sent {n}, a card only seat {hidden} saw: {value}",
                conn - 1
            );
        }
    }
}

#[test]
fn onepiece_is_played_to_the_end_and_hides_the_hands() {
    let p = play(
        &["onepiece"],
        json!({"type": "create", "game": "onepiece", "seed": 3}),
        3,
    );
    check_played(&p);
    check_no_leak(&p, 1);
    check_no_leak(&p, 0);
}
