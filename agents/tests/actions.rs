//! Games stepped by actions (`riffle_agents::actions`) and their observations
//! (`riffle_agents::encoding`), as the Python bindings use them.

mod common;

use riffle_agents::actions::{DONE, Stepper};
use riffle_agents::encoding::{CARD_ROWS, Encoding};
use riffle_core::{Game, Request, Rng};

fn game(name: &str, players: usize, mode: Option<&str>, seed: u64) -> (Game, Encoding) {
    let (engine, mut config, options) = common::table(name, players, mode);
    config.seed = seed;
    let enc = Encoding::of(&engine, players);
    (Game::with_options(engine, config, &options).unwrap(), enc)
}

/// Random legal actions play whole games of every game and mode; a choice of several
/// cards is made pick by pick; every option that names a visible card points at its row.
#[test]
fn actions_play_whole_games_and_options_point_at_their_cards() {
    let mut multi_picks = 0;
    for (name, players, mode) in [
        ("onepiece", 2, None),
        ("gundam", 2, None),
        ("gundam", 4, Some("battle-royal")),
        ("summoner-master", 2, None),
    ] {
        for seed in 1..=3 {
            let (g, enc) = game(name, players, mode, seed);
            let mut s = Stepper::new(g);
            let mut rng = Rng::new(seed);
            let mut steps = 0;
            while let Some(p) = s.current_player() {
                let legal = s.legal_actions();
                assert!(!legal.is_empty(), "{name}: no legal action at step {steps}");
                let view = s.game.view(p);
                let obs = enc.encode(&view, &s.picks);
                assert_eq!(obs.cards.len(), CARD_ROWS * enc.card_width());
                assert_eq!(obs.global.len(), enc.global_width());
                if let Some(Request::Choose { options, .. }) = &view.request {
                    assert_eq!(obs.options.len(), 3 * options.len().min(DONE));
                    for (i, o) in options.iter().enumerate() {
                        let row = obs.options[3 * i];
                        if row >= 0 {
                            // The row is a card of the option's zone, seen by the seat.
                            let w = enc.card_width();
                            let r = &obs.cards[row as usize * w..(row as usize + 1) * w];
                            assert!(r.iter().any(|x| *x != 0.0), "{name}: row {row} empty");
                        } else {
                            assert!(
                                o.card.is_none() || !view_shows(&view, o.card.unwrap().0),
                                "{name}: an option's visible card has no row"
                            );
                        }
                    }
                }
                let a = legal[rng.below(legal.len() as u64) as usize];
                let before = s.picks.len();
                s.apply(a).expect("a legal action");
                multi_picks += (s.picks.len() > before) as u32;
                steps += 1;
                assert!(steps < 100_000, "{name}: the game ends");
            }
            assert!(s.game.result().is_some(), "{name}: over");
            // Illegal actions are refused and change nothing.
            assert!(s.apply(0).is_err());
        }
    }
    assert!(
        multi_picks > 0,
        "some choice of several cards was made pick by pick"
    );
}

fn view_shows(view: &riffle_core::views::PlayerView, id: u32) -> bool {
    view.zones
        .iter()
        .flat_map(|z| &z.cards)
        .any(|c| c.id.map(|i| i.0) == Some(id))
}

/// An observation depends only on what the seat sees: the game and a copy with the seat's
/// hidden cards dealt again encode the same.
#[test]
fn observations_do_not_depend_on_hidden_cards() {
    let (mut g, enc) = game("onepiece", 2, None, 5);
    let mut rng = Rng::new(5);
    let mut compared = 0;
    for n in 0..400 {
        let Some(req) = g.request().cloned() else {
            break;
        };
        let p = req.player();
        if n % 7 == 0
            && let Ok(copy) = g.redeal(p, rng.next_u64())
        {
            assert_eq!(enc.encode(&g.view(p), &[]), enc.encode(&copy.view(p), &[]));
            let other = 1 - p;
            compared +=
                (enc.encode(&g.view(other), &[]) != enc.encode(&copy.view(other), &[])) as u32;
        }
        g.respond(p, req.random_legal(&mut rng)).unwrap();
    }
    assert!(
        compared > 3,
        "the other seat's observation did change in {compared} copies"
    );
}
