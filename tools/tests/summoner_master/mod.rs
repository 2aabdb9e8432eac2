//! Random playouts of the real Summoner Master ruleset over the sample decks at each of its
//! three play levels (SM 101.1: Caller, Summoner, Beginner): no panic, no script error, every
//! game finished, the kernel's invariants after every decision (no card lost or duplicated,
//! capacities held, views hide what they must), and determinism.

use std::rc::Rc;

use crate::common::{game_content, repo, seeded_game_of};
use riffle_core::{DeckList, Engine, OptionValue, Options};

fn summoner_master() -> (Rc<Engine>, Vec<DeckList>) {
    let (content, decks) = game_content(&[repo()], "summoner-master");
    let engine = Engine::new(&content).unwrap_or_else(|e| panic!("{e:?}"));
    (engine, decks)
}

fn level(l: &str) -> Options {
    [("level".to_string(), OptionValue::Name(l.to_string()))].into()
}

/// 300 games at play level `l`, each checked after every step; decks rotate with the seed.
fn three_hundred(l: &str) {
    let (engine, decks) = summoner_master();
    let opts = level(l);
    let mut wins = vec![0u32; 2];
    let mut draws = 0;
    for seed in 0..300 {
        let (_, p) = seeded_game_of(&engine, &decks, seed, 2, &opts, true, false);
        assert!(p.errors.is_empty(), "{l}, seed {seed}: {:?}", p.errors);
        let r = p
            .result
            .unwrap_or_else(|| panic!("{l}, seed {seed}: unfinished ({:?})", p.stopped));
        match r.winners[..] {
            [w] => wins[w as usize] += 1,
            [] => draws += 1,
            _ => panic!("{l}, seed {seed}: winners {:?}", r.winners),
        }
    }
    // Both seats win some games: no seat is shut out by a rules bug.
    assert!(
        wins.iter().all(|w| *w > 0),
        "{l}: wins per seat {wins:?}, draws {draws}"
    );
}

#[test]
fn sample_decks_are_legal_at_every_level() {
    let (engine, decks) = summoner_master();
    assert!(decks.len() >= 4, "{} deck lists", decks.len());
    for l in ["caller", "summoner", "beginner"] {
        for (k, d) in decks.iter().enumerate() {
            let problems = engine.validate_deck_with(d, &level(l));
            assert_eq!(problems, Ok(Vec::new()), "{l}, deck {k}");
        }
    }
}

#[test]
fn three_hundred_caller_games_keep_the_invariants() {
    three_hundred("caller");
}

#[test]
fn three_hundred_summoner_games_keep_the_invariants() {
    three_hundred("summoner");
}

#[test]
fn three_hundred_beginner_games_keep_the_invariants() {
    three_hundred("beginner");
}

#[test]
fn same_seed_same_log_hash_at_every_level() {
    let (engine, decks) = summoner_master();
    for l in ["caller", "summoner", "beginner"] {
        let opts = level(l);
        let hash = |seed| {
            seeded_game_of(&engine, &decks, seed, 2, &opts, false, false)
                .1
                .hash
        };
        assert_eq!(hash(17), hash(17), "{l}");
        assert_ne!(hash(1), hash(2), "{l}");
    }
}
