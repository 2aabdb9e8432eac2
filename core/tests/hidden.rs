//! A choice among cards the chooser may not see is blind: its options say where each card is
//! ("hidden card 2 of 3 in hand of player 2"), never what it is, and carry no handle to it;
//! the request in a view and the decision in the log are the same. A look (`ctx:look`) lets
//! the chooser see them, and a shuffle ends every look at the shuffled zone (OP 3-1-8, GD
//! 4-1-6: nobody knows a hidden zone's order).
//!
//! The made-up game: each player has a hand (its owner sees it), a deck (hidden) and a board
//! (public); three cards are drawn at the start. The first player's main actions choose a card
//! of the opponent's hand blind, or after a look, or search their own deck.

mod common;

use common::{card, deck, engine_of, labels, new_game, pick, said};
use riffle_core::*;

const GAME: &str = r#"{
  "game": "hidden", "name": {"en": "Hidden"}, "version": "1",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "hand", "scope": "player", "visibility": "owner"},
    {"name": "board", "scope": "player", "visibility": "public", "in_play": true}
  ],
  "categories": ["unit"],
  "characteristics": [{"name": "power", "kind": "int"}],
  "orientations": ["up"],
  "events": ["said"],
  "timings": ["main"],
  "setup": "setup",
  "turn": {"phases": [{"name": "main", "actions": "main_actions"}]},
  "triggers": {"order": "fifo_batches", "player_orders": false},
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "deck", "zone": "deck"}]},
  "scripts": ["hidden.lua"]
}"#;

const RULES: &str = r#"
function setup(ctx)
  for p = 1, 2 do ctx:move(ctx:top("deck", p, 3), "hand", { player = p }) end
end
function activate(ctx, ab, args) return true end
function validate_deck(deck) return {} end

local function tell(ctx, c) ctx:emit("said", { key = c.name, amount = 1 }) end

function main_actions(ctx)
  local p = ctx.turn_player
  local opp = 3 - p
  return {
    { label = "snoop", run = function(ctx)
      tell(ctx, ctx:choose_cards(p, ctx:cards("hand", opp), { prompt = "snoop" }))
    end },
    -- A script asking with the kernel's trigger-ordering prompt is made blind all the same:
    -- only the kernel's own request about one's own triggers is shown as is.
    { label = "posing", run = function(ctx)
      tell(ctx, ctx:choose_cards(p, ctx:cards("hand", opp), { prompt = "order_triggers" }))
    end },
    { label = "peek", run = function(ctx)
      ctx:look(ctx:cards("hand", opp), p)
      tell(ctx, ctx:choose_cards(p, ctx:cards("hand", opp), { prompt = "peek" }))
    end },
    { label = "search", run = function(ctx)
      local deck = ctx:cards("deck", p)
      ctx:look(deck, p)
      tell(ctx, ctx:choose_cards(p, deck, { prompt = "search" }))
      ctx:shuffle("deck", p)
    end },
    -- The opponent's top card, shown to everyone, goes to their hand.
    { label = "tutor", run = function(ctx)
      local c = ctx:top("deck", opp, 1)
      ctx:reveal(c)
      ctx:move(c, "hand", { player = opp })
    end },
    { label = "end turn", ends_phase = true },
  }
end
"#;

fn engine() -> std::rc::Rc<Engine> {
    let unit = |id: &str| card(id, "unit", serde_json::json!({ "power": 1 }), None);
    engine_of(&common::content(
        GAME,
        |_| {},
        &[("hidden.lua", RULES)],
        ["Ant", "Bee", "Cat", "Dog", "Elk", "Fox", "Gnu", "Hen"]
            .map(unit)
            .into(),
    ))
}

/// Player 1 holds Elk, Dog, Cat (bottom to top; deck Ant, Bee); player 2 holds Hen, Gnu, Fox
/// (deck Ant, Bee).
fn game() -> Game {
    let e = engine();
    let one = deck(
        "deck",
        &[("Ant", 1), ("Bee", 1), ("Cat", 1), ("Dog", 1), ("Elk", 1)],
    );
    let two = deck(
        "deck",
        &[("Ant", 1), ("Bee", 1), ("Fox", 1), ("Gnu", 1), ("Hen", 1)],
    );
    let g = new_game(&e, 1, vec![one, two]);
    // The top three are drawn, one at a time.
    let hand = |g: &Game, p| names(&g.inspect_zone(p, "hand").expect("a hand"));
    assert_eq!(hand(&g, 0), ["Elk", "Dog", "Cat"]);
    assert_eq!(hand(&g, 1), ["Hen", "Gnu", "Fox"]);
    g
}

