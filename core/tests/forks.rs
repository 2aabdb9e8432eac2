//! Forks made while a script is suspended, on a made-up game (`common::BOARD_GAME`): such a
//! fork replays the answers given since its game's snapshot. A game never forked keeps an
//! old snapshot (its creation's, or a hot reload's) and a journal of every decision since,
//! so its first such fork replays many decisions, quiescent ones among them; a forked game
//! moves its snapshot to each quiescent decision it answers.
//!
//! Each player's board holds a "smith", whose ability says a word, and a "bench", whose
//! ability asks its player for a word first (a script suspended mid-effect).

mod common;

use std::rc::Rc;

use common::{card, deck, engine_of, new_game, pick, said};
use riffle_core::*;

/// A unit whose activated ability says `word`.
fn speaker(id: &str, word: &str) -> CardDef {
    let script = format!(
        r#"return {{ {{ kind = "activated", timing = "main",
          operate = function(ctx) ctx:emit("said", {{ key = "{word}", amount = 1 }}) end }} }}"#
    );
    card(id, "unit", serde_json::json!({ "power": 1 }), Some(&script))
}

/// A unit whose ability asks its player for a word (`a` or `b`), then says it.
fn bench() -> CardDef {
    let script = r#"return { { kind = "activated", timing = "main",
          operate = function(ctx)
            local w = ctx:choose(ctx.player, { { label = "a" }, { label = "b" } })
            ctx:emit("said", { key = "bench " .. w.label, amount = 1 })
          end } }"#;
    card(
        "bench",
        "unit",
        serde_json::json!({ "power": 1 }),
        Some(script),
    )
}

fn engine() -> Rc<Engine> {
    engine_of(&common::content(
        common::BOARD_GAME,
        |_| {},
        &[("board.lua", common::BOARD_ACTIVATE_RULES)],
        vec![speaker("smith", "clang"), bench()],
    ))
}

fn game(e: &Rc<Engine>) -> Game {
    let d = deck("board", &[("smith", 1), ("bench", 1)]);
    new_game(e, 1, vec![d.clone(), d])
}

/// `n` turns of quiescent decisions: the turn player uses smith twice and ends the turn.
fn quiescent_turns(g: &mut Game, n: usize) {
    for _ in 0..n {
        assert!(g.quiescent());
        pick(g, "use smith");
        pick(g, "use smith");
        pick(g, "end turn");
    }
}

/// Answers each game the same way, then checks that they agree with the first.
fn answer_alike(games: &mut [&mut Game], answers: &[&str]) {
    for a in answers {
        for g in games.iter_mut() {
            pick(g, a);
        }
    }
    let (first, rest) = games.split_first().expect("a game");
    for g in rest {
        assert_eq!(g.log_hash(), first.log_hash());
        assert_eq!(g.log(), first.log());
        assert_eq!(g.request(), first.request());
    }
}

#[test]
fn a_game_never_forked_forks_mid_effect_after_many_decisions_and_both_answer_alike() {
    let e = engine();
    let mut g = game(&e);
    quiescent_turns(&mut g, 20);
    pick(&mut g, "use bench");
    assert!(!g.quiescent(), "the bench's ability waits for its word");
    // Its first fork: the replay runs from the game's creation through its 60 decisions.
    let mut f = g.fork();
    assert_eq!(f.log_hash(), g.log_hash());
    assert_eq!(f.request(), g.request());
    answer_alike(&mut [&mut g, &mut f], &["b", "use smith", "end turn"]);
    let from = g.log().len();
    // Now forked, the game took a snapshot at its next quiescent decision: a fork made
    // while a script is suspended again replays from there.
    pick(&mut g, "use bench");
    pick(&mut f, "use bench");
    let mut f2 = g.fork();
    answer_alike(&mut [&mut g, &mut f, &mut f2], &["a"]);
    assert_eq!(said(&g, from), [("bench a".to_string(), 1)]);
    answer_alike(&mut [&mut g, &mut f, &mut f2], &["use smith", "end turn"]);
}

#[test]
fn a_fork_of_a_fork_replays_its_parents_journal_and_its_own() {
    let e = engine();
    let mut g = game(&e);
    quiescent_turns(&mut g, 5);
    // A plain copy at a quiescent decision: it shares the game's old snapshot and journal.
    let mut f = g.fork();
    quiescent_turns(&mut g, 1);
    quiescent_turns(&mut f, 1);
    pick(&mut g, "use bench");
    pick(&mut f, "use bench");
    // The copy, never forked itself, forks mid-effect; and that fork (unbuilt) forks too.
    let mut ff = f.fork();
    let mut fff = ff.fork();
    answer_alike(
        &mut [&mut g, &mut f, &mut ff, &mut fff],
        &["b", "use bench", "a", "end turn"],
    );
    // The forks of forks, forked again mid-effect after more decisions.
    quiescent_turns(&mut fff, 3);
    pick(&mut fff, "use bench");
    let mut f4 = fff.fork();
    quiescent_turns(&mut ff, 3);
    pick(&mut ff, "use bench");
    answer_alike(&mut [&mut ff, &mut fff, &mut f4], &["a", "use smith"]);
}

#[test]
fn a_first_fork_replays_past_quiescent_decisions_without_following_a_newer_reload() {
    let e = engine();
    let mut g = game(&e);
    quiescent_turns(&mut g, 4);
    pick(&mut g, "use bench");
    e.reload(&[CardChange::Set {
        def: speaker("smith", "v2"),
        version: "v2".into(),
    }])
    .expect("reloads");
    assert!(!g.follow_reloads(), "not while a script is suspended");
    // The replay passes the quiescent decisions the game answered before the reload: it
    // moves to the new engine where the game does (after the bench's word), not there.
    let mut f = g.fork();
    answer_alike(&mut [&mut g, &mut f], &["a"]);
    let from = g.log().len();
    answer_alike(&mut [&mut g, &mut f], &["use smith"]);
    assert_eq!(said(&g, from), [("v2".to_string(), 1)]);
    // Forks after the reload replay from the snapshot it took, with the new engine.
    quiescent_turns(&mut g, 2);
    pick(&mut g, "use bench");
    let mut f2 = g.fork();
    quiescent_turns(&mut f, 2);
    pick(&mut f, "use bench");
    answer_alike(&mut [&mut g, &mut f, &mut f2], &["b", "use smith"]);
    assert!(
        said(&f2, from).contains(&("v2".to_string(), 1)),
        "the fork plays the new version"
    );
}
