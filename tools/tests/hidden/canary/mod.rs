//! The canary test (issue #28 item 4): no seat is sent a card it could not know, and no
//! spectator a card not every seat could know (OP 3-1-8, GD 4-1-6, SM 302). Every card of
//! every seat's deck is a card of its own whose name carries a unique marker
//! ([`content`]); whole games are played through the host's `Session` (random legal answers,
//! a spectator joined, every seat and the spectator asking for its view every few decisions)
//! and every message sent to each client is searched for markers. A marker of a card the
//! client could not know ([`knowledge`], from the full state and log) is a leak, reported
//! with the message and the card.

mod content;
mod knowledge;

use riffle_core::{Request, Rng};
use riffle_host::{Answer, Session};
use serde_json::{Value, json};

use content::{markers, seat_of};
use knowledge::Knowledge;

/// Every `VIEWS`-th decision, every client asks for its view.
const VIEWS: u64 = 8;
/// A game longer than this is a fault.
const MOST_DECISIONS: u64 = 20_000;
/// The spectator's connection.
const SPECTATOR: u64 = 100;

/// What a game's clients were sent with markers in it, for the non-vacuity checks.
#[derive(Default)]
struct Seen {
    /// Markers of its own cards each seat was sent.
    own: Vec<usize>,
    /// Markers of other seats' cards each seat was sent.
    others: Vec<usize>,
    /// Markers the spectator was sent.
    spectator: usize,
}

/// `v` without what names every card of the content rather than a card of this game: Summoner
/// Master's Wisdom options (Gl: Wisdom 2; docs/rulings B.33), whose labels are no one's secret.
fn strip_world(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.get("kind").and_then(Value::as_str) == Some("wisdom") {
                m.remove("label");
            }
            m.values_mut().for_each(strip_world);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_world),
        _ => {}
    }
}

/// Checks every message of `sent` against what its client could know.
fn check(
    sent: &[riffle_host::Outgoing],
    g: &riffle_core::Game,
    k: &Knowledge,
    seats: usize,
    seen: &mut Seen,
    at: &str,
) {
    for (conn, msg) in sent {
        let mut v = serde_json::to_value(msg).unwrap();
        strip_world(&mut v);
        let text = v.to_string();
        for m in markers(&text) {
            let owner = seat_of(m).unwrap_or_else(|| panic!("{at}: a marker {m} of no seat"));
            if *conn == SPECTATOR {
                assert!(
                    k.public.contains(m),
                    "{at}: LEAK to the spectator of card {m} (seat {owner}'s), which not every \
                     seat could see, in:\n{text}\nthe card: {}",
                    Knowledge::trace(g, m)
                );
                seen.spectator += 1;
            } else {
                let to = (*conn - 1) as usize;
                assert!(to < seats, "{at}: a message to connection {conn}");
                assert!(
                    k.seat[to].contains(m),
                    "{at}: LEAK to seat {to} of card {m} (seat {owner}'s), which it could not \
                     know, in:\n{text}\nthe card: {}",
                    Knowledge::trace(g, m)
                );
                if owner == to {
                    seen.own[to] += 1;
                } else {
                    seen.others[to] += 1;
                }
            }
        }
    }
}

