//! Seats the host plays itself (`create`'s `agents`), the readable log a seat may ask for
//! (`join` with `log: readable`) and the card texts of `view`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use riffle_content::readable::Narrator;
use riffle_core::{CardView, Rng};
use riffle_host::{Answer, ConnId, ErrorCode, Library, ServerMessage, Session};
use serde_json::{Value, json};

fn session() -> Session {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let games = ["onepiece", "gundam", "summoner-master"].map(String::from);
    Session::new(Library::load(&[root], &games).expect("the repository's content loads"))
}

fn send(s: &mut Session, conn: ConnId, msg: Value) -> Vec<(ConnId, ServerMessage)> {
    s.handle_line(conn, &msg.to_string())
}

fn error_code(out: &[(ConnId, ServerMessage)]) -> ErrorCode {
    match out {
        [(_, ServerMessage::Error { code, .. })] => *code,
        other => panic!("expected one error, got {other:?}"),
    }
}

fn create(s: &mut Session, spec: Value) -> u64 {
    match &send(s, 0, spec)[..] {
        [(0, ServerMessage::Created { game_id, .. })] => *game_id,
        other => panic!("expected created, got {other:?}"),
    }
}

/// What seat 0 was sent in a game against `agent` at seat 1, seat 0 answering at random
/// (seeded by `seed`); also checks each `log` against a narrator of seat 0 told at the same
/// moments.
fn play_against(s: &mut Session, game: &str, seed: u64, agent: &str) -> (u64, Vec<ServerMessage>) {
    let id = create(
        s,
        json!({"type": "create", "game": game, "seed": seed, "agents": {"1": agent}}),
    );
    let mut narrator = Narrator::new(Some(0), None);
    let out = send(
        s,
        1,
        json!({"type": "join", "game_id": id, "seat": 0, "log": "readable"}),
    );
    let mut received: Vec<ServerMessage> = Vec::new();
    let mut check = |s: &Session, out: Vec<(ConnId, ServerMessage)>, got: &mut Vec<_>| {
        let want = narrator.lines(s.game(id).unwrap());
        let told: Vec<String> = out
            .iter()
            .filter_map(|(_, m)| match m {
                ServerMessage::Log { lines, .. } => Some(lines.clone()),
                _ => None,
            })
            .flatten()
            .collect();
        assert_eq!(
            told, want,
            "the log tells what riffle play's narrator tells"
        );
        for (conn, m) in out {
            assert_eq!(conn, 1, "only seat 0's connection is sent anything: {m:?}");
            got.push(m);
        }
    };
    check(s, out, &mut received);
    let token = match &received[0] {
        ServerMessage::Joined { token, .. } => token.clone(),
        other => panic!("expected joined, got {other:?}"),
    };
    let mut rng = Rng::new(seed);
    for _ in 0..100_000 {
        if received
            .iter()
            .any(|m| matches!(m, ServerMessage::GameOver { .. }))
        {
            break;
        }
        let Some((request_id, request)) = received.iter().rev().find_map(|m| match m {
            ServerMessage::Request {
                request_id,
                request,
                ..
            } => Some((*request_id, request.clone())),
            _ => None,
        }) else {
            panic!("{game}: seat 0 is neither deciding nor told the end");
        };
        let answer = Answer::from(request.random_legal(&mut rng));
        let mut out = send(
            s,
            1,
            json!({"type": "respond", "game_id": id, "token": token,
                   "request_id": request_id, "response": answer}),
        );
        assert!(
            out.iter()
                .all(|(_, m)| !matches!(m, ServerMessage::Error { .. })),
            "{out:?}"
        );
        // The answered request is done with: only a new one is answered next.
        received.retain(|m| !matches!(m, ServerMessage::Request { .. }));
        check(s, std::mem::take(&mut out), &mut received);
    }
    (id, received)
}

#[test]
fn a_seat_plays_each_game_against_the_hosts_agent() {
    let mut s = session();
    for (game, seed) in [("onepiece", 3), ("gundam", 2), ("summoner-master", 4)] {
        let (id, received) = play_against(&mut s, game, seed, "random");
        let g = s.game(id).unwrap();
        assert!(g.result().is_some(), "{game}: the game ended");
        assert!(
            received
                .iter()
                .any(|m| matches!(m, ServerMessage::GameOver { seat: Some(0), .. })),
            "{game}: seat 0 is told the end"
        );
        // The agent decided too: seat 1's decisions are in the game's log.
        let agent_decided = g
            .log_from(0)
            .iter()
            .any(|e| matches!(e, riffle_core::Entry::Decision { player, .. } if *player == 1));
        assert!(agent_decided, "{game}: the agent at seat 1 decided");
        for m in &received {
            match m {
                ServerMessage::Request { seat, .. } => assert_eq!(*seat, 0),
                ServerMessage::Event { seat, .. } | ServerMessage::View { seat, .. } => {
                    assert_eq!(*seat, Some(0))
                }
                ServerMessage::Log { seat, lines, .. } => {
                    assert_eq!(*seat, 0);
                    assert!(!lines.is_empty(), "a log message tells something");
                }
                _ => {}
            }
        }
        // Nobody may take the agent's seat.
        let out = send(&mut s, 2, json!({"type": "join", "game_id": id, "seat": 1}));
        assert_eq!(error_code(&out), ErrorCode::SeatTaken);
    }
}

