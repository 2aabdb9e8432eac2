//! The agents on the three games: answers that do not depend on what the seat cannot see,
//! greedy stronger than random where its evaluation says enough, a search that plays
//! whole games.

mod common;

use common::table;
use riffle_agents::{Agent, Budget, Evaluation, GreedyAgent, MctsAgent, RandomAgent};
use riffle_core::{Game, Rng};

const TABLES: &[(&str, usize, Option<&str>)] = &[
    ("onepiece", 2, None),
    ("gundam", 2, None),
    ("gundam", 4, Some("team")),
    ("summoner-master", 2, None),
];

/// The search agents never read what their seat cannot see: at many decisions of random
/// games, greedy and mcts (same seed) answer the game and a copy with the seat's hidden
/// cards dealt again the same. (The property `Game::redeal` gives them: a copy depends
/// only on what the seat knows.)
#[test]
fn searching_agents_answer_the_same_whatever_their_seat_cannot_see() {
    for &(name, players, mode) in TABLES {
        let (engine, mut config, options) = table(name, players, mode);
        let evaluation = Evaluation::of(&engine);
        let mut compared = 0;
        for seed in 1..=2u64 {
            config.seed = seed;
            let mut g = Game::with_options(engine.clone(), config.clone(), &options).unwrap();
            let mut rng = Rng::new(seed);
            let mut n = 0u64;
            while let Some(req) = g.request().cloned() {
                n += 1;
                let seat = req.player();
                if n.is_multiple_of(15)
                    && let Ok(twin) = g.redeal(seat, rng.next_u64())
                {
                    let k = seed * 1000 + n;
                    let greedy =
                        |g: &Game| GreedyAgent::new(evaluation.clone(), k).respond(g, &req);
                    assert_eq!(greedy(&g), greedy(&twin), "{name}: greedy at decision {n}");
                    let mcts = |g: &Game| {
                        MctsAgent::new(evaluation.clone(), Budget::Playouts(3), k).respond(g, &req)
                    };
                    assert_eq!(mcts(&g), mcts(&twin), "{name}: mcts at decision {n}");
                    compared += 1;
                }
                g.respond(seat, req.random_legal(&mut rng)).unwrap();
                if n > 300 {
                    break;
                }
            }
        }
        assert!(compared >= 5, "{name}: only {compared} decisions compared");
    }
}

/// Plays `games` games of greedy against random, greedy taking each seat in turn; the
/// games greedy won.
fn greedy_wins(name: &str, games: u64) -> u64 {
    let (engine, mut config, options) = table(name, 2, None);
    let mut won = 0;
    for k in 0..games {
        config.seed = 100 + k;
        let greedy_seat = (k % 2) as u8;
        let mut agents: Vec<Box<dyn Agent>> = vec![
            Box::new(GreedyAgent::new(Evaluation::of(&engine), k)),
            Box::new(RandomAgent(Rng::new(k))),
        ];
        if greedy_seat == 1 {
            agents.swap(0, 1);
        }
        let mut g = Game::with_options(engine.clone(), config.clone(), &options).unwrap();
        while let Some(req) = g.request().cloned() {
            let r = agents[req.player() as usize].respond(&g, &req).unwrap();
            g.respond(req.player(), r).unwrap();
        }
        let result = g.result().expect("the game ends");
        won += result.winners.contains(&greedy_seat) as u64;
    }
    won
}

/// The declared evaluations of One Piece (life first) and Gundam (shields first) make
/// greedy the stronger player from either seat (measured: 18 of 20 and 20 of 20 games).
#[test]
fn greedy_beats_random_where_the_evaluation_guides_it() {
    for name in ["onepiece", "gundam"] {
        let won = greedy_wins(name, 6);
        assert!(won >= 5, "{name}: greedy won {won} of 6 against random");
    }
}

/// mcts plays a whole game: it searches where the game can be dealt again and answers as
/// greedy does inside an effect's questions, every answer legal.
#[test]
fn mcts_plays_a_whole_game() {
    let (engine, config, options) = table("onepiece", 2, None);
    let mut mcts = MctsAgent::new(Evaluation::of(&engine), Budget::Playouts(6), 5);
    let mut random = RandomAgent(Rng::new(5));
    let mut g = Game::with_options(engine.clone(), config, &options).unwrap();
    while let Some(req) = g.request().cloned() {
        let r = if req.player() == 0 {
            mcts.respond(&g, &req).unwrap()
        } else {
            random.respond(&g, &req).unwrap()
        };
        g.respond(req.player(), r).expect("a legal answer");
    }
    assert!(g.result().is_some());
    let s = mcts.stats();
    assert!(s.searched > 5, "{s:?}");
    assert_eq!(s.playouts, 6 * s.searched, "{s:?}");
    assert!(s.forced > 0 && s.greedy > 0, "{s:?}");
}