/// One game of `game` for `players` seats with `options`, by seed: seat s is connection s + 1.
fn play(game: &str, players: usize, options: Value, seed: u64) -> Seen {
    let at = format!("{game} ({players} players, {options}) seed {seed}");
    let library = content::library(game, players, seed as usize);
    let zones = library
        .get(game)
        .unwrap()
        .content
        .content
        .ruleset
        .manifest
        .zones
        .clone();
    let mut session = Session::new(library);
    let decks: Vec<String> = (0..players).map(content::deck_id).collect();
    let mut create = json!({"type": "create", "game": game, "decks": decks, "seed": seed,
                            "options": options});
    if players > 2 {
        create["players"] = json!(players);
    }
    let created = session.handle_line(1, &create.to_string());
    let id = match &created[..] {
        [(_, riffle_host::ServerMessage::Created { game_id, .. })] => *game_id,
        other => panic!("{at}: not created: {other:?}"),
    };
    let mut k = Knowledge::new(session.game(id).unwrap(), &zones);
    k.update(session.game(id).unwrap());
    let mut seen = Seen {
        own: vec![0; players],
        others: vec![0; players],
        spectator: 0,
    };
    let mut tokens = Vec::new();
    let mut pending: Option<(usize, Value)> = None;
    let send = |session: &mut Session,
                k: &mut Knowledge,
                conn: u64,
                msg: Value,
                seen: &mut Seen,
                pending: &mut Option<(usize, Value)>| {
        let sent = session.handle_line(conn, &msg.to_string());
        // Only an answer changes the game.
        if msg["type"] == "respond" {
            k.update(session.game(id).unwrap());
        }
        check(&sent, session.game(id).unwrap(), k, players, seen, &at);
        let mut out = Vec::new();
        for (to, m) in sent {
            let v = serde_json::to_value(&m).unwrap();
            if v["type"] == "request" {
                *pending = Some(((to - 1) as usize, v.clone()));
            }
            out.push(v);
        }
        out
    };
    for seat in 0..players {
        let conn = seat as u64 + 1;
        let msg = json!({"type": "join", "game_id": id, "seat": seat});
        let joined = send(&mut session, &mut k, conn, msg, &mut seen, &mut pending);
        tokens.push(joined[0]["token"].clone());
    }
    let msg = json!({"type": "join", "game_id": id});
    let joined = send(
        &mut session,
        &mut k,
        SPECTATOR,
        msg,
        &mut seen,
        &mut pending,
    );
    let spectator_token = joined[0]["token"].clone();
    let mut rng = Rng::new(seed);
    let mut decisions = 0u64;
    while let Some((seat, req)) = pending.take() {
        decisions += 1;
        assert!(decisions < MOST_DECISIONS, "{at}: no end");
        let request: Request = serde_json::from_value(req["request"].clone()).unwrap();
        let answer = Answer::from(request.random_legal(&mut rng));
        let msg = json!({"type": "respond", "game_id": id, "token": tokens[seat],
                         "request_id": req["request_id"], "response": answer});
        let sent = send(
            &mut session,
            &mut k,
            seat as u64 + 1,
            msg,
            &mut seen,
            &mut pending,
        );
        assert!(
            sent.iter().all(|v| v["type"] != "error"),
            "{at}: refused: {sent:?}"
        );
        if decisions.is_multiple_of(VIEWS) {
            let clients = (0..players).map(|s| (s as u64 + 1, &tokens[s]));
            for (conn, token) in clients.chain([(SPECTATOR, &spectator_token)]) {
                let msg = json!({"type": "view", "game_id": id, "token": token});
                send(&mut session, &mut k, conn, msg, &mut seen, &mut pending);
            }
        }
    }
    assert!(
        session.game(id).unwrap().result().is_some(),
        "{at}: the game stopped before its end"
    );
    seen
}

/// Plays `seeds` games; the markers must show up where legitimate, or the test would pass
/// with a broken injection: each seat is sent its own cards and some of the others', the
/// spectator some.
fn no_client_is_sent_a_card_it_could_not_know(
    game: &str,
    players: usize,
    options: Value,
    seeds: u64,
) {
    for seed in 1..=seeds {
        let seen = play(game, players, options.clone(), seed);
        let at = format!("{game} ({players} players, {options}) seed {seed}");
        for s in 0..players {
            assert!(
                seen.own[s] > 0,
                "{at}: seat {s} was never sent its own cards"
            );
            assert!(
                seen.others[s] > 0,
                "{at}: seat {s} was never sent another seat's card"
            );
        }
        assert!(seen.spectator > 0, "{at}: the spectator was sent no card");
    }
}

#[test]
fn canary_one_piece_no_seat_or_spectator_is_sent_a_card_it_could_not_know() {
    no_client_is_sent_a_card_it_could_not_know("onepiece", 2, json!({}), 2);
}

#[test]
fn canary_gundam_no_seat_or_spectator_is_sent_a_card_it_could_not_know() {
    no_client_is_sent_a_card_it_could_not_know("gundam", 2, json!({}), 2);
    no_client_is_sent_a_card_it_could_not_know("gundam", 4, json!({"mode": "battle-royal"}), 1);
    no_client_is_sent_a_card_it_could_not_know("gundam", 4, json!({"mode": "team"}), 1);
}

#[test]
fn canary_summoner_master_no_seat_or_spectator_is_sent_a_card_it_could_not_know() {
    no_client_is_sent_a_card_it_could_not_know(
        "summoner-master",
        2,
        json!({"level": "summoner"}),
        1,
    );
}