fn names(cards: &[CardView]) -> Vec<String> {
    cards.iter().filter_map(|c| c.name.clone()).collect()
}

fn options(req: Option<&Request>) -> Vec<Choice> {
    match req {
        Some(Request::Choose { options, .. }) => options.clone(),
        _ => panic!("no choice pending: {req:?}"),
    }
}

/// The names of player 2's hand anywhere in `text` (labels, prompts, a serialized request or log).
fn names_in(text: &str) -> Vec<&'static str> {
    ["Fox", "Gnu", "Hen"]
        .into_iter()
        .filter(|n| text.contains(n))
        .collect()
}

#[test]
fn a_choice_among_an_opponents_hand_is_blind() {
    let mut g = game();
    pick(&mut g, "snoop");
    // Counted from the top: the hand's last card is its first option here.
    assert_eq!(
        labels(&g),
        [
            "hidden card 3 of 3 in hand of player 2",
            "hidden card 2 of 3 in hand of player 2",
            "hidden card 1 of 3 in hand of player 2"
        ]
    );
    // No handle to follow either: neither the request nor the chooser's view carries an id.
    for o in options(g.request())
        .iter()
        .chain(&options(g.view(0).request.as_ref()))
    {
        assert_eq!((o.card, o.target), (None, None), "{o:?}");
    }
    let view = serde_json::to_string(&g.view(0).request).unwrap();
    assert_eq!(names_in(&view), Vec::<&str>::new(), "{view}");
    pick(&mut g, "hidden card 2 of 3");
    // The script still gets the card itself: the middle card of player 2's hand.
    assert_eq!(said(&g, 0), [("Gnu".to_string(), 1)]);
    // Neither player's log shows which card it was at the decision.
    for p in 0..2 {
        for e in g.events_for(p) {
            if let Entry::Decision { request, .. } = &e {
                let text = serde_json::to_string(request).unwrap();
                if text.contains("snoop") {
                    assert_eq!(names_in(&text), Vec::<&str>::new(), "player {p}: {text}");
                }
            }
        }
    }
}

#[test]
fn a_script_using_the_trigger_ordering_prompt_is_blind_too() {
    let mut g = game();
    pick(&mut g, "posing");
    assert_eq!(
        labels(&g),
        [
            "hidden card 3 of 3 in hand of player 2",
            "hidden card 2 of 3 in hand of player 2",
            "hidden card 1 of 3 in hand of player 2"
        ]
    );
}

#[test]
fn after_a_look_the_choice_names_the_cards() {
    let mut g = game();
    pick(&mut g, "peek");
    assert_eq!(labels(&g), ["Hen", "Gnu", "Fox"]);
    assert!(options(g.request()).iter().all(|o| o.card.is_some()));
    pick(&mut g, "Fox");
    assert_eq!(said(&g, 0), [("Fox".to_string(), 1)]);
}

#[test]
fn a_shuffle_ends_the_look_at_a_searched_deck() {
    let mut g = game();
    pick(&mut g, "search");
    assert_eq!(labels(&g), ["Ant", "Bee"]);
    pick(&mut g, "Bee");
    // Looked at, then shuffled: player 1 no longer sees which deck card is which.
    let deck = g
        .view(0)
        .zones
        .into_iter()
        .find(|z| z.name == "deck" && z.owner == Some(0))
        .expect("player 1's deck");
    assert_eq!(deck.count, 2);
    assert!(
        deck.cards
            .iter()
            .all(|c| c.name.is_none() && c.id.is_none()),
        "{deck:?}"
    );
}

