//! Random playouts of the real Gundam ruleset over the sample decks, in its three formats (two
//! players, Battle Royal for 4, Team Battle 2 vs 2): no panic, no script error, every game
//! finished, the kernel's invariants after every decision (no card lost or duplicated,
//! capacities held, views hide what they must), and determinism.

use std::rc::Rc;

use crate::common::{game_content, repo, seeded_game_of};
use riffle_core::{DeckList, Engine, OptionValue, Options};

fn gundam() -> (Rc<Engine>, Vec<DeckList>) {
    let (content, decks) = game_content(&[repo()], "gundam");
    let engine = Engine::new(&content).unwrap_or_else(|e| panic!("{e:?}"));
    (engine, decks)
}

fn mode(m: &str) -> Options {
    [("mode".to_string(), OptionValue::Name(m.to_string()))].into()
}

/// 300 games of `n` players in format `m`, each checked after every step.
fn three_hundred(n: usize, m: &str) {
    let (engine, decks) = gundam();
    let opts = mode(m);
    let mut wins = vec![0u32; n];
    for seed in 0..300 {
        let (_, p) = seeded_game_of(&engine, &decks, seed, n, &opts, true, false);
        assert!(p.errors.is_empty(), "{m}, seed {seed}: {:?}", p.errors);
        let r = p
            .result
            .unwrap_or_else(|| panic!("{m}, seed {seed}: unfinished ({:?})", p.stopped));
        for w in r.winners {
            wins[w as usize] += 1;
        }
    }
    // Every seat wins some games: no seat's deck or position is shut out by a rules bug.
    assert!(wins.iter().all(|w| *w > 0), "{m}: wins per seat {wins:?}");
}

#[test]
fn sample_decks_are_legal() {
    let (engine, decks) = gundam();
    assert!(decks.len() >= 4, "{} deck lists", decks.len());
    for d in &decks {
        assert_eq!(engine.validate_deck(d), Vec::<String>::new());
    }
}

#[test]
fn three_hundred_two_player_games_keep_the_invariants() {
    three_hundred(2, "standard");
}

#[test]
fn three_hundred_four_player_battle_royal_games_keep_the_invariants() {
    three_hundred(4, "battle-royal");
}

#[test]
fn three_hundred_team_battle_games_keep_the_invariants() {
    three_hundred(4, "team");
}

#[test]
fn same_seed_same_log_hash_in_every_format() {
    let (engine, decks) = gundam();
    for (n, m) in [
        (2, "standard"),
        (4, "battle-royal"),
        (3, "battle-royal"),
        (4, "team"),
    ] {
        let opts = mode(m);
        let hash = |seed| {
            seeded_game_of(&engine, &decks, seed, n, &opts, false, false)
                .1
                .hash
        };
        assert_eq!(hash(17), hash(17), "{m}");
        assert_ne!(hash(1), hash(2), "{m}");
    }
}
