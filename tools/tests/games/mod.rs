//! Random playouts of the real One Piece ruleset over the sample decks: no panic, no script
//! error, the kernel's invariants after every decision (no card lost or duplicated,
//! capacities held, views hide what they must), and determinism.

use std::rc::Rc;

use crate::common::{onepiece_content, repo, seeded_game};
use riffle_core::{DeckList, Engine};

fn onepiece() -> (Rc<Engine>, Vec<DeckList>) {
    let (content, decks) = onepiece_content(&[repo()]);
    let engine = Engine::new(&content).unwrap_or_else(|e| panic!("{e:?}"));
    (engine, decks)
}

fn play(engine: &Rc<Engine>, decks: &[DeckList], seed: u64, check: bool) -> riffle::play::Played {
    seeded_game(engine, decks, seed, false, check).1
}

#[test]
fn sample_decks_are_legal() {
    let (engine, decks) = onepiece();
    assert!(decks.len() >= 4);
    for d in &decks {
        assert_eq!(engine.validate_deck(d), Vec::<String>::new());
    }
}

#[test]
fn three_hundred_random_games_keep_the_invariants() {
    let (engine, decks) = onepiece();
    for seed in 0..300 {
        let p = play(&engine, &decks, seed, true);
        assert!(p.errors.is_empty(), "seed {seed}: {:?}", p.errors);
        assert!(p.result.is_some(), "seed {seed}: unfinished");
    }
}

#[test]
fn same_seed_same_log_hash() {
    let (engine, decks) = onepiece();
    for seed in [3, 17, 99] {
        assert_eq!(
            play(&engine, &decks, seed, false).hash,
            play(&engine, &decks, seed, false).hash
        );
    }
    assert_ne!(
        play(&engine, &decks, 1, false).hash,
        play(&engine, &decks, 2, false).hash
    );
}
