//! The host protocol through a `Session`: whole games of each game played by clients that
//! see only their seat's messages, tokens, stale answers, resume, bad lines.

use std::collections::BTreeSet;
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
fn join(
    s: &mut Session,
    game_id: u64,
    seat: Option<u8>,
    conn: ConnId,
) -> (String, Vec<ServerMessage>) {
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
    // One client per seat, and a spectator last (no seat).
    let seats = (0..players).map(Some).chain([None]);
    for (i, seat) in seats.enumerate() {
        let (token, msgs) = join(&mut s, game_id, seat, i as ConnId + 1);
        all.extend(msgs.iter().map(|m| (i as ConnId + 1, m.clone())));
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
        for seat in 0..=players {
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
    let players = game.players() as usize;
    assert_eq!(
        p.clients.len(),
        players + 1,
        "a client per seat and a spectator"
    );
    for (i, c) in p.clients.iter().enumerate() {
        // The spectator is the last client: no seat.
        let me = (i < players).then_some(i as u8);
        let mut seq = 0;
        for m in &c.received {
            match m {
                ServerMessage::Event { seat, seq: n, .. } => {
                    assert_eq!(*seat, me);
                    seq += 1;
                    assert_eq!(*n, seq, "client {i}: events numbered without gaps");
                }
                ServerMessage::View { seat, view, .. } => {
                    assert_eq!(*seat, me);
                    assert_eq!(view.spectator, me.is_none());
                }
                ServerMessage::Request { seat, .. } => assert_eq!(Some(*seat), me),
                _ => {}
            }
        }
        // Every event of the seat's (or the spectator's) filtered log, no more.
        let entries = match me {
            Some(seat) => game.events_for(seat),
            None => game.spectator_events_from(0),
        };
        assert_eq!(seq as usize, entries.len());
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
    // Every seat was sent a view at the same points (on joining, after each decision).
    let others: Vec<Vec<&riffle_core::PlayerView>> = (0..p.clients.len())
        .filter(|s| *s != hidden)
        .map(views)
        .collect();
    for (step, v) in views(hidden).into_iter().enumerate() {
        for z in &v.zones {
            // A zone another seat sees into at this point: a card of it named in its view.
            let seen_by_others = others.iter().any(|ov| {
                ov[step].zones.iter().any(|oz| {
                    oz.name == z.name && oz.owner == z.owner && !names_in(&oz.cards).is_empty()
                })
            });
            for name in names_in(&z.cards) {
                if z.owner == Some(hidden as u8) && !seen_by_others {
                    candidates.insert(name);
                } else {
                    public.insert(name);
                }
            }
        }
    }
    // Names other seats own cards of: they may see their own copies.
    for seat in (0..p.clients.len()).filter(|s| *s != hidden) {
        for v in views(seat) {
            for z in v.zones.iter().filter(|z| z.owner == Some(seat as u8)) {
                public.extend(names_in(&z.cards));
            }
        }
    }
    let hidden: BTreeSet<String> = candidates.difference(&public).cloned().collect();
    hidden
}

/// The names of `cards` and of the cards attached to them, at any depth.
fn names_in(cards: &[riffle_core::CardView]) -> Vec<String> {
    let mut out = Vec::new();
    for c in cards {
        out.extend(c.name.clone());
        out.extend(names_in(&c.attachments));
    }
    out
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

/// No message to another seat, or to the spectator, names a card only `hidden` could see.
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
                "client {} (the last is the spectator) was sent {n}, a card only seat {hidden} saw: {value}",
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

#[test]
fn gundam_is_played_to_the_end_and_hides_the_hands() {
    let p = play(
        &["gundam"],
        json!({"type": "create", "game": "gundam", "seed": 5}),
        5,
    );
    check_played(&p);
    check_no_leak(&p, 1);
    check_no_leak(&p, 0);
}

#[test]
fn gundam_battle_royal_seats_four() {
    let p = play(
        &["gundam"],
        json!({"type": "create", "game": "gundam", "players": 4, "mode": "battle-royal", "seed": 2}),
        2,
    );
    assert_eq!(p.clients.len(), 5, "four seats and a spectator");
    check_played(&p);
}

#[test]
fn summoner_master_is_played_to_the_end_and_hides_the_hands() {
    let p = play(
        &["summoner-master"],
        json!({"type": "create", "game": "summoner-master", "seed": 4, "decks": ["hex-court", "gale-thorn"],
               "options": {"level": "summoner"}}),
        4,
    );
    check_played(&p);
    check_no_leak(&p, 1);
    check_no_leak(&p, 0);
}

/// A onepiece game with both seats joined: the session, the game id, the tokens and the
/// first request (seat, id, request).
fn started() -> (Session, u64, Vec<String>, (u8, u64, riffle_core::Request)) {
    let mut s = session(&["onepiece"]);
    let id = create(
        &mut s,
        json!({"type": "create", "game": "onepiece", "seed": 7}),
    );
    let mut tokens = Vec::new();
    let mut first = None;
    for seat in 0..2 {
        let (token, msgs) = join(&mut s, id, Some(seat), seat as ConnId + 1);
        tokens.push(token);
        for m in msgs {
            if let ServerMessage::Request {
                seat,
                request_id,
                request,
                ..
            } = m
            {
                first = Some((seat, request_id, request));
            }
        }
    }
    (s, id, tokens, first.expect("a seat decides first"))
}

fn decisions(s: &Session, id: u64) -> usize {
    let g = s.game(id).unwrap();
    g.log()
        .iter()
        .filter(|e| matches!(e, riffle_core::Entry::Decision { .. }))
        .count()
}

#[test]
fn a_wrong_or_missing_token_is_refused() {
    let (mut s, id, tokens, (seat, rid, req)) = started();
    let answer: Answer = req.first_legal().into();
    let before = s.game(id).unwrap().log_len();
    let other = &tokens[1 - seat as usize];
    let cases = [
        (
            json!({"type": "respond", "game_id": id, "request_id": rid, "response": answer}),
            ErrorCode::MissingToken,
        ),
        (
            json!({"type": "respond", "game_id": id, "token": "00", "request_id": rid, "response": answer}),
            ErrorCode::BadToken,
        ),
        (
            json!({"type": "respond", "game_id": id, "token": other, "request_id": rid, "response": answer}),
            ErrorCode::NotYourTurn,
        ),
        (
            json!({"type": "view", "game_id": id}),
            ErrorCode::MissingToken,
        ),
        (
            json!({"type": "view", "game_id": id, "token": "nope"}),
            ErrorCode::BadToken,
        ),
        (
            json!({"type": "resume", "game_id": id, "token": "nope", "last_seq": 0}),
            ErrorCode::BadToken,
        ),
        (
            json!({"type": "join", "game_id": id, "seat": 0}),
            ErrorCode::SeatTaken,
        ),
        (
            json!({"type": "join", "game_id": id, "seat": 2}),
            ErrorCode::NoSuchSeat,
        ),
        (
            json!({"type": "view", "game_id": 99, "token": other}),
            ErrorCode::NoSuchGame,
        ),
    ];
    for (msg, code) in cases {
        assert_eq!(error_code(&send(&mut s, 9, msg.clone())), code, "{msg}");
    }
    assert_eq!(s.game(id).unwrap().log_len(), before, "nothing changed");
    // A token of another game is no token of this one.
    let id2 = create(
        &mut s,
        json!({"type": "create", "game": "onepiece", "seed": 8}),
    );
    let msg = json!({"type": "view", "game_id": id2, "token": tokens[0]});
    assert_eq!(error_code(&send(&mut s, 9, msg)), ErrorCode::BadToken);
}

#[test]
fn a_repeated_or_stale_response_is_refused_and_applied_once() {
    let (mut s, id, tokens, (seat, rid, req)) = started();
    let answer: Answer = req.first_legal().into();
    let msg = json!({"type": "respond", "game_id": id, "token": tokens[seat as usize],
                     "request_id": rid, "response": answer});
    let before = decisions(&s, id);
    let out = send(&mut s, seat as ConnId + 1, msg.clone());
    assert!(
        out.iter()
            .all(|(_, m)| !matches!(m, ServerMessage::Error { .. }))
    );
    assert_eq!(decisions(&s, id), before + 1);
    let len = s.game(id).unwrap().log_len();
    // The same message again: refused, the log has the one decision.
    assert_eq!(
        error_code(&send(&mut s, seat as ConnId + 1, msg)),
        ErrorCode::StaleRequest
    );
    assert_eq!(s.game(id).unwrap().log_len(), len);
    assert_eq!(decisions(&s, id), before + 1);
    // A request that does not exist yet.
    let next = s.game(id).unwrap().request().unwrap().clone();
    let next_seat = next.player() as usize;
    let msg = json!({"type": "respond", "game_id": id, "token": tokens[next_seat],
                     "request_id": rid + 5, "response": Answer::from(next.first_legal())});
    assert_eq!(error_code(&send(&mut s, 1, msg)), ErrorCode::UnknownRequest);
    assert_eq!(s.game(id).unwrap().log_len(), len);
}

#[test]
fn an_illegal_response_changes_nothing() {
    let (mut s, id, tokens, (seat, rid, req)) = started();
    let illegal = match req {
        riffle_core::Request::Choose { options, .. } => {
            json!({"type": "choose", "indices": [options.len() as u32 + 3]})
        }
        riffle_core::Request::Number { max, .. } => json!({"type": "number", "value": max + 1}),
    };
    let before = s.game(id).unwrap().log_len();
    let view = s.game(id).unwrap().view(seat);
    let msg = json!({"type": "respond", "game_id": id, "token": tokens[seat as usize],
                     "request_id": rid, "response": illegal});
    assert_eq!(
        error_code(&send(&mut s, 1, msg)),
        ErrorCode::IllegalResponse
    );
    assert_eq!(s.game(id).unwrap().log_len(), before);
    assert_eq!(s.game(id).unwrap().view(seat), view);
}

/// The events of `msgs`, as (seq, entry).
fn events(msgs: &[(ConnId, ServerMessage)]) -> Vec<(u64, riffle_core::Entry)> {
    msgs.iter()
        .filter_map(|(_, m)| match m {
            ServerMessage::Event { seq, entry, .. } => Some((*seq, entry.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn resume_after_a_disconnect_sends_exactly_the_missed_events() {
    let (mut s, id, tokens, first) = started();
    // Seat 0's connection (1) drops; the game goes on for a while, answered for both seats.
    let last_seq = s
        .handle_line(
            1,
            &json!({"type": "resume", "game_id": id, "token": tokens[0], "last_seq": 0})
                .to_string(),
        )
        .iter()
        .filter_map(|(_, m)| match m {
            ServerMessage::Event { seq, .. } => Some(*seq),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    s.disconnect(1);
    let mut rng = Rng::new(11);
    let mut pending = Some(first);
    let mut missed_while_away = Vec::new();
    for _ in 0..40 {
        let Some((seat, rid, req)) = pending.take() else {
            break;
        };
        let msg = json!({"type": "respond", "game_id": id, "token": tokens[seat as usize],
                         "request_id": rid, "response": Answer::from(req.random_legal(&mut rng))});
        let out = send(&mut s, 2, msg);
        assert!(
            out.iter().all(|(c, _)| *c == 2),
            "nothing is sent to a dropped connection"
        );
        missed_while_away.extend(
            out.iter()
                .filter(|(_, m)| matches!(m, ServerMessage::Event { seat: Some(0), .. }))
                .cloned(),
        );
        let next = s.game(id).unwrap().request().cloned();
        // Seat 0's requests are answered here as a client would after resuming: from the game.
        pending = next.map(|r| {
            let rid = rid + 1;
            (r.player(), rid, r)
        });
    }
    assert!(missed_while_away.is_empty());
    // Seat 0 comes back on connection 3: its view, then every event after `last_seq`.
    let out = send(
        &mut s,
        3,
        json!({"type": "resume", "game_id": id, "token": tokens[0], "last_seq": last_seq}),
    );
    assert!(out.iter().all(|(c, _)| *c == 3));
    assert!(matches!(
        out[0].1,
        ServerMessage::View { seat: Some(0), .. }
    ));
    let got = events(&out);
    let all = s.game(id).unwrap().events_for(0);
    assert!(
        all.len() > last_seq as usize,
        "the game went on while seat 0 was away"
    );
    let expected: Vec<(u64, riffle_core::Entry)> = all
        .into_iter()
        .enumerate()
        .skip(last_seq as usize)
        .map(|(i, e)| (i as u64 + 1, e))
        .collect();
    assert_eq!(got, expected);
    // Resuming again from the newest seq sends no event; a seq never sent is refused.
    let newest = got.last().unwrap().0;
    let out = send(
        &mut s,
        3,
        json!({"type": "resume", "game_id": id, "token": tokens[0], "last_seq": newest}),
    );
    assert!(events(&out).is_empty());
    let msg = json!({"type": "resume", "game_id": id, "token": tokens[0], "last_seq": newest + 1});
    assert_eq!(error_code(&send(&mut s, 3, msg)), ErrorCode::BadSequence);
}

#[test]
fn bad_lines_get_an_error_and_the_session_keeps_serving() {
    let (mut s, id, tokens, _) = started();
    let before = s.game(id).unwrap().log_len();
    let huge = format!(
        r#"{{"type":"hello","protocol":1,"pad":"{}"}}"#,
        "x".repeat(MAX_MESSAGE_BYTES)
    );
    let cases = [
        ("{not json", ErrorCode::MalformedMessage),
        ("[1, 2]", ErrorCode::MalformedMessage),
        (r#"{"protocol": 1}"#, ErrorCode::MalformedMessage),
        (r#"{"type": "dance"}"#, ErrorCode::UnknownMessage),
        (
            r#"{"type": "respond", "game_id": 1}"#,
            ErrorCode::MalformedMessage,
        ),
        (
            r#"{"type": "hello", "protocol": "one"}"#,
            ErrorCode::MalformedMessage,
        ),
        (
            r#"{"type": "hello", "protocol": 2}"#,
            ErrorCode::UnsupportedVersion,
        ),
        ("", ErrorCode::MalformedMessage),
        (huge.as_str(), ErrorCode::MessageTooLarge),
    ];
    for (line, code) in cases {
        assert_eq!(
            error_code(&s.handle_line(1, line)),
            code,
            "{}",
            &line[..line.len().min(60)]
        );
    }
    assert_eq!(s.game(id).unwrap().log_len(), before);
    // Still serving: a view, and a hello with unknown fields (ignored).
    let out = send(
        &mut s,
        1,
        json!({"type": "view", "game_id": id, "token": tokens[0]}),
    );
    assert!(matches!(out[..], [(1, ServerMessage::View { .. })]));
    let out = send(
        &mut s,
        1,
        json!({"type": "hello", "protocol": 1, "client": "test"}),
    );
    let [
        (
            1,
            ServerMessage::Welcome {
                protocol, games, ..
            },
        ),
    ] = &out[..]
    else {
        panic!("{out:?}")
    };
    assert_eq!(*protocol, 1);
    assert_eq!(games[0].game, "onepiece");
    assert_eq!(games[0].content_hash.len(), 64);
}

#[test]
fn create_refuses_bad_setups_and_too_many_games() {
    let library = Library::load(&[root()], &["onepiece".to_string()]).unwrap();
    let mut s = Session::with_limits(
        library,
        Limits {
            max_message_bytes: MAX_MESSAGE_BYTES,
            max_games: 2,
            ..Limits::default()
        },
    );
    let cases = [
        (
            json!({"type": "create", "game": "chess"}),
            ErrorCode::UnknownGame,
        ),
        (
            json!({"type": "create", "game": "onepiece", "decks": ["no-such-deck", "red-rush"]}),
            ErrorCode::BadSetup,
        ),
        (
            json!({"type": "create", "game": "onepiece", "decks": vec!["red-rush"; 5000]}),
            ErrorCode::BadSetup,
        ),
        (
            json!({"type": "create", "game": "onepiece", "players": 7}),
            ErrorCode::BadSetup,
        ),
        (
            json!({"type": "create", "game": "onepiece", "options": {"nonsense": "x"}}),
            ErrorCode::BadSetup,
        ),
        (
            json!({"type": "create", "game": "onepiece", "decks": ["red-rush"], "players": 2}),
            ErrorCode::BadSetup,
        ),
    ];
    for (msg, code) in cases {
        assert_eq!(error_code(&send(&mut s, 1, msg.clone())), code, "{msg}");
    }
    assert_eq!(s.games(), 0);
    create(
        &mut s,
        json!({"type": "create", "game": "onepiece", "decks": ["red-rush", "blue-tide"]}),
    );
    create(&mut s, json!({"type": "create", "game": "onepiece"}));
    let msg = json!({"type": "create", "game": "onepiece"});
    assert_eq!(error_code(&send(&mut s, 1, msg)), ErrorCode::TooManyGames);
    assert_eq!(s.games(), 2);
}

#[test]
fn a_connection_has_at_most_max_search_games_unfinished_games_with_mcts() {
    let library = Library::load(&[root()], &["onepiece".to_string()]).unwrap();
    let mut s = Session::with_limits(
        library,
        Limits {
            max_search_games: 2,
            ..Limits::default()
        },
    );
    let against =
        |agent: &str| json!({"type": "create", "game": "onepiece", "agents": {"1": agent}});
    // A game of agents alone ends within `create`: it does not count.
    create(
        &mut s,
        json!({"type": "create", "game": "onepiece", "agents": {"0": "mcts:1", "1": "random"}}),
    );
    assert!(
        s.game(1).unwrap().request().is_none(),
        "the agents' game ended"
    );
    create(&mut s, against("mcts:1"));
    create(&mut s, against("mcts"));
    let out = send(&mut s, 0, against("mcts:2"));
    assert_eq!(error_code(&out), ErrorCode::TooManyGames, "{out:?}");
    assert_eq!(s.games(), 3, "the refused game was not made");
    // Cheap agents, and another connection, are not held back.
    create(&mut s, against("greedy"));
    assert_eq!(send(&mut s, 2, against("mcts:1")).len(), 1);
    assert_eq!(s.games(), 5);
}

#[test]
fn a_spectator_sees_the_public_table_and_decides_nothing() {
    let (mut s, id, tokens, (seat, rid, req)) = started();
    // Past the choice of who goes first: the hands are dealt.
    let msg = json!({"type": "respond", "game_id": id, "token": tokens[seat as usize],
                     "request_id": rid, "response": Answer::from(req.first_legal())});
    send(&mut s, 1, msg);
    let (rid, req) = (rid + 1, s.game(id).unwrap().request().unwrap().clone());
    let out = send(&mut s, 5, json!({"type": "join", "game_id": id}));
    let (token, view) = match &out[..] {
        [
            (
                5,
                ServerMessage::Joined {
                    seat: None, token, ..
                },
            ),
            (
                5,
                ServerMessage::View {
                    seat: None, view, ..
                },
            ),
            ..,
        ] => (token.clone(), view.clone()),
        other => panic!("{other:?}"),
    };
    assert!(view.spectator && view.request.is_none());
    assert!(
        out.iter()
            .all(|(_, m)| !matches!(m, ServerMessage::Request { .. }))
    );
    // The Leaders are public: named. The hands: counted, never named.
    let named = |zone: &str| -> usize {
        view.zones
            .iter()
            .filter(|z| z.name == zone)
            .flat_map(|z| &z.cards)
            .filter(|c| c.name.is_some())
            .count()
    };
    assert_eq!(named("leader"), 2);
    assert_eq!(named("hand"), 0);
    assert!(view.zones.iter().any(|z| z.name == "hand" && z.count > 0));
    // It may not answer, even with its own token.
    let msg = json!({"type": "respond", "game_id": id, "token": token, "request_id": rid,
                     "response": Answer::from(req.first_legal())});
    assert_eq!(error_code(&send(&mut s, 5, msg)), ErrorCode::NotYourTurn);
    // It resumes like a seat.
    let out = send(
        &mut s,
        6,
        json!({"type": "resume", "game_id": id, "token": token, "last_seq": 0}),
    );
    assert!(matches!(
        out[0],
        (6, ServerMessage::View { seat: None, .. })
    ));
}

/// A session given a first id and a stride numbers its games by them (a server of several
/// sessions keeps game ids unique), and a game of another numbering is not there.
#[test]
fn game_ids_follow_the_first_id_and_stride() {
    let library = Library::load(&[root()], &["onepiece".to_string()]).unwrap();
    let mut s = Session::new(library).with_game_ids(2, 3);
    let spec = json!({"type": "create", "game": "onepiece"});
    let ids: Vec<u64> = (0..3).map(|_| create(&mut s, spec.clone())).collect();
    assert_eq!(ids, [2, 5, 8]);
    let out = send(
        &mut s,
        0,
        json!({"type": "view", "game_id": 1, "token": "00"}),
    );
    assert_eq!(error_code(&out), ErrorCode::NoSuchGame);
}