#[test]
fn the_same_seed_and_answers_play_the_same_game() {
    let log = |agent: &str| {
        let mut s = session();
        let (id, _) = play_against(&mut s, "onepiece", 7, agent);
        serde_json::to_string(&s.game(id).unwrap().log_from(0)).unwrap()
    };
    assert_eq!(log("random"), log("random"));
    assert_ne!(
        log("random"),
        log("first"),
        "the agent named is the one that plays"
    );
}

#[test]
fn a_game_of_agents_only_is_over_when_created() {
    let mut s = session();
    let id = create(
        &mut s,
        json!({"type": "create", "game": "gundam", "seed": 5,
               "agents": {"0": "first", "1": "random"}}),
    );
    assert!(s.game(id).unwrap().result().is_some());
    // A spectator joining sees the whole game, then its end.
    let out = send(&mut s, 3, json!({"type": "join", "game_id": id}));
    assert!(matches!(
        out.last(),
        Some((3, ServerMessage::GameOver { .. }))
    ));
}

#[test]
fn bad_agents_and_spectators_logs_are_refused() {
    let mut s = session();
    for (agents, code) in [
        (json!({"1": "genius"}), ErrorCode::UnknownAgent),
        (json!({"2": "random"}), ErrorCode::NoSuchSeat),
        (json!({"one": "random"}), ErrorCode::NoSuchSeat),
        (json!({"-1": "random"}), ErrorCode::NoSuchSeat),
    ] {
        let out = send(
            &mut s,
            0,
            json!({"type": "create", "game": "onepiece", "agents": agents}),
        );
        assert_eq!(error_code(&out), code, "{agents}");
    }
    assert_eq!(s.games(), 0, "a refused create makes no game");
    let id = create(&mut s, json!({"type": "create", "game": "onepiece"}));
    let spectator = json!({"type": "join", "game_id": id, "log": "readable"});
    assert_eq!(
        error_code(&send(&mut s, 0, spectator)),
        ErrorCode::SeatRequired
    );
    let odd = json!({"type": "join", "game_id": id, "seat": 0, "log": "verbose"});
    assert_eq!(
        error_code(&send(&mut s, 0, odd)),
        ErrorCode::MalformedMessage
    );
}

/// Every card id a view shows (its own and what it takes its definition from).
fn shown_ids(view: &riffle_core::PlayerView) -> BTreeSet<String> {
    fn walk(c: &CardView, ids: &mut BTreeSet<String>) {
        ids.extend(c.card.clone());
        ids.extend(c.definition.clone());
        c.attachments.iter().for_each(|a| walk(a, ids));
    }
    let mut ids = BTreeSet::new();
    view.zones
        .iter()
        .flat_map(|z| &z.cards)
        .for_each(|c| walk(c, &mut ids));
    ids
}

#[test]
fn a_view_gives_the_text_of_the_cards_it_shows_and_no_others() {
    let mut s = session();
    let id = create(
        &mut s,
        json!({"type": "create", "game": "onepiece", "seed": 3,
               "decks": ["red-rush", "blue-tide"], "agents": {"1": "first"}}),
    );
    let mut out = send(&mut s, 1, json!({"type": "join", "game_id": id, "seat": 0}));
    let token = match &out[0].1 {
        ServerMessage::Joined { token, .. } => token.clone(),
        other => panic!("expected joined, got {other:?}"),
    };
    let hand_of_1 = |s: &Session| -> BTreeSet<String> {
        let view = s.game(id).unwrap().view(1);
        let hand = view
            .zones
            .iter()
            .find(|z| z.name == "hand" && z.owner == Some(1));
        hand.expect("seat 1 has a hand")
            .cards
            .iter()
            .filter_map(|c| c.card.clone())
            .collect()
    };
    // Up to the first decision where seat 1 holds cards.
    for _ in 0..50 {
        if !hand_of_1(&s).is_empty() {
            break;
        }
        let (request_id, request) = out
            .iter()
            .find_map(|(_, m)| match m {
                ServerMessage::Request {
                    request_id,
                    request,
                    ..
                } => Some((*request_id, request.clone())),
                _ => None,
            })
            .expect("seat 0 decides");
        out = send(
            &mut s,
            1,
            json!({"type": "respond", "game_id": id, "token": token, "request_id": request_id,
                   "response": Answer::from(request.first_legal())}),
        );
    }
    let out = send(
        &mut s,
        1,
        json!({"type": "view", "game_id": id, "token": token}),
    );
    let [(_, ServerMessage::View { view, cards, .. })] = &out[..] else {
        panic!("expected a view, got {out:?}")
    };
    let ids = shown_ids(view);
    assert!(!ids.is_empty(), "seat 0 sees cards (its hand, its leader)");
    assert_eq!(cards.keys().cloned().collect::<BTreeSet<_>>(), ids);
    let hidden = hand_of_1(&s);
    assert!(
        hidden.difference(&ids).next().is_some(),
        "some card of seat 1's hand is seen nowhere by seat 0, so is not named: {hidden:?}"
    );
    let engine = s.game(id).unwrap().engine();
    let (some, text) = cards
        .iter()
        .find(|(_, t)| !t.text.is_empty())
        .expect("a shown card has printed text");
    let def = engine.card_def(some).unwrap();
    assert_eq!(
        def.text.values().next().map(|t| t.trim()),
        Some(&text.text[..])
    );
    assert_eq!(def.category, text.category);
}
