//! Spectators following one seat's view, late (`create`'s `spectate`, issue #28 item 3): at
//! every decision a spectator's view is the seat's view as it was `delay` decisions before
//! (without the seat's question), its events the seat's up to there, and once the game is
//! over, its end.

use std::path::PathBuf;

use riffle_core::Rng;
use riffle_host::{Answer, ConnId, ErrorCode, Library, ServerMessage, Session};
use serde_json::{Value, json};

fn session() -> Session {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let games = ["gundam".to_string()];
    Session::new(Library::load(&[root], &games).expect("the repository's content loads"))
}

fn send(s: &mut Session, conn: ConnId, msg: Value) -> Vec<(ConnId, ServerMessage)> {
    s.handle_line(conn, &msg.to_string())
}

fn token(out: &[(ConnId, ServerMessage)]) -> String {
    out.iter()
        .find_map(|(_, m)| match m {
            ServerMessage::Joined { token, .. } => Some(token.clone()),
            _ => None,
        })
        .expect("joined")
}

/// The seat's view as spectators are shown it: no question.
fn seat_view(s: &Session, id: u64, seat: u8) -> Value {
    let mut v = serde_json::to_value(s.game(id).unwrap().view(seat)).unwrap();
    v["request"] = Value::Null;
    v
}

#[test]
fn spectators_see_one_seats_view_a_number_of_decisions_late() {
    const DELAY: usize = 3;
    let mut s = session();
    let id = match &send(
        &mut s,
        0,
        json!({"type": "create", "game": "gundam", "seed": 6,
               "spectate": {"seat": 0, "delay": DELAY}}),
    )[..]
    {
        [(0, ServerMessage::Created { game_id, .. })] => *game_id,
        other => panic!("{other:?}"),
    };
    let seats = [
        token(&send(
            &mut s,
            1,
            json!({"type": "join", "game_id": id, "seat": 0}),
        )),
        token(&send(
            &mut s,
            2,
            json!({"type": "join", "game_id": id, "seat": 1}),
        )),
    ];
    let joined = send(&mut s, 3, json!({"type": "join", "game_id": id}));
    let watcher = token(&joined);
    let count = |out: &[(ConnId, ServerMessage)]| {
        out.iter()
            .filter(|(c, m)| *c == 3 && matches!(m, ServerMessage::Event { seat: None, .. }))
            .count()
    };
    let mut spectator_events = count(&joined);
    let mut history = vec![seat_view(&s, id, 0)];
    let mut rng = Rng::new(6);
    let mut request_id = 1;
    while let Some(req) = s.game(id).unwrap().request().cloned() {
        let p = req.player() as usize;
        let out = send(
            &mut s,
            1 + p as u64,
            json!({"type": "respond", "game_id": id, "token": seats[p], "request_id": request_id,
                   "response": Answer::from(req.random_legal(&mut rng))}),
        );
        for (_, m) in &out {
            match m {
                ServerMessage::Error { .. } => panic!("{m:?}"),
                ServerMessage::Request { request_id: r, .. } => request_id = *r,
                _ => {}
            }
        }
        spectator_events += count(&out);
        history.push(seat_view(&s, id, 0));
        let shown = match &send(
            &mut s,
            3,
            json!({"type": "view", "game_id": id, "token": watcher}),
        )[..]
        {
            [(3, ServerMessage::View { view, .. })] => serde_json::to_value(view).unwrap(),
            other => panic!("{other:?}"),
        };
        if s.game(id).unwrap().result().is_some() {
            assert_eq!(shown, history[history.len() - 1], "over: the end at once");
        } else {
            let late = history.len().saturating_sub(1 + DELAY);
            assert_eq!(shown, history[late], "decision {}", history.len() - 1);
            if history.len() > DELAY + 2 {
                assert_ne!(
                    shown,
                    history[history.len() - 1],
                    "late, not now (decision {})",
                    history.len() - 1
                );
            }
        }
    }
    assert!(
        history.len() > 20,
        "a whole game: {} decisions",
        history.len()
    );
    assert!(spectator_events > 0);
    // Every event seat 0 was sent reached the spectator too, in the end.
    let all = s.game(id).unwrap().events_for(0).len();
    assert_eq!(spectator_events, all);
}

#[test]
fn a_late_view_of_a_seat_that_does_not_exist_or_too_late_is_refused() {
    let mut s = session();
    for (spectate, wanted) in [
        (json!({"seat": 4, "delay": 1}), "seats 0 to 1, not 4"),
        (json!({"seat": 0, "delay": 5000}), "at most 1000 decisions"),
    ] {
        let out = send(
            &mut s,
            0,
            json!({"type": "create", "game": "gundam", "spectate": spectate}),
        );
        match &out[..] {
            [(_, ServerMessage::Error { code, message, .. })] => {
                assert_eq!(*code, ErrorCode::BadSetup);
                assert!(message.contains(wanted), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }
}