/// `Game::redeal`: player 1's view of a copy is the game's, whatever the seed; player 2's
/// hand and deck trade cards among themselves (never with player 1's), but a card the log
/// showed player 1 stays where it is, and so do cards player 1 looked at; a game with a
/// script suspended is refused.
#[test]
fn dealing_again_keeps_what_a_seat_sees_and_was_shown() {
    let mut g = game();
    // Player 2's top deck card (Bee) is shown to all as it goes to their hand.
    pick(&mut g, "tutor");
    let hand = |g: &Game, p| names(&g.inspect_zone(p, "hand").expect("a hand"));
    assert_eq!(hand(&g, 1), ["Hen", "Gnu", "Fox", "Bee"]);
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let mut p2_hands = std::collections::BTreeSet::new();
    let mut p1_decks = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let copy = g.redeal(0, seed).expect("at an open phase");
        let seen = |g: &Game| serde_json::to_string(&g.view(0)).unwrap();
        assert_eq!(seen(&copy), seen(&g), "seed {seed}");
        assert_eq!(copy.log_hash(), g.log_hash());
        // Bee stays in player 2's hand; the rest of their cards are dealt again.
        let h = hand(&copy, 1);
        assert_eq!(h[3], "Bee", "seed {seed}: {h:?}");
        let mut all = h.clone();
        all.extend(names(&copy.inspect_zone(1, "deck").unwrap()));
        assert_eq!(
            sorted(all),
            ["Ant", "Bee", "Fox", "Gnu", "Hen"],
            "seed {seed}"
        );
        p2_hands.insert(h);
        // Player 1's own deck is hidden from them too: its two cards may trade places.
        p1_decks.insert(names(&copy.inspect_zone(0, "deck").unwrap()));
        assert_eq!(hand(&copy, 0), hand(&g, 0));
    }
    assert!(
        p2_hands.len() > 1,
        "player 2's hand is dealt again: {p2_hands:?}"
    );
    assert_eq!(
        p1_decks.len(),
        2,
        "both orders of player 1's deck: {p1_decks:?}"
    );
    // After a look, inside the effect: refused; once it resolved, the cards looked at stay.
    pick(&mut g, "end turn");
    let refused = |r: Result<Game, String>| r.err().unwrap_or_default();
    assert!(refused(g.redeal(5, 0)).contains("no seat 5"));
    let mut g = game();
    pick(&mut g, "peek");
    assert!(
        refused(g.redeal(0, 1)).contains("a script is suspended"),
        "inside an effect"
    );
    pick(&mut g, "Fox");
    for seed in 0..10 {
        assert_eq!(hand(&g.redeal(0, seed).unwrap(), 1), hand(&g, 1));
    }
}

/// `Game::redeal` deals from what the viewer knows: two games player 1 cannot tell apart
/// (the game and a copy dealt again for them) give the same copy for the same seed, so a
/// search on such copies answers the same whatever it cannot see.
#[test]
fn dealing_again_depends_only_on_what_the_seat_knows() {
    let mut g = game();
    pick(&mut g, "tutor");
    let every_seat = |g: &Game| {
        (0..2)
            .map(|p| serde_json::to_string(&g.view(p)).unwrap())
            .collect::<Vec<_>>()
    };
    let mut differed = false;
    for first in 0..8 {
        let twin = g.redeal(0, first).unwrap();
        differed |= every_seat(&twin) != every_seat(&g);
        for seed in [3, 11] {
            assert_eq!(
                every_seat(&g.redeal(0, seed).unwrap()),
                every_seat(&twin.redeal(0, seed).unwrap()),
                "dealt from {first}, then with {seed}"
            );
        }
    }
    assert!(
        differed,
        "some twin's hidden cards lie elsewhere than the game's"
    );
}

#[test]
fn a_spectator_is_shown_a_card_only_once_every_seat_may_see_it() {
    let mut g = game();
    let hand = |v: &PlayerView, owner: PlayerId| {
        names(
            &v.zones
                .iter()
                .find(|z| z.name == "hand" && z.owner == Some(owner))
                .unwrap()
                .cards,
        )
    };
    // Each hand is seen by its owner only: a spectator sees neither.
    let v = g.spectator_view();
    assert_eq!(hand(&v, 0), Vec::<String>::new());
    assert_eq!(hand(&v, 1), Vec::<String>::new());
    // Player 1 looks at player 2's hand: every seat now sees it, and so does a spectator;
    // player 1's hand, seen by its owner only, stays hidden.
    pick(&mut g, "peek");
    assert_eq!(hand(&g.view(0), 1), ["Hen", "Gnu", "Fox"]);
    let v = g.spectator_view();
    assert_eq!(hand(&v, 1), ["Hen", "Gnu", "Fox"]);
    assert_eq!(hand(&v, 0), Vec::<String>::new());
    let text = serde_json::to_string(&(&v, g.spectator_events_from(0))).unwrap();
    for own in ["Cat", "Dog", "Elk"] {
        assert!(!text.contains(own), "{own} shown to a spectator: {text}");
    }
}
