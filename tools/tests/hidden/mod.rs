//! No request shows a player a card they may not see (OP 3-1-8, GD 4-1-6, SM 302): in random
//! games of the three real rulesets, every pending request's prompt and option labels, as its
//! chooser's view holds them, name no card that is hidden from the chooser everywhere at that
//! moment. A choice among such cards is blind (`hidden card 2 of 5 in hand of player 2`).
//! A few games each: every request builds two views (Summoner Master's cost most, about 8 s
//! a game in a debug build).

mod canary;
mod redeal;

use std::collections::BTreeSet;

use riffle::play::{Agent, RandomAgent, play_game_with};
use riffle_core::{
    CardView, Engine, Game, GameConfig, MatchContext, OptionValue, Options, Request, Rng,
};

use crate::common::{game_content, repo};

fn collect(cards: &[CardView], into: &mut BTreeSet<String>) {
    for c in cards {
        into.extend(c.name.clone());
        collect(&c.attachments, into);
    }
}

/// Every name the chooser of the pending request may not see anywhere, checked against
/// what that request shows them: a failure names the game, seed and label.
fn check(g: &Game, game: &str, seed: u64, checked: &mut usize) {
    let Some(p) = g.request().map(Request::player) else {
        return;
    };
    let view = g.view(p);
    let mut seen = BTreeSet::new();
    let mut all = BTreeSet::new();
    for z in &view.zones {
        collect(&z.cards, &mut seen);
        let whole = g
            .inspect_zone(z.owner.unwrap_or(0), &z.name)
            .expect("a zone of the view");
        collect(&whole, &mut all);
    }
    // A hidden name a seen name contains ("Nami" in "Tidecaller Nami") cannot be told apart.
    let hidden: Vec<&String> = all
        .iter()
        .filter(|n| !seen.iter().any(|s| s.contains(n.as_str())))
        .collect();
    let req = view.request.expect("the chooser's view holds the request");
    let mut texts = vec![req.prompt().to_string()];
    if let Request::Choose { options, .. } = &req {
        // Summoner Master's Wisdom names a card of the world (any card the content has, Gl:
        // Wisdom 2; docs/rulings B.33), not a card of this game: its names are no one's secret.
        texts.extend(
            options
                .iter()
                .filter(|o| o.kind.as_deref() != Some("wisdom"))
                .map(|o| o.label.clone()),
        );
        for o in options {
            for id in o.card.iter().chain(&o.target) {
                let shown = view.zones.iter().any(|z| {
                    fn has(cs: &[CardView], id: riffle_core::ObjId) -> bool {
                        cs.iter()
                            .any(|c| c.id == Some(id) || has(&c.attachments, id))
                    }
                    has(&z.cards, *id)
                });
                assert!(
                    shown,
                    "{game} seed {seed}: option {:?} of {:?} to player {} holds a handle to a card they cannot see",
                    o,
                    req.prompt(),
                    p + 1
                );
            }
        }
    }
    for t in &texts {
        for n in &hidden {
            assert!(
                !t.contains(n.as_str()),
                "{game} seed {seed}: player {} is shown '{t}', naming {n}, a card they cannot see",
                p + 1
            );
        }
    }
    *checked += 1;
}

/// The engine of `game` with these options, and the game of `seed` for `players` seats:
/// seat k plays the deck list (seed + k) mod their number.
pub(super) struct Table {
    pub engine: std::rc::Rc<Engine>,
    pub options: Options,
    decks: Vec<riffle_core::DeckList>,
    players: usize,
}

impl Table {
    pub fn new(game: &str, players: usize, options: &[(&str, &str)]) -> Table {
        let (content, decks) = game_content(&[repo()], game);
        let engine = Engine::new(&content).unwrap_or_else(|e| panic!("{e:?}"));
        let options = options
            .iter()
            .map(|(k, v)| (k.to_string(), OptionValue::Name(v.to_string())))
            .collect();
        Table {
            engine,
            options,
            decks,
            players,
        }
    }

    pub fn config(&self, seed: u64, keep_log: bool) -> GameConfig {
        GameConfig {
            seed,
            decks: (0..self.players)
                .map(|k| self.decks[(seed as usize + k) % self.decks.len()].clone())
                .collect(),
            keep_log,
        }
    }
}

/// `games` random games of `game` for `players` seats with `options`, every request checked.
fn no_request_names_a_hidden_card(
    game: &str,
    players: usize,
    options: &[(&str, &str)],
    games: u64,
) {
    let table = Table::new(game, players, options);
    let (engine, options) = (&table.engine, &table.options);
    let mut checked = 0usize;
    for seed in 0..games {
        let mut agents: Vec<Box<dyn Agent>> = (0..players as u64)
            .map(|k| Box::new(RandomAgent(Rng::new(seed * 8 + k))) as Box<dyn Agent>)
            .collect();
        let config = table.config(seed, false);
        play_game_with(
            engine,
            config,
            options,
            &MatchContext::default(),
            &mut agents,
            false,
            |g| check(g, game, seed, &mut checked),
        )
        .unwrap_or_else(|e| panic!("{game} seed {seed}: {e}"));
    }
    assert!(
        checked > games as usize * 50,
        "{game}: only {checked} requests checked"
    );
}

#[test]
fn one_piece_requests_name_no_hidden_card() {
    no_request_names_a_hidden_card("onepiece", 2, &[], 12);
}

#[test]
fn gundam_requests_name_no_hidden_card() {
    no_request_names_a_hidden_card("gundam", 2, &[], 6);
    no_request_names_a_hidden_card("gundam", 4, &[("mode", "team")], 2);
}

#[test]
fn summoner_master_requests_name_no_hidden_card() {
    no_request_names_a_hidden_card("summoner-master", 2, &[("level", "summoner")], 3);
}
